import { describe, expect, it } from 'vitest';
import { failsOpen } from './governance-fail-open-v1.js';

describe('the fail-open policy', () => {
  it('lets an attempt through only when every limit its tenant and key hold is marked fail-open', () => {
    const budget = { amountMicros: 1, currency: 'USD', period: 'day' } as const;
    expect(failsOpen({}, { requestsPerMinute: 5 })).toBe(false);
    expect(failsOpen({ requestsPerMinute: true }, { requestsPerMinute: 5 })).toBe(true);
    expect(failsOpen({ requestsPerMinute: true }, { requestsPerMinute: 5 }, { budget })).toBe(false);
    expect(failsOpen({ requestsPerMinute: true, budget: true }, { requestsPerMinute: 5 }, { budget })).toBe(true);
    expect(failsOpen({}, {}, undefined)).toBe(true);
  });
});
