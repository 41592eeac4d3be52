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

const RETRY_AFTER = { 'retry-after': String(GATEWAY_WAIT_MS / 1000) };

/**
 * Lets a request in or refuses it: a draining gateway answers `GATEWAY_SHUTTING_DOWN` (the dialect's overloaded
 * status), a full one `GATEWAY_CONCURRENCY_LIMIT` (429); both with `retry-after`.
 */
export async function admitStage(input: AdmitInput): Promise<StageOutcome<Admission>> {
  if (input.draining) return refuse(egressRefusal({ source: 'engine', code: 'GATEWAY_SHUTTING_DOWN' }, 'refused:draining', { ...RETRY_AFTER, connection: 'close' }));
  if (!input.limiter.tryAcquire()) return refuse(egressRefusal({ source: 'engine', code: 'GATEWAY_CONCURRENCY_LIMIT' }, 'refused:concurrency', RETRY_AFTER));
  let released = false;
  return proceed({
    release: () => {
      if (!released) input.limiter.release();
      released = true;
    },
  });
}
