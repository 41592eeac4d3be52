/**
 * What the job poller costs: polls per second sustained when every open job is due at once (the store's claim and
 * observation path, with a provider that answers at once), and the CPU time per poll, from which the overhead of
 * `--jobs` open jobs at the default plan's steady interval (its 60 s ceiling) follows as a share of one core.
 * Embedded store always; the shared store too with `--redis URL --database URL`. Run:
 * `npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/bench/measure-job-poller.ts --jobs 1000`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openEmbeddedGovernanceStore } from '../governance/embedded/embedded-governance-store.js';
import { SharedGovernanceStore } from '../governance/shared/shared-governance-store.js';
import type { GovernanceStoreV1, TrackedJobV1 } from '../governance/v1/governance-store-v1.js';
import { DEFAULT_JOB_POLL_PLAN } from '../jobs/poller/job-poll-plan.js';
import { createJobPoller } from '../jobs/poller/job-poller.js';

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '1000' }, redis: { type: 'string' }, database: { type: 'string' } } });
const JOBS = Number(values.jobs);
const ROUNDS = 5;

// The stores and the poller share one clock that the bench moves, so each round finds every job due exactly once.
let now = Date.now();

async function measure(name: string, store: GovernanceStoreV1): Promise<Record<string, number | string>> {
  for (let index = 0; index < JOBS; index += 1) {
    const job: TrackedJobV1 = {
      tenantId: 'bench', keyId: 'k', publicModel: 'video', targetRef: `video#${index % 4}`, providerJobId: `bench-${index}`,
      attemptId: `bench-${index}:1`, reservedMicros: 1, currency: 'USD', createdAtMs: now, state: 'running', nextPollAtMs: now, pollAttempts: 0,
    };
    await store.recordJob(job);
  }
  const poller = createJobPoller({
    store,
    owner: 'bench',
    poll: async (job) => ({ kind: 'snapshot', snapshot: { providerJobId: job.providerJobId, state: 'running', progress: 0.5 } }),
    planOf: () => ({ ...DEFAULT_JOB_POLL_PLAN, firstPollMs: 1, backoffFactor: 1, ceilingMs: 1 }),
    settle: async () => undefined,
    now: () => now,
    maxConcurrent: 256,
    maxConcurrentPerTarget: 64,
    leaseMs: 30_000,
    claimIntervalMs: 1000,
    pollTimeoutMs: 10_000,
  });
  let polls = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round += 1) {
    now += 10;
    let claimed = 0;
    while (claimed < JOBS) {
      const got = await poller.runOnce();
      if (got === 0) break;
      claimed += got;
    }
    polls += claimed;
  }
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMicrosPerPoll = (cpu.user + cpu.system) / polls;
  const steadyPollsPerSecond = JOBS / (DEFAULT_JOB_POLL_PLAN.ceilingMs / 1000);
  return {
    store: name,
    openJobs: JOBS,
    polls,
    pollsPerSecond: Math.round((polls / elapsedMs) * 1000),
    cpuMicrosPerPoll: Math.round(cpuMicrosPerPoll),
    steadyPollsPerSecondAtDefaultPlan: Math.round(steadyPollsPerSecond * 10) / 10,
    percentOfOneCoreAtDefaultPlan: Math.round(((steadyPollsPerSecond * cpuMicrosPerPoll) / 1_000_000) * 100 * 1000) / 1000,
  };
}

const directory = mkdtempSync(join(tmpdir(), 'tf-bench-poller-'));
try {
  const embedded = openEmbeddedGovernanceStore({ dataDirectory: directory, clock: () => now });
  console.log(JSON.stringify(await measure('embedded', embedded)));
  await embedded.close();
  if (values.redis !== undefined && values.database !== undefined) {
    const shared = await SharedGovernanceStore.open({ redisUrl: values.redis, databaseUrl: values.database, clock: () => now });
    console.log(JSON.stringify(await measure('shared', shared)));
    await shared.close();
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
