import { describe, expect, it } from 'vitest';
import { usageV1Schema } from '../v1/usage-v1.js';
import { describeUsageV3Inconsistency, usageV3Schema } from './usage-v3.js';

describe('UsageV3', () => {
  it('accepts every V1 usage and the V3 details', () => {
    const v1 = usageV1Schema.parse({ inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 2, cacheWriteInputTokens: 3 });
    expect(usageV3Schema.parse(v1)).toEqual(v1);
    const v3 = {
      ...v1,
      cacheWriteInputTokensByTtl: { fiveMinutes: 1, oneHour: 2 },
      inputTokensByModality: { text: 8, image: 2 },
      outputTokensByModality: { text: 5 },
      serverToolRequests: { webSearch: 2 },
      serviceTier: 'priority',
    };
    expect(usageV3Schema.parse(v3)).toEqual(v3);
  });

  it('refuses details that exceed what they detail, and keeps the V1 rules', () => {
    expect(describeUsageV3Inconsistency({ cacheWriteInputTokens: 2, cacheWriteInputTokensByTtl: { fiveMinutes: 2, oneHour: 1 } })).toMatch(/time to live/);
    expect(describeUsageV3Inconsistency({ inputTokens: 2, inputTokensByModality: { text: 2, audio: 1 } })).toMatch(/input tokens by modality/);
    expect(describeUsageV3Inconsistency({ outputTokens: 1, outputTokensByModality: { text: 2 } })).toMatch(/output tokens by modality/);
    expect(describeUsageV3Inconsistency({ outputTokens: 1, reasoningOutputTokens: 2 })).toMatch(/reasoning/);
    expect(usageV3Schema.safeParse({ serverToolRequests: { webSearch: -1 } }).success).toBe(false);
    expect(usageV3Schema.safeParse({ serviceTier: 'a tier' }).success).toBe(false);
    expect(usageV3Schema.safeParse({ cost: 1 }).success).toBe(false);
  });
});
