import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedGovernanceStore, type EmbeddedGovernanceStore } from '../../governance/embedded/embedded-governance-store.js';
import type { TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import { DEFAULT_JOB_POLL_PLAN, type JobPollPlan } from './job-poll-plan.js';
import { createJobPoller, type JobPollerOptions } from './job-poller.js';
import type { JobPollAnswer } from './observe-tracked-job.js';

const START = Date.UTC(2026, 3, 15, 12);
const PLAN: JobPollPlan = { ...DEFAULT_JOB_POLL_PLAN, firstPollMs: 1000, backoffFactor: 2, ceilingMs: 8000, planMs: 60_000, slowPollMs: 20_000, providerRetentionMs: 300_000, mediaRetentionMs: 86_400_000 };

let directory: string;
let store: EmbeddedGovernanceStore;
let now: number;
let settled: string[];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tf-poller-'));
  now = START;
  settled = [];
  store = await openEmbeddedGovernanceStore({ dataDirectory: directory, clock: () => now });
});
afterEach(async () => {
  await store.close();
  await rm(directory, { recursive: true, force: true });
});

let sequence = 0;
async function openJob(overrides: Partial<TrackedJobV1> = {}): Promise<TrackedJobV1> {
  sequence += 1;
  const job: TrackedJobV1 = {
    tenantId: 'acme',
    keyId: 'k1',
    publicModel: 'video',
    targetRef: 'video#0',
    providerJobId: `job-${sequence}`,
    attemptId: `req-${sequence}:1`,
    reservedMicros: 500,
    currency: 'USD',
    createdAtMs: now,
    state: 'queued',
    nextPollAtMs: now + PLAN.firstPollMs,
    pollAttempts: 0,
    ...overrides,
  };
  await store.recordJob(job);
  return job;
}

const snapshot = (job: TrackedJobV1, state: ProviderAsyncJobSnapshotV2['state'], extra: Partial<ProviderAsyncJobSnapshotV2> = {}): JobPollAnswer => ({
  kind: 'snapshot',
  snapshot: { providerJobId: job.providerJobId, state, ...extra },
});

function poller(poll: JobPollerOptions['poll'], overrides: Partial<JobPollerOptions> = {}) {
  return createJobPoller({
    store,
    poll,
    planOf: () => PLAN,
    settle: async (job) => {
      settled.push(job.attemptId);
    },
    now: () => now,
    owner: 'instance-a',
    maxConcurrent: 50,
    maxConcurrentPerTarget: 50,
    leaseMs: 30_000,
    claimIntervalMs: 1000,
    pollTimeoutMs: 5000,
    ...overrides,
  });
}

const find = (job: TrackedJobV1) => store.findJob(job.tenantId, job.targetRef, job.providerJobId);

describe('job poller', () => {
  it('polls only due jobs, then backs off by the plan', async () => {
    const job = await openJob();
    const polls: string[] = [];
    const worker = poller(async (polled) => {
      polls.push(polled.providerJobId);
      return snapshot(polled, 'running', { progress: 0.5 });
    });
    expect(await worker.runOnce()).toBe(0);
    now += 1000;
    expect(await worker.runOnce()).toBe(1);
    expect(await find(job)).toMatchObject({ state: 'running', progress: 0.5, pollAttempts: 1, lastObservedAtMs: now, nextPollAtMs: now + 2000 });
    now += 1999;
    expect(await worker.runOnce()).toBe(0);
    now += 1;
    expect(await worker.runOnce()).toBe(1);
    expect(await find(job)).toMatchObject({ pollAttempts: 2, nextPollAtMs: now + 4000 });
    expect(polls).toEqual([job.providerJobId, job.providerJobId]);
  });

  it('settles a terminal job exactly once, records its terminal facts with media expiry, and stops polling it', async () => {
    const job = await openJob();
    const changes: string[] = [];
    const worker = poller(
      async (polled) =>
        snapshot(polled, 'succeeded', { finishedAt: new Date(now - 500).toISOString(), media: [{ type: 'video', url: 'https://cdn.example.com/a.mp4', durationSeconds: 5 }], usage: { outputTokens: 0 } }),
      { onStateChange: (before, after) => changes.push(`${before.state}->${after.state}`) },
    );
    now += 1000;
    await worker.runOnce();
    const found = await find(job);
    expect(found).toMatchObject({
      state: 'succeeded',
      settledAtMs: now,
      terminal: { finishedAtMs: now - 500, media: [{ type: 'video', url: 'https://cdn.example.com/a.mp4', durationSeconds: 5, expiresAtMs: now - 500 + 86_400_000 }], usage: { outputTokens: 0 } },
    });
    expect(found?.nextPollAtMs).toBeUndefined();
    now += 3_600_000;
    expect(await worker.runOnce()).toBe(0);
    expect(settled).toEqual([job.attemptId]);
    expect(changes).toEqual(['queued->succeeded']);
  });

  it('a failed job records its failure code; a settlement that could not be written is retried at the next poll', async () => {
    const job = await openJob();
    let failSettle = true;
    const worker = poller(async (polled) => snapshot(polled, 'failed', { failure: { code: 'content-filtered', retryable: false } }), {
      settle: async (polled) => {
        if (failSettle) throw new Error('store down');
        settled.push(polled.attemptId);
      },
      onError: () => undefined,
    });
    now += 1000;
    await worker.runOnce();
    expect(await find(job)).toMatchObject({ state: 'failed', terminal: { failureCode: 'content-filtered' }, nextPollAtMs: now + PLAN.firstPollMs });
    expect((await find(job))?.settledAtMs).toBeUndefined();
    failSettle = false;
    now += PLAN.firstPollMs;
    await worker.runOnce();
    expect(settled).toEqual([job.attemptId]);
    expect(await find(job)).toMatchObject({ state: 'failed', settledAtMs: now });
    expect((await find(job))?.nextPollAtMs).toBeUndefined();
  });

  it('honours the provider\'s retry-after and keeps the state when the provider cannot be asked', async () => {
    const job = await openJob({ state: 'running' });
    const worker = poller(async () => ({ kind: 'unavailable', retryAfterMs: 45_000 }));
    now += 1000;
    await worker.runOnce();
    expect(await find(job)).toMatchObject({ state: 'running', pollAttempts: 1, nextPollAtMs: now + 45_000 });
  });

  it('a job past its plan becomes unknown, never failed, keeps a slow poll, and is left alone after the provider\'s retention', async () => {
    const job = await openJob();
    const worker = poller(async (polled) => snapshot(polled, 'running'));
    now = START + PLAN.planMs;
    await store.recordJob({ ...job, nextPollAtMs: now });
    await worker.runOnce();
    expect(await find(job)).toMatchObject({ state: 'unknown', nextPollAtMs: now + PLAN.slowPollMs });
    now = START + PLAN.providerRetentionMs;
    await worker.runOnce();
    const found = await find(job);
    expect(found?.state).toBe('unknown');
    expect(found?.nextPollAtMs).toBeUndefined();
    expect(settled).toEqual([]);
  });

  it('holds the global and the per-target bound', async () => {
    for (let index = 0; index < 12; index += 1) await openJob({ targetRef: `video#${index % 3}` });
    const active = new Map<string, number>();
    let total = 0;
    let maxTotal = 0;
    const maxPerTarget = new Map<string, number>();
    const worker = poller(
      async (polled) => {
        total += 1;
        maxTotal = Math.max(maxTotal, total);
        active.set(polled.targetRef, (active.get(polled.targetRef) ?? 0) + 1);
        maxPerTarget.set(polled.targetRef, Math.max(maxPerTarget.get(polled.targetRef) ?? 0, active.get(polled.targetRef) ?? 0));
        await new Promise((resolve) => setTimeout(resolve, 5));
        total -= 1;
        active.set(polled.targetRef, (active.get(polled.targetRef) ?? 0) - 1);
        return snapshot(polled, 'running');
      },
      { maxConcurrent: 4, maxConcurrentPerTarget: 1 },
    );
    now += 1000;
    let claimed = 0;
    for (let round = 0; round < 10 && claimed < 12; round += 1) claimed += await worker.runOnce();
    expect(claimed).toBe(12);
    expect(maxTotal).toBeLessThanOrEqual(3);
    expect(maxTotal).toBeGreaterThan(1);
    expect([...maxPerTarget.values()]).toEqual([1, 1, 1]);
  });

  it('two pollers on one store never poll the same job at once', async () => {
    const jobs = await Promise.all(Array.from({ length: 30 }, () => openJob()));
    const polled: string[] = [];
    const poll = async (job: TrackedJobV1) => {
      polled.push(job.providerJobId);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return snapshot(job, 'running');
    };
    const a = poller(poll, { owner: 'a', maxConcurrent: 20 });
    const b = poller(poll, { owner: 'b', maxConcurrent: 20 });
    now += 1000;
    const [fromA, fromB] = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(fromA + fromB).toBe(30);
    expect(fromA).toBeGreaterThan(0);
    expect(fromB).toBeGreaterThan(0);
    expect(polled.sort()).toEqual(jobs.map((job) => job.providerJobId).sort());
  });

  it('takes over the jobs of a poller that died holding leases once they expire', async () => {
    const job = await openJob();
    const dead = poller(() => new Promise<JobPollAnswer>(() => undefined), { owner: 'dead', pollTimeoutMs: 60_000 });
    now += 1000;
    void dead.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(dead.held).toBe(1);
    const alive = poller(async (polled) => snapshot(polled, 'succeeded'), { owner: 'alive' });
    expect(await alive.runOnce()).toBe(0);
    now += 30_000;
    expect(await alive.runOnce()).toBe(1);
    expect(await find(job)).toMatchObject({ state: 'succeeded' });
    expect(settled).toEqual([job.attemptId]);
  });

  it("aborts a poll's signal at the poll deadline, and disarms it when the poll ends first", async () => {
    const slow = await openJob();
    now += 1000;
    let slowSignal: AbortSignal | undefined;
    const hanging = poller(
      (_job, signal) =>
        new Promise<JobPollAnswer>((resolve) => {
          slowSignal = signal;
          signal.addEventListener('abort', () => resolve({ kind: 'unavailable' }));
        }),
      { pollTimeoutMs: 50 },
    );
    expect(await hanging.runOnce()).toBe(1);
    expect(slowSignal?.aborted).toBe(true);
    expect(await find(slow)).toMatchObject({ pollAttempts: 1 });

    const fast = await openJob();
    now += 1000;
    let fastSignal: AbortSignal | undefined;
    const quick = poller(async (polled, signal) => {
      fastSignal = signal;
      return snapshot(polled, 'running');
    }, { pollTimeoutMs: 50 });
    expect(await quick.runOnce()).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    // A finished poll leaves no timer behind: its signal never fires.
    expect(fastSignal?.aborted).toBe(false);
    expect(await find(fast)).toMatchObject({ state: 'running' });
  });

  it('a poll that ignores its abort signal holds its job no longer than the poll deadline (plus a second)', async () => {
    const job = await openJob();
    now += 1000;
    const worker = poller(() => new Promise<never>(() => undefined), { pollTimeoutMs: 50 });
    const started = Date.now();
    expect(await worker.runOnce()).toBe(1);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(worker.held).toBe(0);
    // Counted as unavailable: polled again by the plan, the lease given back.
    expect(await find(job)).toMatchObject({ state: 'queued', pollAttempts: 1, nextPollAtMs: now + PLAN.firstPollMs * PLAN.backoffFactor });
  });
});
