import { describeUsageV3Inconsistency, type UsageV3 } from '@tokenforge/model-protocol';
import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { reconcileCacheWrite } from '../../codec-kit/usage-reconciliation.js';
import type { OpenAiResponsesWireUsage } from './wire-readers.js';

/**
 * Converts a Responses `usage` object to {@link UsageV3}.
 *
 * Arithmetic (§2.7 of the fact sheet; it is already the contract's):
 * - `inputTokens` = `input_tokens`, which includes cached input;
 * - `cacheReadInputTokens` = `input_tokens_details.cached_tokens` (a part of `input_tokens`);
 * - `cacheWriteInputTokens` = `input_tokens_details.cache_write_tokens` (a part of `input_tokens`; newer servers only);
 * - `outputTokens` = `output_tokens`, which includes reasoning;
 * - `reasoningOutputTokens` = `output_tokens_details.reasoning_tokens` (a part of `output_tokens`);
 * - `totalTokens` = `total_tokens` as reported;
 * - `serviceTier` = the Response's `service_tier` (read beside the usage).
 *
 * Tolerated arithmetic: when `cached_tokens` and `cache_write_tokens` overlap so that together they exceed
 * `input_tokens` (compatible servers), the cache-write figure is dropped and the others kept. Responses reports
 * usage once per response, so that one snapshot is every snapshot.
 *
 * Responses reports usage once, on the terminal event (`response.completed` / `incomplete` / `failed`); the
 * `response.created` snapshot carries `usage: null`. A field the server did not send stays absent (a reported `0`
 * stays `0`). Returns `undefined` when no field was reported.
 *
 * @throws {ProtocolViolationError} `usage-inconsistent` when the figures contradict each other.
 */
export function convertOpenAiResponsesUsage(usage: OpenAiResponsesWireUsage): UsageV3 | undefined {
  const result: { -readonly [K in keyof UsageV3]: UsageV3[K] } = {};
  if (usage.input_tokens !== undefined) result.inputTokens = usage.input_tokens;
  if (usage.output_tokens !== undefined) result.outputTokens = usage.output_tokens;
  if (usage.total_tokens !== undefined) result.totalTokens = usage.total_tokens;
  if (usage.cached_tokens !== undefined) result.cacheReadInputTokens = usage.cached_tokens;
  if (usage.cache_write_tokens !== undefined) result.cacheWriteInputTokens = usage.cache_write_tokens;
  if (usage.reasoning_tokens !== undefined) result.reasoningOutputTokens = usage.reasoning_tokens;
  if (usage.service_tier !== undefined) result.serviceTier = usage.service_tier;
  if (Object.keys(result).length === 0) return undefined;
  const reconciled = reconcileCacheWrite(result);
  const problem = describeUsageV3Inconsistency(reconciled);
  if (problem !== undefined) {
    throw new ProtocolViolationError('usage-inconsistent', `openai-responses usage is inconsistent: ${problem}`);
  }
  return reconciled;
}
