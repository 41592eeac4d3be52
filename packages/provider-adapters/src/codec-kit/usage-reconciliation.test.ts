import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from './protocol-violation-error.js';
import { assertUsageConsistent, dropInconsistentUsageDetails, mergeUsageSnapshot, usageEquals } from './usage-reconciliation.js';

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isProtocolViolationError(error)) return error.reason;
    throw error;
  }
  throw new Error('expected a protocol violation');
}

describe('mergeUsageSnapshot', () => {
  it('takes the first snapshot as it is', () => {
    expect(mergeUsageSnapshot(undefined, { inputTokens: 10 })).toEqual({ inputTokens: 10 });
  });

  it('keeps fields the new snapshot omits and lets repeated fields stay equal or grow', () => {
    const previous = { inputTokens: 10, outputTokens: 1, cacheReadInputTokens: 4 };
    const merged = mergeUsageSnapshot(previous, { outputTokens: 25, inputTokens: 10, totalTokens: 35 });
    expect(merged).toEqual({ inputTokens: 10, outputTokens: 25, totalTokens: 35, cacheReadInputTokens: 4 });
    expect(previous).toEqual({ inputTokens: 10, outputTokens: 1, cacheReadInputTokens: 4 });
  });

  it('fails with usage-decreased when a repeated field is lower', () => {
    expect(reasonOf(() => mergeUsageSnapshot({ outputTokens: 25 }, { outputTokens: 24 }))).toBe('usage-decreased');
    expect(reasonOf(() => mergeUsageSnapshot({ images: 2 }, { images: 1 }))).toBe('usage-decreased');
  });

  it('does not invent zeros for fields nobody reported', () => {
    expect(Object.keys(mergeUsageSnapshot({ inputTokens: 1 }, { outputTokens: 2 }))).toEqual(['inputTokens', 'outputTokens']);
  });
});

describe('usageEquals', () => {
  it('compares every field, absent only equal to absent', () => {
    expect(usageEquals({ inputTokens: 1, outputTokens: 2 }, { outputTokens: 2, inputTokens: 1 })).toBe(true);
    expect(usageEquals({ inputTokens: 1 }, { inputTokens: 1, outputTokens: 0 })).toBe(false);
    expect(usageEquals({ videoSeconds: 5 }, { videoSeconds: 6 })).toBe(false);
    expect(usageEquals(undefined, undefined)).toBe(true);
    expect(usageEquals(undefined, {})).toBe(false);
    expect(usageEquals({}, {})).toBe(true);
  });
});

describe('assertUsageConsistent', () => {
  it('returns consistent usage unchanged', () => {
    const usage = { inputTokens: 10, cacheReadInputTokens: 4, outputTokens: 5, reasoningOutputTokens: 2, totalTokens: 15 };
    expect(assertUsageConsistent(usage)).toBe(usage);
  });

  it('fails with usage-inconsistent by the model-protocol rules', () => {
    expect(reasonOf(() => assertUsageConsistent({ inputTokens: 3, cacheReadInputTokens: 4 }))).toBe('usage-inconsistent');
    expect(reasonOf(() => assertUsageConsistent({ outputTokens: 1, reasoningOutputTokens: 2 }))).toBe('usage-inconsistent');
    expect(reasonOf(() => assertUsageConsistent({ inputTokens: 5, outputTokens: 5, totalTokens: 9 }))).toBe('usage-inconsistent');
  });
});

describe('usage details (V3)', () => {
  it('merges the detail objects figure by figure, later wins, and fails when a detail figure decreases', () => {
    const earlier = { inputTokens: 10, cacheWriteInputTokens: 4, cacheWriteInputTokensByTtl: { fiveMinutes: 4 }, serviceTier: 'standard' };
    const later = { inputTokens: 12, cacheWriteInputTokensByTtl: { oneHour: 0 }, serverToolRequests: { webSearch: 1 }, serviceTier: 'priority' };
    expect(mergeUsageSnapshot(earlier, later)).toEqual({
      inputTokens: 12,
      cacheWriteInputTokens: 4,
      cacheWriteInputTokensByTtl: { fiveMinutes: 4, oneHour: 0 },
      serverToolRequests: { webSearch: 1 },
      serviceTier: 'priority',
    });
    expect(reasonOf(() => mergeUsageSnapshot({ serverToolRequests: { webSearch: 2 } }, { serverToolRequests: { webSearch: 1 } }))).toBe('usage-decreased');
  });

  it('compares details figure by figure and checks them by the V3 rules', () => {
    expect(usageEquals({ inputTokensByModality: { text: 1 } }, { inputTokensByModality: { text: 1 } })).toBe(true);
    expect(usageEquals({ inputTokensByModality: { text: 1 } }, { inputTokensByModality: { text: 1, image: 2 } })).toBe(false);
    expect(usageEquals({ serviceTier: 'flex' }, { serviceTier: 'default' })).toBe(false);
    expect(reasonOf(() => assertUsageConsistent({ cacheWriteInputTokens: 1, cacheWriteInputTokensByTtl: { oneHour: 2 } }))).toBe('usage-inconsistent');
  });

  it('drops only the detail splits larger than their total', () => {
    const usage = { inputTokens: 5, outputTokens: 3, inputTokensByModality: { text: 4, image: 2 }, outputTokensByModality: { text: 3 }, cacheWriteInputTokens: 2, cacheWriteInputTokensByTtl: { fiveMinutes: 2 } };
    expect(dropInconsistentUsageDetails(usage)).toEqual({ inputTokens: 5, outputTokens: 3, outputTokensByModality: { text: 3 }, cacheWriteInputTokens: 2, cacheWriteInputTokensByTtl: { fiveMinutes: 2 } });
    const fine = { inputTokens: 5, inputTokensByModality: { text: 5 } };
    expect(dropInconsistentUsageDetails(fine)).toBe(fine);
  });
});
