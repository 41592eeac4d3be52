import type { GovernanceStoreV1, TrackedJobKeyV1, TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import type { JobPollPlan } from './job-poll-plan.js';
import { observeTrackedJob, TERMINAL_TRACKED_JOB_STATES, type JobPollAnswer, type TrackedJobObserverDeps } from './observe-tracked-job.js';

/** Where an answer about a tracked job came from. */
export type TrackedJobReadSource =
  /** The row: its last observation was fresh enough, or the job is settled and will not change. */
  | 'store'
  /** The provider, asked now; the row was updated (and settled, at a terminal state) with what it said. */
  | 'provider'
  /** The provider could not be asked; the row as last observed. */
  | 'stale';

/** What {@link readTrackedJob} needs beside the observer's deps. */
export interface TrackedJobReadDeps extends TrackedJobObserverDeps {
  readonly store: Pick<GovernanceStoreV1, 'findJob' | 'observeJob'>;
  /** An observation younger than this answers from the row (the `jobs.freshnessMs` setting). */
  readonly freshnessMs: number;
  readonly poll: (job: TrackedJobV1, signal: AbortSignal) => Promise<JobPollAnswer>;
}

/**
 * A client's read of a tracked job: from the row when its last observation is fresh (or the job is settled),
 * otherwise one poll through the provider, recorded like the poller's (without a lease), so a client's GET and the
 * poller settle a terminal job once between them. `undefined` when the gateway tracks no such job.
 */
export async function readTrackedJob(
  deps: TrackedJobReadDeps,
  key: TrackedJobKeyV1,
  signal: AbortSignal,
): Promise<{ readonly job: TrackedJobV1; readonly source: TrackedJobReadSource } | undefined> {
  const job = await deps.store.findJob(key.tenantId, key.targetRef, key.providerJobId);
  if (job === undefined) return undefined;
  // A settled job may still be due (its terminal event's delivery follow-up), but its state never changes again.
  const settled = job.settledAtMs !== undefined && TERMINAL_TRACKED_JOB_STATES.has(job.state);
  const fresh = job.lastObservedAtMs !== undefined && deps.now() - job.lastObservedAtMs <= deps.freshnessMs;
  if (settled || fresh) return { job, source: 'store' };
  const answer = await deps.poll(job, signal);
  if (answer.kind === 'unavailable') return { job, source: 'stale' };
  const recorded = await observeTrackedJob(deps, job, answer);
  return recorded === undefined ? { job, source: 'stale' } : { job: recorded, source: 'provider' };
}

/** The row of a job just accepted: its first poll is due `firstPollMs` after the create. */
export function acceptedTrackedJob(
  job: Omit<TrackedJobV1, 'state' | 'nextPollAtMs' | 'pollAttempts'>,
  plan: JobPollPlan,
): TrackedJobV1 {
  return { ...job, state: 'queued', nextPollAtMs: job.createdAtMs + plan.firstPollMs, pollAttempts: 0 };
}
