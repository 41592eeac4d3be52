import { describeUsageInconsistency, type UsageV1 } from '@tokenforge/model-protocol';
import { ProtocolViolationError } from './protocol-violation-error.js';

const USAGE_FIELDS = [
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'cacheReadInputTokens',
  'cacheWriteInputTokens',
  'reasoningOutputTokens',
  'images',
  'searchUnits',
  'videoSeconds',
] as const satisfies readonly (keyof UsageV1)[];

/**
 * Merges a provider's cumulative usage snapshot into the previous one. A field absent from `next` keeps its
 * previous value; a field present in both may stay equal or grow. Returns a new object; neither input changes.
 *
 * @throws {ProtocolViolationError} `usage-decreased` when `next` repeats a field with a lower value.
 */
export function mergeUsageSnapshot(previous: UsageV1 | undefined, next: UsageV1): UsageV1 {
  const merged: { -readonly [K in keyof UsageV1]: UsageV1[K] } = {};
  for (const field of USAGE_FIELDS) {
    const before = previous?.[field];
    const after = next[field];
    if (before !== undefined && after !== undefined && after < before) {
      throw new ProtocolViolationError('usage-decreased', `cumulative usage field ${field} decreased`);
    }
    const value = after ?? before;
    if (value !== undefined) merged[field] = value;
  }
  return merged;
}

/** Whether two usage values report the same fields with the same numbers (absent equals absent only). */
export function usageEquals(left: UsageV1 | undefined, right: UsageV1 | undefined): boolean {
  if (left === undefined || right === undefined) return left === right;
  for (const field of USAGE_FIELDS) {
    if (left[field] !== right[field]) return false;
  }
  return true;
}

/**
 * Checks that usage figures agree with each other, by the rules of model-protocol's
 * `describeUsageInconsistency`, and returns the usage unchanged.
 *
 * @throws {ProtocolViolationError} `usage-inconsistent` naming the broken rule.
 */
export function assertUsageConsistent(usage: UsageV1): UsageV1 {
  const problem = describeUsageInconsistency(usage);
  if (problem !== undefined) throw new ProtocolViolationError('usage-inconsistent', `usage is inconsistent: ${problem}`);
  return usage;
}

/** Per-response memory of {@link reconcileCacheWrite}: once a response's cache-write figure is dropped, it stays dropped. */
export interface CacheWriteReconciliation {
  /** True once a snapshot of this response had its cache-write figure dropped. */
  dropped: boolean;
}

/**
 * Tolerance of provider usage arithmetic. Compatible providers report cache-read and cache-write figures that
 * overlap, so that together they exceed the input tokens they are both a part of. The well-formed figures are kept
 * and the derived one that breaks the normalized usage, `cacheWriteInputTokens`, is dropped: in that snapshot and,
 * through `state`, in every later snapshot of the same response (a figure already reported earlier stays reported).
 * Cache reads alone above the input are not an arithmetic difference and are left for the consistency check.
 */
export function reconcileCacheWrite(usage: UsageV1, state: CacheWriteReconciliation = { dropped: false }): UsageV1 {
  if (usage.cacheWriteInputTokens === undefined) return usage;
  const input = usage.inputTokens;
  const overlaps = input !== undefined && (usage.cacheReadInputTokens ?? 0) <= input && (usage.cacheReadInputTokens ?? 0) + usage.cacheWriteInputTokens > input;
  if (overlaps) state.dropped = true;
  if (!state.dropped) return usage;
  const { cacheWriteInputTokens: _dropped, ...rest } = usage;
  return rest;
}
