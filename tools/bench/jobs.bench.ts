/**
 * `npx --yes pnpm@12.4.2 bench:jobs`: what the tracked-job poller costs, embedded and shared (real Redis and
 * PostgreSQL on loopback; skipped when not installed), in this process:
 *
 * - polls/second sustained: 1,000 open jobs on the simulator's Kling endpoint, always due (a plan whose ceiling is
 *   1 ms), one poller (64 held, 32 per target) polling through the engine and recording each poll in the store;
 * - CPU per open job at the default plan: 1,000 open jobs at the plan's ceiling (one poll a minute each, the steady
 *   state of the default plan), their next polls spread over the minute, the poller with its defaults; the
 *   process's CPU over the window (poller, store client, lease heartbeats, the engine's HTTP exchange; the provider
 *   is a stub answering `running`, so no simulator CPU is counted) divided by the window and by the open jobs.
 *   Target: 1,000 open jobs under 1% of one core.
 *
 * Writes its results where the bench harness says: tools/bench/results/jobs.json in the full pooled `bench` run,
 * the ignored tools/bench/.runs otherwise.
 * `--quick` for short windows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { taskEnvelopeV2Schema } from '@tokenforge/model-protocol';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { startProviderSimulator } from '@tokenforge/provider-simulator';
import { parseGatewayCatalogue } from '../../packages/gateway/src/catalogue/load-catalogue.js';
import { openEmbeddedGovernanceStore } from '../../packages/gateway/src/governance/embedded/embedded-governance-store.js';
import { SharedGovernanceStore } from '../../packages/gateway/src/governance/shared/shared-governance-store.js';
import { realServersAvailable, startRealServers, type RealServers } from '../../packages/gateway/src/governance/shared/test-support/real-servers.js';
import { resetSharedGovernanceState } from '../../packages/gateway/src/governance/shared/test-support/reset-shared-governance-state.js';
import type { GovernanceStoreV1, TrackedJobV1 } from '../../packages/gateway/src/governance/v1/governance-store-v1.js';
import { DEFAULT_JOB_POLL_PLAN, jobPollPlanOf } from '../../packages/gateway/src/jobs/poller/job-poll-plan.js';
import { createJobPoller } from '../../packages/gateway/src/jobs/poller/job-poller.js';
import { pollThroughEngine } from '../../packages/gateway/src/jobs/poller/poll-through-engine.js';
import { resolveCatalogue } from '../../packages/gateway/src/runtime/resolve-catalogue.js';
import { simulatorCatalogue } from '../../packages/gateway/src/test-support/simulator-catalogue.js';
import { writeResults } from './harness.js';
import type { BenchMetric } from './report/bench-metric.js';

const QUICK = process.argv.includes('--quick');
const OPEN_JOBS = 1_000;
const THROUGHPUT_WINDOW_MS = QUICK ? 4_000 : 10_000;
const OVERHEAD_WINDOW_MS = QUICK ? 15_000 : 60_000;
/** The poller runs this long before the overhead window opens: first claims, JIT and the store clients' warm-up are not steady state. */
const OVERHEAD_WARMUP_MS = QUICK ? 3_000 : 5_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type StoreKind = 'embedded' | 'shared';

async function openStore(kind: StoreKind, servers: RealServers | undefined): Promise<{ store: GovernanceStoreV1; close: () => Promise<void> }> {
  if (kind === 'embedded') {
    const directory = mkdtempSync(join(tmpdir(), 'tf-bench-jobs-'));
    const store = openEmbeddedGovernanceStore({ dataDirectory: directory });
    return { store, close: async () => (await store.close(), rmSync(directory, { recursive: true, force: true })) };
  }
  if (servers === undefined) throw new Error('no servers');
  // Each phase starts from empty tables: the previous phase's jobs would still be due.
  await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
  const store = await SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url });
  return { store, close: () => store.close() };
}

function openJob(index: number, kind: string, overrides: Partial<TrackedJobV1>): TrackedJobV1 {
  return {
    tenantId: 'bench',
    keyId: 'k1',
    publicModel: 'video',
    targetRef: 'video#0',
    providerJobId: `${kind}-${index}`,
    attemptId: `${kind}-${index}:1`,
    reservedMicros: 1,
    currency: 'USD',
    createdAtMs: Date.now(),
    state: 'running',
    pollAttempts: 0,
    nextPollAtMs: Date.now(),
    ...overrides,
  };
}

async function main(): Promise<void> {
  const servers = realServersAvailable() ? await startRealServers() : undefined;
  // Long-running simulator jobs: every poll answers `running`.
  const simulator = await startProviderSimulator({ jobTimings: { queuedMs: 0, runningMs: 3_600_000 } });
  const { catalogue, env } = simulatorCatalogue(simulator, [{ name: 'video', taskKind: 'video-generation', targets: [{ family: 'kling-video/v1', model: 'kling-v2-master' }] }]);
  const resolved = resolveCatalogue(parseGatewayCatalogue(catalogue), createBuiltinTokenForgeProtocolSuiteV1(), env);
  const engine = createProtocolEngineV1({ registry: createBuiltinTokenForgeProtocolSuiteV1().registry });
  const target = resolved.models.get('video')?.targets[0];
  if (target === undefined) throw new Error('no target');
  // Real Kling jobs on the simulator for the throughput run (the poll goes through the engine and over HTTP).
  const providerJobIds: string[] = [];
  for (let batch = 0; batch < OPEN_JOBS; batch += 50) {
    providerJobIds.push(
      ...(await Promise.all(
        Array.from({ length: 50 }, async (_, offset) => {
          const task = taskEnvelopeV2Schema.parse({ kind: 'video-generation', prompt: 'a fox', durationSeconds: 5, idempotencyKey: `bench-${batch + offset}` });
          const execution = await engine.execute({ binding: target.binding, task, signal: AbortSignal.timeout(10_000) });
          if (execution.kind !== 'accepted-job') throw new Error(execution.kind);
          return execution.providerJobId;
        }),
      )),
    );
  }
  const metrics: BenchMetric[] = [];
  const push = (id: string, label: string, unit: BenchMetric['unit'], samples: number[], better: BenchMetric['better'] = 'lower', target?: BenchMetric['target']): void => {
    metrics.push({ id, label, unit, better, samples, ...(target === undefined ? {} : { target }) });
  };
  const pollsPerSecond: Record<string, number> = {};
  const coreShare: Record<string, number> = {};
  const steadyPolls: Record<string, number> = {};
  const kinds: StoreKind[] = servers === undefined ? ['embedded'] : ['embedded', 'shared'];
  try {
    for (const kind of kinds) {
      // 1. Sustained polls per second through the engine, always due.
      {
        const { store, close } = await openStore(kind, servers);
        for (const [index, id] of providerJobIds.entries()) await store.recordJob(openJob(index, `${kind}-t`, { providerJobId: id }));
        let polls = 0;
        const poll = pollThroughEngine(engine, () => target);
        const poller = createJobPoller({
          store,
          owner: `bench-${kind}`,
          poll: async (job, signal) => {
            polls += 1;
            return poll(job, signal);
          },
          planOf: () => ({ ...DEFAULT_JOB_POLL_PLAN, firstPollMs: 1, ceilingMs: 1 }),
          settle: async () => undefined,
          now: Date.now,
          maxConcurrent: 64,
          maxConcurrentPerTarget: 32,
          leaseMs: 30_000,
          claimIntervalMs: 10,
          pollTimeoutMs: 10_000,
        });
        poller.start();
        await sleep(1_000);
        const before = polls;
        const cpuBefore = process.cpuUsage();
        await sleep(THROUGHPUT_WINDOW_MS);
        const cpu = process.cpuUsage(cpuBefore);
        const done = polls - before;
        await poller.stop();
        await close();
        pollsPerSecond[kind] = done / (THROUGHPUT_WINDOW_MS / 1000);
        push(`${kind}.wall-per-poll`, `${kind}: wall time per poll sustained, 1/(polls per second) (engine + simulator over HTTP, one poller) (µs)`, 'microseconds', [(THROUGHPUT_WINDOW_MS * 1000) / Math.max(1, done)]);
        push(`${kind}.cpu-per-poll`, `${kind}: CPU per poll, this process with the simulator in it (µs)`, 'microseconds', [(cpu.user + cpu.system) / Math.max(1, done)]);
      }
      // 2. CPU per open job at the default plan's steady state (one poll a minute each), provider stubbed.
      {
        const { store, close } = await openStore(kind, servers);
        const now = Date.now();
        const plan = jobPollPlanOf('kling-video/v1');
        for (let index = 0; index < OPEN_JOBS; index += 1) {
          await store.recordJob(openJob(index, `${kind}-o`, { createdAtMs: now - 600_000, pollAttempts: 20, nextPollAtMs: now + Math.floor((index / OPEN_JOBS) * plan.ceilingMs) }));
        }
        let polls = 0;
        const poller = createJobPoller({
          store,
          owner: `bench-${kind}-steady`,
          poll: async (job) => {
            polls += 1;
            return { kind: 'snapshot', snapshot: { providerJobId: job.providerJobId, state: 'running', progress: 0.5 } };
          },
          planOf: () => plan,
          settle: async () => undefined,
          now: Date.now,
          maxConcurrent: 64,
          maxConcurrentPerTarget: 8,
          leaseMs: 30_000,
          claimIntervalMs: 1_000,
          pollTimeoutMs: 30_000,
        });
        await sleep(200);
        poller.start();
        await sleep(OVERHEAD_WARMUP_MS);
        const pollsBefore = polls;
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        await sleep(OVERHEAD_WINDOW_MS);
        const cpu = process.cpuUsage(cpuBefore);
        const elapsedMs = performance.now() - started;
        await poller.stop();
        await close();
        const coreFraction = (cpu.user + cpu.system) / 1000 / elapsedMs;
        coreShare[kind] = coreFraction;
        push(`${kind}.open-jobs-core-share`, `${kind}: ${OPEN_JOBS} open jobs at the default plan, share of one core (poller + store client; provider stubbed)`, 'ratio', [coreFraction], 'lower', { comparison: 'at-most', value: 0.01, gated: false });
        push(`${kind}.cpu-per-open-job`, `${kind}: CPU per open job per second at the default plan (µs/s)`, 'microseconds', [(coreFraction * 1e6) / OPEN_JOBS]);
        steadyPolls[kind] = (polls - pollsBefore) / (elapsedMs / 1000);
      }
    }
  } finally {
    await resolved.close();
    await simulator.close();
    await servers?.dispose();
  }
  const results = { quick: QUICK, openJobs: OPEN_JOBS, sharedRun: servers !== undefined, pollsPerSecond, coreShare, steadyPollsPerSecond: steadyPolls, metrics };
  const path = writeResults('jobs', results);
  for (const metric of metrics) console.log(`${metric.label.padEnd(120)} ${(metric.samples[0] ?? 0).toFixed(metric.unit === 'ratio' ? 5 : 1)}`);
  for (const kind of kinds) {
    console.log(`${kind}: ${(pollsPerSecond[kind] ?? 0).toFixed(0)} polls/s sustained; ${OPEN_JOBS} open jobs at the default plan: ${((coreShare[kind] ?? 0) * 100).toFixed(3)}% of one core, ${(steadyPolls[kind] ?? 0).toFixed(1)} polls/s`);
  }
  console.log(`wrote ${path}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
