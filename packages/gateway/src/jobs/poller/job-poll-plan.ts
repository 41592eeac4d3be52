/**
 * How often the poller asks a provider about one open job. Every interval is in milliseconds of the store clock and
 * counts from the job's creation (`createdAtMs`) or its last poll.
 */
export interface JobPollPlan {
  /** The first poll, this long after the create. */
  readonly firstPollMs: number;
  /** Each later interval is the previous one times this factor (1 keeps it constant). */
  readonly backoffFactor: number;
  /** No interval grows beyond this. */
  readonly ceilingMs: number;
  /**
   * How long a job may stay open before the gateway stops expecting it to finish: from then on its state is
   * `unknown` (never `failed`: the provider may still finish it) and it is polled every `slowPollMs`.
   */
  readonly planMs: number;
  /** The interval for jobs past their plan. */
  readonly slowPollMs: number;
  /** How long the provider keeps a job it can answer about, from its create; polling stops after it. */
  readonly providerRetentionMs: number;
  /** How long the provider's result URLs work after the job finished, where the provider states it. */
  readonly mediaRetentionMs?: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The plan of a family that has no entry in {@link JOB_POLL_PLAN_BY_FAMILY}. */
export const DEFAULT_JOB_POLL_PLAN: JobPollPlan = {
  firstPollMs: 5_000,
  backoffFactor: 1.5,
  ceilingMs: 60_000,
  planMs: 2 * HOUR,
  slowPollMs: 15 * 60_000,
  providerRetentionMs: DAY,
};

/**
 * What each async family's provider documents about retention (data, not branches; see
 * docs/reference wire notes): Kling deletes result URLs after 30 days; DashScope keeps task data and the video URL
 * for about 24 hours, after which its status reads `UNKNOWN`.
 */
export const JOB_POLL_PLAN_BY_FAMILY: Readonly<Record<string, Partial<JobPollPlan>>> = {
  'kling-video/v1': { providerRetentionMs: 30 * DAY, mediaRetentionMs: 30 * DAY },
  'dashscope-tasks/v1': { providerRetentionMs: DAY, mediaRetentionMs: DAY },
};

/** The plan of `family`: the default, the family's documented facts, then the operator's overrides. */
export function jobPollPlanOf(family: string, overrides: Partial<JobPollPlan> = {}): JobPollPlan {
  return { ...DEFAULT_JOB_POLL_PLAN, ...JOB_POLL_PLAN_BY_FAMILY[family], ...overrides };
}

/** What the plan says after a poll: the state the gateway holds and when to poll next (absent: stop polling). */
export interface JobPollDecision {
  readonly state: string;
  readonly nextPollAtMs?: number;
}

/**
 * The next poll of an open job after its `pollAttempts`-th poll at `nowMs`: backoff from `firstPollMs` up to the
 * ceiling, never sooner than the provider's `retryAfterMs`; past the plan, `unknown` with a slow poll; past the
 * provider's retention, no more polls. Pure.
 */
export function decideNextPoll(
  plan: JobPollPlan,
  job: { readonly createdAtMs: number; readonly pollAttempts: number; readonly state: string },
  nowMs: number,
  retryAfterMs = 0,
): JobPollDecision {
  const age = nowMs - job.createdAtMs;
  if (age >= plan.providerRetentionMs) return { state: 'unknown' };
  // Whole milliseconds: a fractional backoff (1.5x of an odd interval) is refused by the shared store's bigint column.
  if (age >= plan.planMs) return { state: 'unknown', nextPollAtMs: nowMs + Math.ceil(Math.max(plan.slowPollMs, retryAfterMs)) };
  const interval = Math.min(plan.ceilingMs, plan.firstPollMs * plan.backoffFactor ** Math.max(0, job.pollAttempts));
  return { state: job.state, nextPollAtMs: nowMs + Math.ceil(Math.max(interval, retryAfterMs)) };
}
