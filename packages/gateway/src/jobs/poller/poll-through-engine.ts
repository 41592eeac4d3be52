import { isProtocolEngineErrorV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import type { TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import type { RuntimeTarget } from '../../runtime/resolve-catalogue.js';
import type { JobPollAnswer } from './observe-tracked-job.js';

/** The provider's `retry-after` as the engine's normalized failure carries it (in the error's cause), when it did. */
function retryAfterOf(cause: unknown): number | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const value = (cause as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Polls a tracked job through `engine.jobs.get` with its catalogue target's binding. Engine errors become
 * `unavailable` (with the provider's retry-after when it gave one); a job whose target the catalogue no longer
 * serves is `unavailable` too, so it ages into `unknown` by its plan rather than being called failed.
 */
export function pollThroughEngine(
  engine: Pick<ProtocolEngineV1, 'jobs'>,
  targetOf: (ref: string) => RuntimeTarget | undefined,
): (job: TrackedJobV1, signal: AbortSignal) => Promise<JobPollAnswer> {
  return async (job, signal) => {
    const target = targetOf(job.targetRef);
    if (target === undefined) return { kind: 'unavailable' };
    try {
      const observation = await engine.jobs.get({ binding: target.binding, providerJobId: job.providerJobId, signal });
      return { kind: 'snapshot', snapshot: observation.snapshot };
    } catch (error) {
      if (!isProtocolEngineErrorV1(error)) throw error;
      const retryAfterMs = retryAfterOf(error.cause);
      return retryAfterMs === undefined ? { kind: 'unavailable' } : { kind: 'unavailable', retryAfterMs };
    }
  };
}
