import type { GovernanceStoreV1, TrackedJobKeyV1, TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import { observeTrackedJob, TERMINAL_TRACKED_JOB_STATES, type JobPollAnswer, type TrackedJobObserverDeps } from './observe-tracked-job.js';

/** Options of {@link createJobPoller}. */
export interface JobPollerOptions extends TrackedJobObserverDeps {
  readonly store: Pick<GovernanceStoreV1, 'claimDueJobs' | 'observeJob' | 'extendJobLeases' | 'releaseJobLeases'>;
  /** Asks the provider about one job (the host binds it to its catalogue target); never throws for provider trouble. */
  readonly poll: (job: TrackedJobV1, signal: AbortSignal) => Promise<JobPollAnswer>;
  /** This process's lease owner id (unique per process). */
  readonly owner: string;
  /** Jobs this process holds at once (waiting for a target slot or being polled). */
  readonly maxConcurrent: number;
  /** Polls in flight at once against one target. */
  readonly maxConcurrentPerTarget: number;
  /** How long a claim lasts; held leases are extended every third of it. */
  readonly leaseMs: number;
  /** How often an idle poller asks the store for due jobs. */
  readonly claimIntervalMs: number;
  /** A poll taking longer is abandoned and counted as `unavailable`. */
  readonly pollTimeoutMs: number;
  /**
   * A settled job that is due again is not polled: this says when to look at it next (`undefined`: never), after
   * seeing its terminal event delivered (webhooks' `followUp`).
   */
  readonly followUp?: (job: TrackedJobV1) => number | undefined;
}

/** A running poller. */
export interface JobPoller {
  /** Claims what is due now (up to the free capacity) and polls it; resolves when those polls are recorded. */
  runOnce(): Promise<number>;
  /** Starts the claim loop and the lease heartbeat. */
  start(): void;
  /** Stops claiming, waits for polls in flight, then gives back every lease this process holds. */
  stop(): Promise<void>;
  /** Jobs held now. */
  readonly held: number;
}

/** How long past its signal's deadline a poll may take before the poller stops waiting for it. */
const POLL_DEADLINE_GRACE_MS = 1000;

/**
 * A poll that ignores its abort signal (a transport waiting where the signal does not reach) must not hold its job
 * for ever: the poller stops waiting at the deadline and counts the poll `unavailable`.
 */
async function withinDeadline(poll: Promise<JobPollAnswer>, ms: number): Promise<JobPollAnswer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<JobPollAnswer>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'unavailable' }), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([poll, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const keyString = (job: TrackedJobKeyV1): string => `${job.tenantId}\u0000${job.targetRef}\u0000${job.providerJobId}`;

/**
 * The bounded worker of one gateway process: claims due tracked jobs with a lease (each job is polled by one
 * instance at a time; a dead instance's leases expire and another takes its jobs over), polls each through the
 * engine with a global and a per-target bound, records what it saw and settles terminal jobs (observe-tracked-job).
 * The claim loop never waits for a slow poll: it claims again whenever capacity frees or the interval passes.
 */
export function createJobPoller(options: JobPollerOptions): JobPoller {
  const held = new Map<string, TrackedJobV1>();
  const targets = new Map<string, { active: number; waiting: (() => void)[] }>();
  const inFlight = new Set<Promise<void>>();
  let stopped = true;
  let claimTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let claiming: Promise<number> | undefined;

  const acquire = async (targetRef: string): Promise<void> => {
    const slot = targets.get(targetRef) ?? { active: 0, waiting: [] };
    targets.set(targetRef, slot);
    if (slot.active < options.maxConcurrentPerTarget) {
      slot.active += 1;
      return;
    }
    await new Promise<void>((resolve) => slot.waiting.push(resolve));
  };
  const releaseSlot = (targetRef: string): void => {
    const slot = targets.get(targetRef);
    if (slot === undefined) return;
    const next = slot.waiting.shift();
    if (next !== undefined) next();
    else if (--slot.active === 0) targets.delete(targetRef);
  };

  /** A job done with: claim again at once only when this poller was full (otherwise the interval's claim finds more). */
  const freed = (job: TrackedJobV1): void => {
    const wasFull = held.size >= options.maxConcurrent;
    held.delete(keyString(job));
    if (!stopped && wasFull) scheduleClaim(0);
  };

  const run = async (job: TrackedJobV1): Promise<void> => {
    if (job.settledAtMs !== undefined && TERMINAL_TRACKED_JOB_STATES.has(job.state)) {
      try {
        await followUp(job);
      } catch (error) {
        options.onError?.(error);
        await options.store.releaseJobLeases(options.owner, [job]).catch(options.onError);
      } finally {
        freed(job);
      }
      return;
    }
    await acquire(job.targetRef);
    try {
      let answer: JobPollAnswer;
      // A timer cleared when the poll ends, not `AbortSignal.timeout`: that one stays armed for the whole
      // `pollTimeoutMs` after a poll that took milliseconds and builds a DOMException when it fires.
      const controller = new AbortController();
      const abortTimer = setTimeout(() => controller.abort(), options.pollTimeoutMs);
      abortTimer.unref?.();
      try {
        answer = await withinDeadline(options.poll(job, controller.signal), options.pollTimeoutMs + POLL_DEADLINE_GRACE_MS);
      } catch (error) {
        options.onError?.(error);
        answer = { kind: 'unavailable' };
      } finally {
        clearTimeout(abortTimer);
      }
      const stillHeld = async (): Promise<boolean> => (await options.store.extendJobLeases(options.owner, [job], options.leaseMs)) === 1;
      await observeTrackedJob(options, job, answer, options.owner, stillHeld);
    } catch (error) {
      options.onError?.(error);
      await options.store.releaseJobLeases(options.owner, [job]).catch(options.onError);
    } finally {
      releaseSlot(job.targetRef);
      freed(job);
    }
  };

  /** A settled job due again: no provider call, only its delivery follow-up (or the end of polling). */
  const followUp = async (job: TrackedJobV1): Promise<void> => {
    const next = options.followUp?.(job);
    await options.store.observeJob({
      tenantId: job.tenantId,
      targetRef: job.targetRef,
      providerJobId: job.providerJobId,
      owner: options.owner,
      state: job.state,
      observedAtMs: job.lastObservedAtMs ?? options.now(),
      pollAttempts: job.pollAttempts ?? 0,
      ...(next === undefined ? {} : { nextPollAtMs: next }),
    });
  };

  const claim = async (): Promise<number> => {
    const free = options.maxConcurrent - held.size;
    if (free <= 0) return 0;
    const jobs = await options.store.claimDueJobs({ owner: options.owner, leaseMs: options.leaseMs, limit: free });
    for (const job of jobs) {
      held.set(keyString(job), job);
      const running = run(job);
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
    }
    return jobs.length;
  };

  const claimOnce = (): Promise<number> => {
    claiming ??= claim().finally(() => {
      claiming = undefined;
    });
    return claiming;
  };

  function scheduleClaim(delayMs: number): void {
    if (claimTimer !== undefined) clearTimeout(claimTimer);
    claimTimer = setTimeout(() => {
      claimTimer = undefined;
      claimOnce()
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          if (!stopped && claimTimer === undefined) scheduleClaim(options.claimIntervalMs);
        });
    }, delayMs);
    claimTimer.unref?.();
  }

  return {
    async runOnce() {
      const claimed = await claimOnce();
      await Promise.all([...inFlight]);
      return claimed;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      scheduleClaim(0);
      heartbeat = setInterval(() => {
        if (held.size === 0) return;
        void options.store.extendJobLeases(options.owner, [...held.values()], options.leaseMs).catch(options.onError);
      }, Math.max(1, Math.floor(options.leaseMs / 3)));
      heartbeat.unref?.();
    },
    async stop() {
      stopped = true;
      if (claimTimer !== undefined) clearTimeout(claimTimer);
      if (heartbeat !== undefined) clearInterval(heartbeat);
      await claiming?.catch(() => undefined);
      await Promise.all([...inFlight]);
      await options.store.releaseJobLeases(options.owner).catch(options.onError);
    },
    get held() {
      return held.size;
    },
  };
}
