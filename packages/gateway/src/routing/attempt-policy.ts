import type { NormalizedProviderFailureV3 } from '@tokenforge/model-protocol';

const NO_CODES: ReadonlySet<string> = new Set();

/** What to do after an attempt failed before any byte reached the client. */
export type NextStep = { readonly kind: 'retry-same'; readonly waitMs: number } | { readonly kind: 'next-target' } | { readonly kind: 'give-up' };

/** The state a request carries across attempts. */
export interface AttemptBudget {
  /** Attempts left, retries and fallbacks together. */
  attemptsLeft: number;
  /** Milliseconds of `retry-after` waiting left. */
  waitBudgetMs: number;
}

/**
 * The rule for sync and stream tasks: a failure may be retried or fall back only when it is retryable and the
 * provider's acceptance is `not-accepted` or `unknown` (nothing was returned to the client). A provider wait
 * (`retryAfterMs`) is honoured on the same target when it fits the budget; otherwise the next target is tried.
 * `fallbackOn` (the model's operator-chosen codes) lets a failure that is not retryable go to the next target,
 * never to the same one, and only when the provider did not accept the request (`not-accepted`).
 */
export function nextStepAfterFailure(
  failure: NormalizedProviderFailureV3,
  acceptance: 'accepted' | 'not-accepted' | 'unknown',
  budget: AttemptBudget,
  hasNextTarget: boolean,
  retriedHere: boolean,
  fallbackOn: ReadonlySet<string> = NO_CODES,
): NextStep {
  if (acceptance === 'accepted' || budget.attemptsLeft <= 0) return { kind: 'give-up' };
  if (!failure.retryable) return fallbackOn.has(failure.code) && acceptance === 'not-accepted' && hasNextTarget ? { kind: 'next-target' } : { kind: 'give-up' };
  if (failure.retryAfterMs !== undefined && !retriedHere && failure.retryAfterMs <= budget.waitBudgetMs) {
    return { kind: 'retry-same', waitMs: failure.retryAfterMs };
  }
  return hasNextTarget ? { kind: 'next-target' } : { kind: 'give-up' };
}

/** Waits `ms`, or less when `signal` aborts. */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
