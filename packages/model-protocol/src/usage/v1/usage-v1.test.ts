import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeUsageInconsistency, usageV1Schema } from './usage-v1.js';

describe('UsageV1', () => {
  it('keeps absent fields absent', () => {
    expect(usageV1Schema.parse({ outputTokens: 3 })).toEqual({ outputTokens: 3 });
  });

  it('refuses negative, fractional and unknown fields', () => {
    expect(usageV1Schema.safeParse({ inputTokens: -1 }).success).toBe(false);
    expect(usageV1Schema.safeParse({ inputTokens: 1.5 }).success).toBe(false);
    expect(usageV1Schema.safeParse({ inputTokens: 1, cost: 2 }).success).toBe(false);
  });

  it('refuses contradictory figures', () => {
    expect(describeUsageInconsistency({ inputTokens: 5, cacheReadInputTokens: 4, cacheWriteInputTokens: 2 })).toMatch(/cached/);
    expect(describeUsageInconsistency({ outputTokens: 5, reasoningOutputTokens: 6 })).toMatch(/reasoning/);
    expect(describeUsageInconsistency({ inputTokens: 5, outputTokens: 5, totalTokens: 9 })).toMatch(/total/);
    expect(usageV1Schema.safeParse({ inputTokens: 5, outputTokens: 5, totalTokens: 9 }).success).toBe(false);
  });

  it('accepts every consistent combination (property)', () => {
    fc.assert(
      fc.property(fc.nat(1e6), fc.nat(1e6), fc.nat(1e6), fc.nat(1e6), (input, output, cached, extra) => {
        const usage = {
          inputTokens: input + cached,
          cacheReadInputTokens: cached,
          outputTokens: output,
          reasoningOutputTokens: Math.floor(output / 2),
          totalTokens: input + cached + output + extra,
        };
        expect(usageV1Schema.safeParse(usage).success).toBe(true);
      }),
    );
  });
});
