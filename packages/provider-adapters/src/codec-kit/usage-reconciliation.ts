import { describeUsageV3Inconsistency, type UsageV1, type UsageV3 } from '@tokenforge/model-protocol';
import { ProtocolViolationError } from './protocol-violation-error.js';

const USAGE_FIELDS = [
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'cacheReadInputTokens',
  'cacheWriteInputTokens',
  'cacheWriteInputTokensByTtl',
  'reasoningOutputTokens',
  'inputTokensByModality',
  'outputTokensByModality',
  'serverToolRequests',
  'serviceTier',
  'images',
  'searchUnits',
  'videoSeconds',
] as const satisfies readonly (keyof UsageV3)[];

type Figures = Readonly<Record<string, number | undefined>>;

function mergeFigures(field: string, before: Figures | undefined, after: Figures | undefined): Figures | undefined {
  if (before === undefined || after === undefined) return after ?? before;
  const merged: Record<string, number> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const earlier = before[key];
    const later = after[key];
    if (earlier !== undefined && later !== undefined && later < earlier) {
      throw new ProtocolViolationError('usage-decreased', `cumulative usage field ${field}.${key} decreased`);
    }
    const value = later ?? earlier;
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

/**
 * Merges a provider's cumulative usage snapshot into the previous one. A field absent from `next` keeps its
 * previous value; a figure present in both may stay equal or grow (the later one wins). The detail objects (cache
 * writes by time to live, tokens by modality, hosted-tool requests) merge figure by figure the same way; the
 * service tier is the later one. Returns a new object; neither input changes.
 *
 * @throws {ProtocolViolationError} `usage-decreased` when `next` repeats a figure with a lower value.
 */
export function mergeUsageSnapshot(previous: UsageV3 | undefined, next: UsageV3): UsageV3 {
  const merged: Record<string, unknown> = {};
  for (const field of USAGE_FIELDS) {
    const before: unknown = previous?.[field];
    const after: unknown = next[field];
    let value: unknown;
    if (typeof before === 'object' || typeof after === 'object') {
      value = mergeFigures(field, before as Figures | undefined, after as Figures | undefined);
    } else if (typeof before === 'number' && typeof after === 'number' && after < before) {
      throw new ProtocolViolationError('usage-decreased', `cumulative usage field ${field} decreased`);
    } else {
      value = after ?? before;
    }
    if (value !== undefined) merged[field] = value;
  }
  return merged as UsageV3;
}

function sameFigures(left: unknown, right: unknown): boolean {
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return left === right;
  const leftFigures = left as Figures;
  const rightFigures = right as Figures;
  for (const key of new Set([...Object.keys(leftFigures), ...Object.keys(rightFigures)])) {
    if (leftFigures[key] !== rightFigures[key]) return false;
  }
  return true;
}

/** Whether two usage values report the same fields with the same values (absent equals absent only; details figure by figure). */
export function usageEquals(left: UsageV3 | undefined, right: UsageV3 | undefined): boolean {
  if (left === undefined || right === undefined) return left === right;
  for (const field of USAGE_FIELDS) {
    if (!sameFigures(left[field], right[field])) return false;
  }
  return true;
}

/**
 * Checks that usage figures agree with each other, by the rules of model-protocol's
 * `describeUsageV3Inconsistency`, and returns the usage unchanged.
 *
 * @throws {ProtocolViolationError} `usage-inconsistent` naming the broken rule.
 */
export function assertUsageConsistent<U extends UsageV3>(usage: U): U {
  const problem = describeUsageV3Inconsistency(usage);
  if (problem !== undefined) throw new ProtocolViolationError('usage-inconsistent', `usage is inconsistent: ${problem}`);
  return usage;
}

/**
 * Tolerance of provider detail arithmetic: a detail split (cache writes by time to live, tokens by modality)
 * whose parts exceed the total they split only adds information, so it is dropped instead of failing the answer.
 * The V1 figures are left alone (their contradictions are still for {@link assertUsageConsistent}). Returns the
 * usage unchanged when every split fits, else a copy without the ones that do not.
 */
export function dropInconsistentUsageDetails<U extends UsageV3>(usage: U): U {
  const sum = (parts: Figures | undefined): number => Object.values(parts ?? {}).reduce<number>((total, part) => total + (part ?? 0), 0);
  const ttlTooLarge = usage.cacheWriteInputTokensByTtl !== undefined && usage.cacheWriteInputTokens !== undefined && sum(usage.cacheWriteInputTokensByTtl) > usage.cacheWriteInputTokens;
  const inputTooLarge = usage.inputTokensByModality !== undefined && usage.inputTokens !== undefined && sum(usage.inputTokensByModality) > usage.inputTokens;
  const outputTooLarge = usage.outputTokensByModality !== undefined && usage.outputTokens !== undefined && sum(usage.outputTokensByModality) > usage.outputTokens;
  if (!ttlTooLarge && !inputTooLarge && !outputTooLarge) return usage;
  const copy: Record<string, unknown> = { ...usage };
  if (ttlTooLarge) delete copy.cacheWriteInputTokensByTtl;
  if (inputTooLarge) delete copy.inputTokensByModality;
  if (outputTooLarge) delete copy.outputTokensByModality;
  return copy as U;
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
export function reconcileCacheWrite<U extends UsageV1>(usage: U, state: CacheWriteReconciliation = { dropped: false }): U {
  if (usage.cacheWriteInputTokens === undefined) return usage;
  const input = usage.inputTokens;
  const overlaps = input !== undefined && (usage.cacheReadInputTokens ?? 0) <= input && (usage.cacheReadInputTokens ?? 0) + usage.cacheWriteInputTokens > input;
  if (overlaps) state.dropped = true;
  if (!state.dropped) return usage;
  // Its split by time to live goes with it: the parts of a dropped figure are no more trustworthy than it.
  const { cacheWriteInputTokens: _dropped, cacheWriteInputTokensByTtl: _droppedSplit, ...rest } = usage as UsageV3;
  return rest as U;
}
