import { egressRefusal } from '../pipeline/gateway-refusal.js';
import { proceed, refuse, type StageOutcome } from '../pipeline/stage.js';
import type { ConcurrencyLimiter } from '../operations/concurrency-limiter.js';

/** How long a refused client is told to wait before it tries again. */
export const GATEWAY_WAIT_MS = 1000;

/** What the admit stage reads. */
export interface AdmitInput {
  /** Whether the gateway is draining (it takes no new model requests). */
  readonly draining: boolean;
  readonly limiter: ConcurrencyLimiter;
}

/** A request let in: it holds what it took until `release`. */
export interface Admission {
  /** Gives back what admission took (the concurrency slot); only the first call does anything. */
  readonly release: () => void;
}

/** Lets a request in or refuses it: a draining gateway answers `overloaded`, a full one `rate-limited`. */
export async function admitStage(input: AdmitInput): Promise<StageOutcome<Admission>> {
  if (input.draining) return refuse(egressRefusal({ source: 'provider', failure: { code: 'overloaded', retryable: true, retryAfterMs: GATEWAY_WAIT_MS } }, 'refused:draining'));
  if (!input.limiter.tryAcquire()) {
    return refuse(egressRefusal({ source: 'provider', failure: { code: 'rate-limited', retryable: true, retryAfterMs: GATEWAY_WAIT_MS } }, 'refused:concurrency'));
  }
  let released = false;
  return proceed({
    release: () => {
      if (!released) input.limiter.release();
      released = true;
    },
  });
}
