import type { ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import type { RuntimeTarget } from '../../runtime/resolve-catalogue.js';
import { computeCostV1 } from '../v1/compute-cost-v1.js';
import type { SettlementV1, TrackedJobV1 } from '../v1/governance-store-v1.js';
import { UNPRICED_VERSION } from './request-metering.js';

/** The job states that end a job: the first observation of one settles it. */
export const TERMINAL_JOB_STATES: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * The settlement of a tracked job at its first observed terminal state: a succeeded job is charged the cost of its
 * reported usage (its reservation, `estimated`, when it reported none); a failed or cancelled job releases its
 * reservation. Its attempt id is the create's, so the store settles it once however many observers race.
 */
export function trackedJobSettlement(job: TrackedJobV1, target: RuntimeTarget, snapshot: ProviderAsyncJobSnapshotV2, nowMs: number): SettlementV1 {
  const [requestId = job.attemptId] = job.attemptId.split(':');
  const base = {
    attemptId: job.attemptId,
    requestId,
    attempt: Number(job.attemptId.split(':')[1] ?? 1),
    tenantId: job.tenantId,
    keyId: job.keyId,
    publicModel: job.publicModel,
    targetRef: job.targetRef,
    provider: target.provider,
    currency: job.currency,
    reservedMicros: job.reservedMicros,
    reservedTokens: 0,
    outcome: snapshot.state,
    releaseSlot: true,
    startedAtMs: job.createdAtMs,
    settledAtMs: nowMs,
  } as const;
  if (snapshot.state !== 'succeeded') return { ...base, kind: 'released', costMicros: 0, usedTokens: 0, overrun: false, priceVersion: target.price?.version ?? UNPRICED_VERSION };
  const usage = snapshot.usage;
  const cost = target.price === undefined ? undefined : computeCostV1(usage, target.price);
  if (cost === undefined) {
    return { ...base, kind: 'estimated', ...(usage === undefined ? {} : { usage }), costMicros: job.reservedMicros, usedTokens: 0, overrun: false, priceVersion: target.price?.version ?? UNPRICED_VERSION };
  }
  return { ...base, kind: 'actual', ...(usage === undefined ? {} : { usage }), costMicros: cost.costMicros, usedTokens: 0, overrun: cost.costMicros > job.reservedMicros, priceVersion: target.price?.version ?? UNPRICED_VERSION };
}
