import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedGovernanceStore, type EmbeddedGovernanceStore } from '../../governance/embedded/embedded-governance-store.js';
import { DEFAULT_JOB_POLL_PLAN } from './job-poll-plan.js';
import { createJobPoller } from './job-poller.js';
import type { JobPollAnswer } from './observe-tracked-job.js';
import { acceptedTrackedJob, readTrackedJob, type TrackedJobReadDeps } from './read-tracked-job.js';

let directory: string;
let store: EmbeddedGovernanceStore;
let now: number;
let polls: number;
let answer: JobPollAnswer;
let settled: string[];
const plan = { ...DEFAULT_JOB_POLL_PLAN, firstPollMs: 1000 };

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tf-read-job-'));
  now = Date.UTC(2026, 3, 15, 12);
  polls = 0;
  settled = [];
  store = openEmbeddedGovernanceStore({ dataDirectory: directory, clock: () => now });
});
afterEach(async () => {
  await store.close();
  await rm(directory, { recursive: true, force: true });
});

const deps = (): TrackedJobReadDeps => ({
  store,
  freshnessMs: 5000,
  poll: async () => {
    polls += 1;
    return answer;
  },
  planOf: () => plan,
  settle: async (job) => {
    settled.push(job.attemptId);
  },
  now: () => now,
});
const key = { tenantId: 'acme', targetRef: 'video#0', providerJobId: 'job-1' };
const accepted = () =>
  acceptedTrackedJob({ ...key, keyId: 'k1', publicModel: 'video', attemptId: 'r1:1', reservedMicros: 10, currency: 'USD', createdAtMs: now }, plan);

describe('readTrackedJob', () => {
  it('an accepted job is due for its first poll after the plan\'s first interval', () => {
    expect(accepted()).toMatchObject({ state: 'queued', nextPollAtMs: now + 1000, pollAttempts: 0 });
  });

  it('answers from the row while the last observation is fresh, and asks the provider once it is not', async () => {
    await store.recordJob(accepted());
    answer = { kind: 'snapshot', snapshot: { providerJobId: 'job-1', state: 'running', progress: 0.4 } };
    expect(await readTrackedJob(deps(), key, AbortSignal.timeout(1000))).toMatchObject({ source: 'provider', job: { state: 'running', progress: 0.4 } });
    now += 5000;
    answer = { kind: 'snapshot', snapshot: { providerJobId: 'job-1', state: 'running', progress: 0.9 } };
    expect(await readTrackedJob(deps(), key, AbortSignal.timeout(1000))).toMatchObject({ source: 'store', job: { progress: 0.4 } });
    expect(polls).toBe(1);
    now += 1;
    expect(await readTrackedJob(deps(), key, AbortSignal.timeout(1000))).toMatchObject({ source: 'provider', job: { progress: 0.9 } });
    answer = { kind: 'unavailable' };
    now += 10_000;
    expect(await readTrackedJob(deps(), key, AbortSignal.timeout(1000))).toMatchObject({ source: 'stale', job: { progress: 0.9 } });
    expect(await readTrackedJob(deps(), { ...key, tenantId: 'globex' }, AbortSignal.timeout(1000))).toBeUndefined();
  });

  it('a client\'s read and the poller settle a terminal job once between them', async () => {
    await store.recordJob(accepted());
    answer = { kind: 'snapshot', snapshot: { providerJobId: 'job-1', state: 'succeeded' } };
    now += 1000;
    expect(await readTrackedJob(deps(), key, AbortSignal.timeout(1000))).toMatchObject({ source: 'provider', job: { state: 'succeeded', settledAtMs: now } });
    const poller = createJobPoller({ ...deps(), store, owner: 'a', maxConcurrent: 4, maxConcurrentPerTarget: 4, leaseMs: 30_000, claimIntervalMs: 1000, pollTimeoutMs: 1000 });
    now += 60_000;
    expect(await poller.runOnce()).toBe(0);
    expect(await readTrackedJob(deps(), key, AbortSignal.timeout(1000))).toMatchObject({ source: 'store' });
    expect(settled).toEqual(['r1:1']);
    expect(polls).toBe(1);
  });
});
