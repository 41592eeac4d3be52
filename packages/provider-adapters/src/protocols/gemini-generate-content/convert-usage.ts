import type { TokensByModalityV3, UsageV3 } from '@tokenforge/model-protocol';
import { assertUsageConsistent, dropInconsistentUsageDetails } from '../../codec-kit/usage-reconciliation.js';
import { GEMINI_USAGE_COUNT_FIELDS, GEMINI_USAGE_DETAIL_FIELDS, type GeminiUsageWire } from './wire-readers.js';

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
 *   those tokens appear in no other normalized field (nor does `toolUsePromptTokensDetails`).
 * - Details: `promptTokensDetails` is `inputTokensByModality`, `candidatesTokensDetails` is
 *   `outputTokensByModality` (modalities TEXT, IMAGE, AUDIO, VIDEO, DOCUMENT; an unknown one is left out), and
 *   `serviceTier` is `serviceTier`. `cacheTokensDetails` has no normalized field. A modality split larger than
 *   the total it splits is dropped (it only adds information).
 *
 * Returns `undefined` when no count was sent (Vertex intermediate chunks carry only `trafficType`).
 *
 * @throws ProtocolViolationError `usage-inconsistent` when the counts contradict each other.
 */
export function convertGeminiUsage(wire: GeminiUsageWire): UsageV3 | undefined {
  const usage: { -readonly [K in keyof UsageV3]: UsageV3[K] } = {};
  if (wire.promptTokenCount !== undefined) usage.inputTokens = wire.promptTokenCount;
  if (wire.cachedContentTokenCount !== undefined) usage.cacheReadInputTokens = wire.cachedContentTokenCount;
  if (wire.candidatesTokenCount !== undefined || wire.thoughtsTokenCount !== undefined) {
    usage.outputTokens = (wire.candidatesTokenCount ?? 0) + (wire.thoughtsTokenCount ?? 0);
  }
  if (wire.thoughtsTokenCount !== undefined) usage.reasoningOutputTokens = wire.thoughtsTokenCount;
  if (wire.totalTokenCount !== undefined) usage.totalTokens = wire.totalTokenCount;
  if (wire.promptTokensByModality !== undefined) usage.inputTokensByModality = wire.promptTokensByModality;
  if (wire.candidatesTokensByModality !== undefined) usage.outputTokensByModality = wire.candidatesTokensByModality;
  if (wire.serviceTier !== undefined) usage.serviceTier = wire.serviceTier;
  if (Object.keys(usage).length === 0) return undefined;
  return assertUsageConsistent(dropInconsistentUsageDetails(usage));
}

/**
 * Merges one chunk's raw usage into the usage so far. Gemini repeats its cumulative `usageMetadata` on every
 * chunk, and, being proto3 JSON, leaves out every count that is 0: so a chunk that carries any count is a whole
 * snapshot and replaces every earlier count (a count it omits is 0 now, not "unchanged"; an earlier provisional
 * `candidatesTokenCount` must not survive into the final figures). A chunk that carries no count at all (Vertex
 * intermediate chunks send only `trafficType`) erases nothing. Details merge field by field, the later winning.
 */
export function mergeGeminiUsageWire(previous: GeminiUsageWire | undefined, next: GeminiUsageWire): GeminiUsageWire {
  const merged: { -readonly [K in keyof GeminiUsageWire]: GeminiUsageWire[K] } = { ...previous };
  if (GEMINI_USAGE_COUNT_FIELDS.some((field) => next[field] !== undefined)) {
    for (const field of GEMINI_USAGE_COUNT_FIELDS) {
      const value = next[field];
      if (value === undefined) delete merged[field];
      else merged[field] = value;
    }
  }
  for (const field of GEMINI_USAGE_DETAIL_FIELDS) {
    const value = next[field];
    if (value !== undefined) (merged as Record<string, unknown>)[field] = value;
  }
  return merged;
}

/**
 * The reverse arithmetic, for the Gemini egress: `promptTokenCount = inputTokens`,
 * `cachedContentTokenCount = cacheReadInputTokens`, `thoughtsTokenCount = reasoningOutputTokens`,
 * `candidatesTokenCount = outputTokens - reasoningOutputTokens`, `totalTokenCount = totalTokens` (or input
 * plus output when both are known and no total was reported), `promptTokensDetails` / `candidatesTokensDetails`
 * from the tokens by modality (`{modality, tokenCount}` entries, upper-case names). Absent stays absent.
 */
export function toGeminiUsageMetadata(usage: UsageV3): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
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
  const prompt = modalityDetails(usage.inputTokensByModality);
  if (prompt !== undefined) metadata.promptTokensDetails = prompt;
  const candidates = modalityDetails(usage.outputTokensByModality);
  if (candidates !== undefined) metadata.candidatesTokensDetails = candidates;
  return metadata;
}

const MODALITY_NAMES: Readonly<Record<keyof TokensByModalityV3, string>> = { text: 'TEXT', image: 'IMAGE', audio: 'AUDIO', video: 'VIDEO', document: 'DOCUMENT' };

function modalityDetails(byModality: TokensByModalityV3 | undefined): { modality: string; tokenCount: number }[] | undefined {
  if (byModality === undefined) return undefined;
  const entries: { modality: string; tokenCount: number }[] = [];
  for (const key of Object.keys(MODALITY_NAMES) as (keyof TokensByModalityV3)[]) {
    const count = byModality[key];
    if (count !== undefined) entries.push({ modality: MODALITY_NAMES[key], tokenCount: count });
  }
  return entries.length === 0 ? undefined : entries;
}
