import type { UsageV3 } from '@tokenforge/model-protocol';
import { presentFigures } from '../../codec-kit/usage-detail-readers.js';

/** The usage figures an Anthropic body or stream event reports, already checked to be safe integers or null. */
export interface AnthropicWireUsage {
  /** Input tokens after the last cache breakpoint: cache reads and writes are not included. */
  readonly input_tokens?: number | null;
  /** All output tokens, thinking included. */
  readonly output_tokens?: number | null;
  /** Input tokens written to the prompt cache. */
  readonly cache_creation_input_tokens?: number | null;
  /** Input tokens read from the prompt cache. */
  readonly cache_read_input_tokens?: number | null;
  /** Output tokens spent on thinking (part of `output_tokens`), when the provider breaks them out. */
  readonly thinking_tokens?: number | null;
  /** `cache_creation.ephemeral_5m_input_tokens`: cache writes with the five-minute time to live. */
  readonly cache_creation_5m?: number;
  /** `cache_creation.ephemeral_1h_input_tokens`: cache writes with the one-hour time to live. */
  readonly cache_creation_1h?: number;
  /** `server_tool_use.web_search_requests`. */
  readonly web_search_requests?: number;
  /** `server_tool_use.web_fetch_requests`. */
  readonly web_fetch_requests?: number;
  /** `service_tier` (`standard`, `priority`, `batch`), when it is a readable name. */
  readonly service_tier?: string;
  /** Sum of the `input_tokens` of the `compaction` entries of `usage.iterations` (not in the top-level figures). */
  readonly compaction_input_tokens?: number;
  /** Sum of their `output_tokens`. */
  readonly compaction_output_tokens?: number;
  /** Sum of their `cache_creation_input_tokens`. */
  readonly compaction_cache_creation_input_tokens?: number;
  /** Sum of their `cache_read_input_tokens`. */
  readonly compaction_cache_read_input_tokens?: number;
}

/**
 * Converts Anthropic usage to {@link UsageV1}.
 *
 * Anthropic's `input_tokens` counts only the input after the last cache breakpoint, so the normalized
 * `inputTokens` is `input_tokens + cache_creation_input_tokens + cache_read_input_tokens` (a null or absent
 * cache figure adds nothing), with `cacheWriteInputTokens = cache_creation_input_tokens` and
 * `cacheReadInputTokens = cache_read_input_tokens`. `outputTokens` is `output_tokens`, which already includes
 * thinking; `reasoningOutputTokens` is `output_tokens_details.thinking_tokens` when sent. Anthropic reports no
 * total, so `totalTokens` stays absent. A figure that is null or absent stays absent, never zero; when
 * `input_tokens` itself is absent, `inputTokens` is absent too (cache figures alone are not a total).
 *
 * Server-side compaction: the `compaction` entries of `usage.iterations` are billed but, as documented, left out of
 * the top-level figures (which then describe the final message only, and are smaller than the compaction step's
 * `message_start` usage). Their input, output and cache figures are added to the top-level ones, so the usage is
 * the request's billed total and a stream's snapshots only grow. The per-iteration breakdown is not kept.
 *
 * Details: `cache_creation.ephemeral_5m_input_tokens` / `ephemeral_1h_input_tokens` are
 * `cacheWriteInputTokensByTtl.fiveMinutes` / `oneHour`; `server_tool_use.web_search_requests` /
 * `web_fetch_requests` are `serverToolRequests.webSearch` / `webFetch`; `service_tier` is `serviceTier`.
 */
export function convertAnthropicUsage(wire: AnthropicWireUsage): UsageV3 {
  const usage: { -readonly [K in keyof UsageV3]: UsageV3[K] } = {};
  const input = plus(present(wire.input_tokens), wire.compaction_input_tokens);
  const cacheWrite = plus(present(wire.cache_creation_input_tokens), wire.compaction_cache_creation_input_tokens);
  const cacheRead = plus(present(wire.cache_read_input_tokens), wire.compaction_cache_read_input_tokens);
  if (input !== undefined) usage.inputTokens = input + (cacheWrite ?? 0) + (cacheRead ?? 0);
  const output = plus(present(wire.output_tokens), wire.compaction_output_tokens);
  if (output !== undefined) usage.outputTokens = output;
  if (cacheRead !== undefined) usage.cacheReadInputTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteInputTokens = cacheWrite;
  const thinking = present(wire.thinking_tokens);
  if (thinking !== undefined) usage.reasoningOutputTokens = thinking;
  const byTtl = presentFigures({ fiveMinutes: wire.cache_creation_5m, oneHour: wire.cache_creation_1h });
  if (byTtl !== undefined) usage.cacheWriteInputTokensByTtl = byTtl;
  const serverTools = presentFigures({ webSearch: wire.web_search_requests, webFetch: wire.web_fetch_requests });
  if (serverTools !== undefined) usage.serverToolRequests = serverTools;
  if (wire.service_tier !== undefined) usage.serviceTier = wire.service_tier;
  return usage;
}

/** A top-level figure plus its compaction share; the share alone is no figure when the top-level one is absent. */
function plus(value: number | undefined, compaction: number | undefined): number | undefined {
  return value === undefined || compaction === undefined ? value : value + compaction;
}

function present(value: number | null | undefined): number | undefined {
  return value === null || value === undefined ? undefined : value;
}
