import { describe, expect, it } from 'vitest';
import { nextStepAfterFailure } from './attempt-policy.js';

const budget = () => ({ attemptsLeft: 3, waitBudgetMs: 5_000 });

describe('nextStepAfterFailure', () => {
  it('by default a failure that is not retryable never falls back (unchanged)', () => {
    expect(nextStepAfterFailure({ code: 'authentication', retryable: false }, 'not-accepted', budget(), true, false)).toEqual({ kind: 'give-up' });
  });

  it("falls back on a code the model lists in fallbackOn, to the next target only", () => {
    const fallbackOn = new Set(['authentication']);
    expect(nextStepAfterFailure({ code: 'authentication', retryable: false }, 'not-accepted', budget(), true, false, fallbackOn)).toEqual({ kind: 'next-target' });
    expect(nextStepAfterFailure({ code: 'authentication', retryable: false, retryAfterMs: 10 }, 'not-accepted', budget(), false, false, fallbackOn)).toEqual({ kind: 'give-up' });
    expect(nextStepAfterFailure({ code: 'invalid-request', retryable: false }, 'not-accepted', budget(), true, false, fallbackOn)).toEqual({ kind: 'give-up' });
  });

  it('never lets fallbackOn move a failure whose acceptance is unknown or accepted', () => {
    const fallbackOn = new Set(['authentication', 'provider-error']);
    expect(nextStepAfterFailure({ code: 'authentication', retryable: false }, 'unknown', budget(), true, false, fallbackOn)).toEqual({ kind: 'give-up' });
    expect(nextStepAfterFailure({ code: 'provider-error', retryable: true }, 'accepted', budget(), true, false, fallbackOn)).toEqual({ kind: 'give-up' });
  });

  it('retryable failures keep their rule: wait on the same target within budget, else the next', () => {
    expect(nextStepAfterFailure({ code: 'rate-limited', retryable: true, retryAfterMs: 100 }, 'not-accepted', budget(), true, false)).toEqual({ kind: 'retry-same', waitMs: 100 });
    expect(nextStepAfterFailure({ code: 'network', retryable: true }, 'unknown', budget(), true, false)).toEqual({ kind: 'next-target' });
    expect(nextStepAfterFailure({ code: 'network', retryable: true }, 'unknown', { attemptsLeft: 0, waitBudgetMs: 0 }, true, false)).toEqual({ kind: 'give-up' });
  });
});
