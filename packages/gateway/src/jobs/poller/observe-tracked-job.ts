import type { ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import type {
  GovernanceStoreV1,
  TrackedJobObservationV1,
  TrackedJobTerminalV1,
  TrackedJobV1,
} from '../../governance/v1/governance-store-v1.js';
import { decideNextPoll, type JobPollPlan } from './job-poll-plan.js';

/** The job states that end a job. */
export const TERMINAL_TRACKED_JOB_STATES: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/** What asking the provider about a job gave. */
export type JobPollAnswer =
  | { readonly kind: 'snapshot'; readonly snapshot: ProviderAsyncJobSnapshotV2 }
  /** The provider could not be asked now (transport, 5xx, 429); `retryAfterMs` when it said how long to wait. */
  | { readonly kind: 'unavailable'; readonly retryAfterMs?: number };

/** What {@link observeTrackedJob} needs from its host. */
export interface TrackedJobObserverDeps {
  readonly store: Pick<GovernanceStoreV1, 'observeJob'>;
  readonly planOf: (job: TrackedJobV1) => JobPollPlan;
  /** Settles the job's reservation at its terminal state (idempotent on the job's attempt id); throws when it cannot. */
  readonly settle: (job: TrackedJobV1, snapshot: ProviderAsyncJobSnapshotV2) => Promise<void>;
  /** Told once per recorded state change (webhooks hang here); never awaited. */
  readonly onStateChange?: (before: TrackedJobV1, after: TrackedJobV1) => void;
  readonly onError?: (error: unknown) => void;
  readonly now: () => number;
  /**
   * When a settled job is looked at again to see its terminal event delivered (webhooks' `firstFollowUpAtMs`);
   * absent or `undefined`: polling stops at settlement.
   */
  readonly followUpAtMs?: (job: TrackedJobV1) => number | undefined;
  /** Copies a finished job's result media into the media store (`jobs.media`), answering the facts with their keys. */
  readonly copyMedia?: (job: TrackedJobV1, terminal: TrackedJobTerminalV1) => Promise<TrackedJobTerminalV1>;
}

const parseInstant = (value: string | undefined): number | undefined => (value === undefined ? undefined : Date.parse(value));

/** The terminal facts of a finished job; media expire `mediaRetentionMs` after it finished, where the plan states it. */
export function terminalFactsOf(snapshot: ProviderAsyncJobSnapshotV2, plan: JobPollPlan, nowMs: number): TrackedJobTerminalV1 {
  const finishedAtMs = parseInstant(snapshot.finishedAt) ?? nowMs;
  const expiresAtMs = plan.mediaRetentionMs === undefined ? undefined : finishedAtMs + plan.mediaRetentionMs;
  return {
    finishedAtMs,
    ...(snapshot.media === undefined
      ? {}
      : {
          media: snapshot.media.map((item) => ({
            type: item.type,
            url: item.url,
            ...(item.durationSeconds === undefined ? {} : { durationSeconds: item.durationSeconds }),
            ...(expiresAtMs === undefined ? {} : { expiresAtMs }),
          })),
        }),
    ...(snapshot.failure === undefined ? {} : { failureCode: snapshot.failure.code }),
    ...(snapshot.usage === undefined ? {} : { usage: snapshot.usage }),
  };
}

function followUpOf(deps: TrackedJobObserverDeps, job: TrackedJobV1): { nextPollAtMs?: number } {
  const at = deps.followUpAtMs?.(job);
  return at === undefined ? {} : { nextPollAtMs: at };
}

/**
 * Records one poll of a tracked job, whoever made it (the poller with its lease as `owner`, or a client's GET
 * without one): at a terminal state it settles first (a failed settlement is retried at the next poll, soon), then
 * records the terminal facts and stops polling; otherwise it records the state and schedules the next poll by the
 * plan. Answers the job as recorded, or `undefined` when the store refused the observation (lease lost, row gone).
 * `stillHeld` (the poller's lease check) is asked before settling. The store's `settle` is idempotent on the job's
 * attempt id, so even two observers that both settle charge once.
 */
export async function observeTrackedJob(
  deps: TrackedJobObserverDeps,
  job: TrackedJobV1,
  answer: JobPollAnswer,
  owner?: string,
  stillHeld?: () => Promise<boolean>,
): Promise<TrackedJobV1 | undefined> {
  const now = deps.now();
  const plan = deps.planOf(job);
  const pollAttempts = (job.pollAttempts ?? 0) + 1;
  const key = { tenantId: job.tenantId, targetRef: job.targetRef, providerJobId: job.providerJobId };
  let observation: TrackedJobObservationV1;
  if (answer.kind === 'snapshot' && TERMINAL_TRACKED_JOB_STATES.has(answer.snapshot.state)) {
    let settledAtMs = job.settledAtMs;
    // A poller whose lease lapsed during a slow poll leaves the job to its new holder instead of settling it too.
    if (settledAtMs === undefined && stillHeld !== undefined && !(await stillHeld())) return undefined;
    if (settledAtMs === undefined) {
      try {
        await deps.settle(job, answer.snapshot);
        settledAtMs = now;
      } catch (error) {
        deps.onError?.(error);
      }
    }
    const facts = terminalFactsOf(answer.snapshot, plan, now);
    // Copied once, at the observation that first records the terminal facts (they are never replaced afterwards).
    const terminal = job.terminal === undefined && deps.copyMedia !== undefined ? await deps.copyMedia(job, facts) : facts;
    observation = {
      ...key,
      state: answer.snapshot.state,
      ...(answer.snapshot.progress === undefined ? {} : { progress: answer.snapshot.progress }),
      observedAtMs: now,
      pollAttempts,
      terminal,
      ...(settledAtMs === undefined ? { nextPollAtMs: now + plan.firstPollMs } : { settledAtMs, ...followUpOf(deps, job) }),
    };
  } else {
    const seen = answer.kind === 'snapshot' ? answer.snapshot.state : job.state;
    const decision = decideNextPoll(plan, { createdAtMs: job.createdAtMs, pollAttempts, state: seen }, now, answer.kind === 'unavailable' ? answer.retryAfterMs : 0);
    observation = {
      ...key,
      state: decision.state,
      ...(answer.kind === 'snapshot' && answer.snapshot.progress !== undefined ? { progress: answer.snapshot.progress } : {}),
      observedAtMs: now,
      pollAttempts,
      ...(decision.nextPollAtMs === undefined ? {} : { nextPollAtMs: decision.nextPollAtMs }),
    };
  }
  const recorded = await deps.store.observeJob(owner === undefined ? observation : { ...observation, owner });
  if (recorded !== 'recorded') return undefined;
  const { nextPollAtMs: _previous, ...rest } = job;
  const after: TrackedJobV1 = {
    ...rest,
    state: observation.state,
    lastObservedAtMs: now,
    pollAttempts,
    ...((observation.progress ?? job.progress) === undefined ? {} : { progress: observation.progress ?? job.progress }),
    ...(observation.nextPollAtMs === undefined ? {} : { nextPollAtMs: observation.nextPollAtMs }),
    ...((job.terminal ?? observation.terminal) === undefined ? {} : { terminal: job.terminal ?? observation.terminal }),
    ...((job.settledAtMs ?? observation.settledAtMs) === undefined ? {} : { settledAtMs: job.settledAtMs ?? observation.settledAtMs }),
  };
  if (after.state !== job.state) deps.onStateChange?.(job, after);
  return after;
}
