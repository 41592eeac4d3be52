import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** Where a simulated job is in its life. */
export type SimJobPhase = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** One simulated async job. Its phase is a function of the clock: no timer is needed to advance it. */
export interface SimJob {
  readonly id: string;
  /** The provider surface and endpoint it was created on (`kling:text2video`, `dashscope:video-generation`, ...). */
  readonly collection: string;
  readonly model: string;
  readonly createdAt: number;
  readonly queuedMs: number;
  readonly runningMs: number;
  readonly outcome: 'succeeded' | 'failed';
  readonly callbackUrl?: string;
  readonly externalTaskId?: string;
  /** Requested outputs (images) or 1. */
  readonly outputs: number;
  /** Seconds of video, when a video job. */
  readonly videoSeconds?: number;
  /** Where its result URLs point (`serveMedia`: the simulator itself), else an unreachable example host. */
  readonly mediaOrigin?: string;
  cancelledAt?: number;
}

/** The status reads of one job the simulator answered. */
export interface SimJobPolls {
  /** Reads answered (or in flight). */
  polls: number;
  /** Reads in flight now. */
  inFlight: number;
  /** The most reads of this job that were in flight at once. */
  maxConcurrent: number;
}

/** A callback the simulator tried to deliver. */
export interface SimCallbackDelivery {
  readonly jobId: string;
  /** The job phase the callback announced. */
  readonly phase: SimJobPhase;
  /** The receiver's HTTP status, or `refused` (not loopback) or `failed` (no answer). */
  readonly outcome: number | 'refused' | 'failed';
}

/** The phase of `job` at `now`. */
export function jobPhase(job: SimJob, now: number): SimJobPhase {
  if (job.cancelledAt !== undefined) return 'cancelled';
  const elapsed = now - job.createdAt;
  if (elapsed < job.queuedMs) return 'queued';
  if (elapsed < job.queuedMs + job.runningMs) return 'running';
  return job.outcome;
}

/** When `job` last changed phase, at or before `now`. */
export function jobUpdatedAt(job: SimJob, now: number): number {
  if (job.cancelledAt !== undefined) return job.cancelledAt;
  const phase = jobPhase(job, now);
  if (phase === 'queued') return job.createdAt;
  if (phase === 'running') return job.createdAt + job.queuedMs;
  return job.createdAt + job.queuedMs + job.runningMs;
}

/** Progress from 0 to 1 at `now`. */
export function jobProgress(job: SimJob, now: number): number {
  const phase = jobPhase(job, now);
  if (phase === 'queued' || phase === 'cancelled') return 0;
  if (phase !== 'running') return 1;
  return Math.min(0.99, (now - job.createdAt - job.queuedMs) / Math.max(1, job.runningMs));
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Whether a callback URL points at this machine (the only place the simulator ever calls). */
export function isLoopbackCallbackUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname) && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** How long after a phase boundary its callback timer fires (timers and the wall clock drift by about 1 ms). */
const PHASE_CLOCK_MARGIN_MS = 5;

/** Every simulated job of a simulator, with callback timers that stop when the simulator closes. */
export class SimJobStore {
  private readonly jobs = new Map<string, SimJob>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pending = new Set<Promise<void>>();
  /** The last delivery of each job: a job's callbacks are sent one after another, in phase order. */
  private readonly lastDelivery = new Map<string, Promise<void>>();
  /** Status reads of each job: how many, and the most that were in flight at once. */
  readonly polls = new Map<string, SimJobPolls>();
  /** Every callback attempt, in order. */
  readonly deliveries: SimCallbackDelivery[] = [];
  private closed = false;

  constructor(
    private readonly now: () => number,
    private readonly callbackBody: (job: SimJob) => unknown,
  ) {}

  /** Adds a job and schedules its callbacks (one per phase change, the first right away). */
  add(job: SimJob): void {
    this.jobs.set(job.id, job);
    const callbackUrl = job.callbackUrl;
    if (callbackUrl === undefined) return;
    this.deliver(job, callbackUrl);
    for (const at of [job.queuedMs, job.queuedMs + job.runningMs]) {
      // A timer can fire a millisecond before the wall clock the phase is read from reaches its boundary; the
      // margin keeps each callback on the phase change it announces.
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (job.cancelledAt === undefined) this.deliver(job, callbackUrl);
      }, at + PHASE_CLOCK_MARGIN_MS);
      this.timers.add(timer);
    }
  }

  /** Counts one status read of job `id` while `hold` runs (the read is in flight until it resolves). */
  async countPoll(id: string, hold: () => Promise<void>): Promise<void> {
    const entry = this.polls.get(id) ?? { polls: 0, inFlight: 0, maxConcurrent: 0 };
    this.polls.set(id, entry);
    entry.polls += 1;
    entry.inFlight += 1;
    entry.maxConcurrent = Math.max(entry.maxConcurrent, entry.inFlight);
    try {
      await hold();
    } finally {
      entry.inFlight -= 1;
    }
  }

  get(id: string): SimJob | undefined {
    return this.jobs.get(id);
  }

  /** Jobs of one collection (all when `undefined`), newest first. */
  list(filter: (job: SimJob) => boolean): SimJob[] {
    return [...this.jobs.values()].filter(filter).sort((left, right) => right.createdAt - left.createdAt || (right.id < left.id ? -1 : 1));
  }

  /** Waits for callbacks in flight, then stops every timer. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.pending]);
  }

  private deliver(job: SimJob, url: string): void {
    if (this.closed) return;
    const phase = jobPhase(job, this.now());
    if (!isLoopbackCallbackUrl(url)) {
      this.deliveries.push({ jobId: job.id, phase, outcome: 'refused' });
      return;
    }
    const payload = Buffer.from(JSON.stringify(this.callbackBody(job)));
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const previous = this.lastDelivery.get(job.id) ?? Promise.resolve();
    const delivery = previous.then(() => new Promise<void>((resolve) => {
      const request = send(
        target,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(payload.length) },
          timeout: 5000,
          // Loopback only (checked above): the receiver is a test server with a self-signed certificate.
          ...(target.protocol === 'https:' ? { rejectUnauthorized: false } : {}),
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            this.deliveries.push({ jobId: job.id, phase, outcome: response.statusCode ?? 0 });
            resolve();
          });
        },
      );
      request.on('timeout', () => request.destroy());
      request.on('error', () => {
        this.deliveries.push({ jobId: job.id, phase, outcome: 'failed' });
        resolve();
      });
      request.end(payload);
    }));
    this.lastDelivery.set(job.id, delivery);
    this.pending.add(delivery);
    void delivery.then(() => this.pending.delete(delivery));
  }
}

/** The origin of a job's result URLs. */
export const mediaOriginOf = (job: SimJob): string => job.mediaOrigin ?? 'https://media.simulator.example';

/** The bytes the simulator serves at a result URL (`serveMedia`): deterministic, so a copy can be compared. */
export function simulatedMediaBytes(path: string): Buffer {
  return Buffer.from(`simulated media ${path}\n`.repeat(64), 'utf8');
}
