import { describeUsageV3Inconsistency, type UsageV3 } from '@tokenforge/model-protocol';
import { presentFigures } from '../../codec-kit/usage-detail-readers.js';
import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { dropInconsistentUsageDetails, reconcileCacheWrite, type CacheWriteReconciliation } from '../../codec-kit/usage-reconciliation.js';
import type { OpenAiChatWireUsage } from './wire-readers.js';

/**
 * Converts a Chat Completions `usage` object to {@link UsageV3}.
 *
 * Arithmetic (OpenAI's definition, §1.6 of the fact sheet):
 * - `inputTokens` = `prompt_tokens`, which already includes cached tokens;
 * - `cacheReadInputTokens` = `prompt_tokens_details.cached_tokens` (a part of `prompt_tokens`); when that is
 *   absent, DeepSeek's top-level `prompt_cache_hit_tokens` (same meaning);
 * - `cacheWriteInputTokens` = `prompt_tokens_details.cache_write_tokens` (a part of `prompt_tokens`);
 * - `outputTokens` = `completion_tokens`, which already includes reasoning tokens;
 * - `reasoningOutputTokens` = `completion_tokens_details.reasoning_tokens` (a part of `completion_tokens`);
 * - `totalTokens` = `total_tokens` as reported;
 * - details: `prompt_tokens_details.{text,image,audio}_tokens` = `inputTokensByModality`,
 *   `completion_tokens_details.{text,audio}_tokens` = `outputTokensByModality`, the envelope's `service_tier` =
 *   `serviceTier`. A modality split larger than its total is dropped (it only adds information).
 *
 * Known deviation: some compatible hosts (xAI) leave reasoning out of `completion_tokens` and report
 * `total_tokens = prompt + completion + reasoning`. That is recognized from the numbers alone, never from a host
 * name: when `reasoning_tokens > completion_tokens`, or when reasoning is non-zero and `total_tokens` equals
 * `prompt + completion + reasoning`, reasoning is added to `outputTokens` so the contract's "output includes
 * reasoning" holds.
 *
 * Tolerated arithmetic: some compatible hosts report `cached_tokens` and `cache_write_tokens` that overlap, so
 * that together they exceed `prompt_tokens`. The cache-write figure is then dropped, in this snapshot and (through
 * `reconciliation`, one per response) in every later one; the other figures are kept.
 *
 * A field the server did not send stays absent (a reported `0` stays `0`). Returns `undefined` when no field was
 * reported at all.
 *
 * @throws {ProtocolViolationError} `usage-inconsistent` when the figures contradict each other after conversion.
 */
export function convertOpenAiChatUsage(usage: OpenAiChatWireUsage, reconciliation?: CacheWriteReconciliation): UsageV3 | undefined {
  const input = usage.prompt_tokens;
  const completion = usage.completion_tokens;
  const reasoning = usage.reasoning_tokens;
  const total = usage.total_tokens;
  let output = completion;
  if (completion !== undefined && reasoning !== undefined && reasoning > 0) {
    const reasoningExcluded =
      reasoning > completion ||
      (input !== undefined && total !== undefined && total !== input + completion && total === input + completion + reasoning);
    if (reasoningExcluded) output = completion + reasoning;
  }
  const result: { -readonly [K in keyof UsageV3]: UsageV3[K] } = {};
  if (input !== undefined) result.inputTokens = input;
  if (output !== undefined) result.outputTokens = output;
  if (total !== undefined) result.totalTokens = total;
  const cacheRead = usage.cached_tokens ?? usage.prompt_cache_hit_tokens;
  if (cacheRead !== undefined) result.cacheReadInputTokens = cacheRead;
  if (usage.cache_write_tokens !== undefined) result.cacheWriteInputTokens = usage.cache_write_tokens;
  if (reasoning !== undefined) result.reasoningOutputTokens = reasoning;
  const inputByModality = presentFigures({ text: usage.prompt_text_tokens, image: usage.prompt_image_tokens, audio: usage.prompt_audio_tokens });
  if (inputByModality !== undefined) result.inputTokensByModality = inputByModality;
  const outputByModality = presentFigures({ text: usage.completion_text_tokens, audio: usage.completion_audio_tokens });
  if (outputByModality !== undefined) result.outputTokensByModality = outputByModality;
  if (usage.service_tier !== undefined) result.serviceTier = usage.service_tier;
  if (Object.keys(result).length === 0) return undefined;
  const reconciled = dropInconsistentUsageDetails(reconcileCacheWrite(result, reconciliation));
  const problem = describeUsageV3Inconsistency(reconciled);
  if (problem !== undefined) {
    throw new ProtocolViolationError('usage-inconsistent', `openai-chat usage is inconsistent: ${problem}`);
  }
  return reconciled;
}
