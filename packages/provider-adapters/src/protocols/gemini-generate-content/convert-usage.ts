import type { UsageV1 } from '@tokenforge/model-protocol';
import { assertUsageConsistent } from '../../codec-kit/usage-reconciliation.js';
import { GEMINI_USAGE_COUNT_FIELDS, type GeminiUsageWire } from './wire-readers.js';

/**
 * Converts Gemini `usageMetadata` to normalized usage.
 *
 * Gemini arithmetic (fact sheet §4.4, §5):
 * - `promptTokenCount` is all input and already includes `cachedContentTokenCount`:
 *   `inputTokens = promptTokenCount`, `cacheReadInputTokens = cachedContentTokenCount`. Gemini has no cache
 *   writes per request (explicit caches only), so `cacheWriteInputTokens` is never set.
 * - `candidatesTokenCount` is visible output and excludes thoughts:
 *   `outputTokens = candidatesTokenCount + thoughtsTokenCount` (an absent one counts as 0 only when the other
 *   is present), `reasoningOutputTokens = thoughtsTokenCount`.
 * - `totalTokens = totalTokenCount`, which also counts `toolUsePromptTokenCount` (server-side tool results);
 *   those tokens appear in no other normalized field.
 *
 * Returns `undefined` when no count was sent (Vertex intermediate chunks carry only `trafficType`).
 *
 * @throws ProtocolViolationError `usage-inconsistent` when the counts contradict each other.
 */
export function convertGeminiUsage(wire: GeminiUsageWire): UsageV1 | undefined {
  const usage: { -readonly [K in keyof UsageV1]: UsageV1[K] } = {};
  if (wire.promptTokenCount !== undefined) usage.inputTokens = wire.promptTokenCount;
  if (wire.cachedContentTokenCount !== undefined) usage.cacheReadInputTokens = wire.cachedContentTokenCount;
  if (wire.candidatesTokenCount !== undefined || wire.thoughtsTokenCount !== undefined) {
    usage.outputTokens = (wire.candidatesTokenCount ?? 0) + (wire.thoughtsTokenCount ?? 0);
  }
  if (wire.thoughtsTokenCount !== undefined) usage.reasoningOutputTokens = wire.thoughtsTokenCount;
  if (wire.totalTokenCount !== undefined) usage.totalTokens = wire.totalTokenCount;
  if (Object.keys(usage).length === 0) return undefined;
  return assertUsageConsistent(usage);
}

/**
 * Merges one chunk's raw counts into the counts so far: a count the chunk does not carry keeps its earlier
 * value (Gemini repeats cumulative usage on every chunk; Vertex intermediate chunks may carry none).
 */
export function mergeGeminiUsageWire(previous: GeminiUsageWire | undefined, next: GeminiUsageWire): GeminiUsageWire {
  const merged: { -readonly [K in keyof GeminiUsageWire]: GeminiUsageWire[K] } = { ...previous };
  for (const field of GEMINI_USAGE_COUNT_FIELDS) {
    const value = next[field];
    if (value !== undefined) merged[field] = value;
  }
  return merged;
}

/**
 * The reverse arithmetic, for the Gemini egress: `promptTokenCount = inputTokens`,
 * `cachedContentTokenCount = cacheReadInputTokens`, `thoughtsTokenCount = reasoningOutputTokens`,
 * `candidatesTokenCount = outputTokens - reasoningOutputTokens`, `totalTokenCount = totalTokens` (or input
 * plus output when both are known and no total was reported). Absent stays absent.
 */
export function toGeminiUsageMetadata(usage: UsageV1): Record<string, number> {
  const metadata: Record<string, number> = {};
  if (usage.inputTokens !== undefined) metadata.promptTokenCount = usage.inputTokens;
  if (usage.cacheReadInputTokens !== undefined) metadata.cachedContentTokenCount = usage.cacheReadInputTokens;
  if (usage.outputTokens !== undefined) {
    metadata.candidatesTokenCount = Math.max(0, usage.outputTokens - (usage.reasoningOutputTokens ?? 0));
  }
  if (usage.reasoningOutputTokens !== undefined) metadata.thoughtsTokenCount = usage.reasoningOutputTokens;
  if (usage.totalTokens !== undefined) metadata.totalTokenCount = usage.totalTokens;
  else if (usage.inputTokens !== undefined && usage.outputTokens !== undefined) {
    metadata.totalTokenCount = usage.inputTokens + usage.outputTokens;
  }
  return metadata;
}
