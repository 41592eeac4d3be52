/**
 * `npx --yes pnpm@12.4.2 bench:governance`: what governance costs a request, in one run on one machine. The gateway
 * CLI runs as its own process in three modes over the same catalogue (one chat model on the provider simulator):
 *
 * - off: `governance.store: off`;
 * - embedded: the embedded store in a temporary data directory;
 * - shared: Redis (`appendonly yes`, `appendfsync everysec`, as deployed) and PostgreSQL on loopback (real servers
 *   started for the run; skipped when not installed), three instances, the requests sent to the first.
 *
 * Each round sends the same sequential chat requests (one tenant with limits that never bind) to each mode in
 * rotating order: p50 latency and CPU per request of the gateway process (/proc). In the same rounds, sequential
 * bare `EVALSHA` calls of a one-line script on the same Redis give the cost of a Redis round trip: the target for the
 * shared store is at most off plus two of them (one script admits, one settles). Beside them, the shared store's own
 * admission and settlement, called through its API from this process on the same servers (the same scripts, keys and
 * arguments a request's attempt sends; no gateway): what the two round trips cost when the scripts do their work, so
 * the report can say how much of the added latency is the store's scripts and how much the gateway's own path. (The
 * settlement runs after the response is written, so a request waits for the admission only.) Then an admin change made on one
 * instance is timed until every instance reports its governance version in `/readyz` (default poll interval).
 * Last, the embedded store's own cost at start and in memory: the built CLI (`packages/gateway/scripts/run-built-cli.mjs`,
 * what `npx --yes pnpm@12.4.2 gateway` runs) started with `--no-governance`, with a new data directory (first start:
 * secrets generated, database created) and with that directory again (warm start), each timed to a ready `/healthz`,
 * then sent sequential requests: peak RSS of the process beside governance off.
 * Beside the round trips, the time Redis itself spends in one call (`INFO commandstats`, `EVALSHA` usec_per_call over
 * the same calls): for the bare script and for the store's admission and settlement called alone, so a round trip's
 * cost splits into the script's work in Redis and everything around it (client, network stack, scheduling).
 * `--quick` for short rounds. `--cpu-prof` writes a CPU profile of the off mode's gateway and of the shared mode's first
 * instance (`node --cpu-prof`: one file per thread, the main thread's the largest) under tools/bench/.runs/profiles/<mode>
 * when they stop. Writes tools/bench/results/governance.json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { SharedGovernanceStore } from '../../packages/gateway/src/governance/shared/shared-governance-store.js';
import { startGatewayProcess, type GatewayProcess } from '../../packages/gateway/src/governance/shared/test-support/gateway-process.js';
import { realServersAvailable, startRealServers, type RealServers } from '../../packages/gateway/src/governance/shared/test-support/real-servers.js';
import { admissionRequestV1, settlementV1 } from '../../packages/gateway/src/governance/v1/test-support/governance-fixtures.js';
import { cpuSeconds, peakRssBytes } from './gateway/proc-stats.js';
import { writeResults } from './harness.js';
import type { BenchMetric } from './report/bench-metric.js';
import type { AdmissionRequestV1 } from '../../packages/gateway/src/governance/v1/governance-store-v1.js';

const QUICK = process.argv.includes('--quick');
const PROFILE_DIR = process.argv.includes('--cpu-prof') ? fileURLToPath(new URL('./.runs/profiles/', import.meta.url)) : undefined;
const ROUNDS = QUICK ? 3 : 6;
const REQUESTS_PER_ROUND = QUICK ? 150 : 600;
const WARMUP = QUICK ? 150 : 600;
const EVALSHA_CALLS = QUICK ? 300 : 1_000;
const PACED_EVALSHA_CALLS = QUICK ? 100 : 300;
const STORE_CALLS = QUICK ? 150 : 500;
const ADMIN_CHANGES_PER_ROUND = QUICK ? 2 : 4;
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const CLIENT_KEY = 'bench-static-client-key-0123456789';

type Mode = 'off' | 'embedded' | 'shared';

interface RunningMode {
  readonly mode: Mode;
  readonly instances: readonly GatewayProcess[];
  readonly apiKey: string;
}

/** The few ioredis calls the bench makes (ioredis is the gateway's dependency, resolved from its package). */
interface BareRedis {
  script(subcommand: 'LOAD', source: string): Promise<unknown>;
  evalsha(sha: string, keys: number): Promise<unknown>;
  config(subcommand: 'RESETSTAT'): Promise<unknown>;
  info(section: 'commandstats'): Promise<string>;
  disconnect(): void;
}
const { Redis } = (await import(createRequire(new URL('../../packages/gateway/package.json', import.meta.url)).resolve('ioredis'))) as { Redis: new (url: string) => BareRedis };

function catalogue(simulator: ProviderSimulator, governance: Record<string, unknown>): Record<string, unknown> {
  return {
    version: 1,
    clientKeys: [{ id: 'bench', env: 'BENCH_CLIENT_KEY' }],
    models: [
      {
        name: 'bench-chat',
        taskKind: 'chat',
        targets: [
          {
            provider: 'provider-simulator',
            family: 'openai-chat/v1',
            model: 'text.3',
            baseUrl: simulator.baseUrlFor('openai-chat/v1'),
            credentials: { apiKeyEnv: 'BENCH_SIM_KEY' },
            network: { allowLoopback: true },
            price: { currency: 'USD', inputPerMillion: '1', outputPerMillion: '4' },
          },
        ],
      },
    ],
    limits: { maxConcurrentRequests: 1_000, maxAttempts: 1 },
    governance,
  };
}

async function admin(base: string, method: string, path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${base}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status >= 300) throw new Error(`admin ${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, any>;
}

const WIDE_LIMITS = { requestsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000, concurrentRequests: 1_000, budget: { amountMicros: 1_000_000_000_000, currency: 'USD', period: 'month' } };

async function startMode(mode: Mode, simulator: ProviderSimulator, servers: RealServers | undefined, folder: string): Promise<RunningMode> {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, BENCH_CLIENT_KEY: CLIENT_KEY, BENCH_SIM_KEY: simulator.credentials.openAiApiKey, TOKENFORGE_ADMIN_KEY: ADMIN_KEY };
  const configPath = join(folder, `${mode}.json`);
  // The CLI's data directory (`TOKENFORGE_DATA_DIR`, else ./.tokenforge) wins over the catalogue's: point it at the run's folder.
  const governance = mode === 'off' ? { store: 'off' } : {};
  base.TOKENFORGE_DATA_DIR = join(folder, 'embedded-data');
  writeFileSync(configPath, JSON.stringify(catalogue(simulator, governance)));
  const env: NodeJS.ProcessEnv =
    mode === 'shared' && servers !== undefined
      ? { ...base, REDIS_URL: servers.redis.url, DATABASE_URL: servers.postgres.url, TOKENFORGE_KEY_HASHING_SECRET: 'bench-key-hashing-secret-0123456789abcdef' }
      : base;
  const count = mode === 'shared' ? 3 : 1;
  const profile = (index: number) => (PROFILE_DIR !== undefined && index === 0 && mode !== 'embedded' ? { nodeArguments: ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, mode)}`] } : {});
  const instances = await Promise.all(Array.from({ length: count }, (_, index) => startGatewayProcess({ configPath, env, ...profile(index) })));
  if (mode === 'off') return { mode, instances, apiKey: CLIENT_KEY };
  const first = instances[0] as GatewayProcess;
  await admin(first.url, 'POST', '/tenants', { id: `bench-${mode}`, name: 'bench', limits: WIDE_LIMITS });
  const created = await admin(first.url, 'POST', '/keys', { tenantId: `bench-${mode}` });
  await waitForVersion(instances, created.version as number, 30_000);
  return { mode, instances, apiKey: created.apiKey as string };
}

const BODY = JSON.stringify({ model: 'bench-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });

/** Sends `count` sequential requests; answers each one's latency in microseconds. */
async function sequential(running: RunningMode, count: number): Promise<number[]> {
  const url = `${(running.instances[0] as GatewayProcess).url}/v1/chat/completions`;
  const headers = { authorization: `Bearer ${running.apiKey}`, 'content-type': 'application/json' };
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { method: 'POST', headers, body: BODY });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${running.mode}: status ${response.status}`);
    times.push((performance.now() - started) * 1000);
  }
  return times;
}

/** Mean microseconds Redis spent in one `EVALSHA` since the last `CONFIG RESETSTAT` (`INFO commandstats`). */
async function evalshaInRedis(redis: BareRedis): Promise<number | undefined> {
  const stats = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(await redis.info('commandstats'));
  return stats === null ? undefined : Number(stats[2]) / Number(stats[1]);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function appliedVersion(base: string): Promise<number> {
  const ready = (await (await fetch(`${base}/readyz`)).json()) as { governance?: { appliedVersion?: number } };
  return ready.governance?.appliedVersion ?? -1;
}

async function waitForVersion(instances: readonly GatewayProcess[], version: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await Promise.all(instances.map((instance) => appliedVersion(instance.url)))).some((applied) => applied < version)) {
    if (Date.now() > deadline) throw new Error(`version ${version} not applied on every instance within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const LAUNCHER = fileURLToPath(new URL('../../packages/gateway/scripts/run-built-cli.mjs', import.meta.url));
const STARTS = QUICK ? 2 : 5;
const MEMORY_REQUESTS = QUICK ? 200 : 1_000;

interface StartFigures {
  readonly readyMs: number;
  readonly peakRssBytes: number;
}

/** Starts the built CLI with `args`, times it to a ready `/healthz`, sends requests, reads its peak RSS, stops it. */
async function startFigures(configPath: string, env: NodeJS.ProcessEnv, args: readonly string[], readyWithinMs = 120_000): Promise<StartFigures> {
  const started = performance.now();
  const child = spawn(process.execPath, [LAUNCHER, '--config', configPath, '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  try {
    let url: string | undefined;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the gateway exited before it was ready: ${output}`);
      if (performance.now() - started > readyWithinMs) throw new Error(`the gateway was not ready within ${readyWithinMs} ms`);
      url ??= /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url !== undefined && (await fetch(`${url}/healthz`).then((response) => response.ok, () => false))) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const readyMs = performance.now() - started;
    await sequential({ mode: 'off', instances: [{ url, pid: child.pid } as GatewayProcess], apiKey: CLIENT_KEY }, MEMORY_REQUESTS);
    return { readyMs, peakRssBytes: peakRssBytes(child.pid as number) ?? Number.NaN };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
  }
}

/** Governance off, a first start in a new data directory, and a warm start in it, `STARTS` times each, interleaved. */
async function embeddedStartAndMemory(simulator: ProviderSimulator, folder: string): Promise<Record<'off' | 'first' | 'warm', StartFigures[]>> {
  const configPath = join(folder, 'start.json');
  writeFileSync(configPath, JSON.stringify(catalogue(simulator, {})));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, BENCH_CLIENT_KEY: CLIENT_KEY, BENCH_SIM_KEY: simulator.credentials.openAiApiKey, TOKENFORGE_ADMIN_KEY: ADMIN_KEY };
  await startFigures(configPath, env, ['--no-governance'], 900_000); // builds when the build is stale; not measured
  const figures: Record<'off' | 'first' | 'warm', StartFigures[]> = { off: [], first: [], warm: [] };
  for (let round = 0; round < STARTS; round += 1) {
    const dataDir = join(folder, `start-data-${round}`);
    figures.off.push(await startFigures(configPath, env, ['--no-governance']));
    figures.first.push(await startFigures(configPath, env, ['--data-dir', dataDir]));
    figures.warm.push(await startFigures(configPath, env, ['--data-dir', dataDir]));
  }
  return figures;
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'tf-bench-governance-'));
  const simulator = await startProviderSimulator();
  // Redis as a deployment runs it (append-only file, fsync every second), not the every-write fsync of the restart tests.
  const servers = realServersAvailable() ? await startRealServers({ redis: { appendfsync: 'everysec' } }) : undefined;
  if (servers === undefined) console.error('bench:governance: redis-server or PostgreSQL 15 not installed: the shared mode is not run');
  const modes: RunningMode[] = [];
  const redis = servers === undefined ? undefined : new Redis(servers.redis.url);
  let store: SharedGovernanceStore | undefined;
  try {
    for (const mode of ['off', 'embedded', ...(servers === undefined ? [] : ['shared'])] as Mode[]) modes.push(await startMode(mode, simulator, servers, folder));
    for (const running of modes) await sequential(running, WARMUP);
    const scriptSha = redis === undefined ? undefined : ((await redis.script('LOAD', 'return 1')) as string);
    // The shared store alone, from this process: its own tenant (the gateway's request tenant's limits), no flusher.
    store = servers === undefined ? undefined : await SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url, flushLedger: false });
    const p50: Record<string, number[]> = { off: [], embedded: [], shared: [], evalsha: [], pacedEvalsha: [], storeAdmit: [], storeSettle: [], pacedStoreAdmit: [], evalshaInRedis: [], storeAdmitInRedis: [], storeSettleInRedis: [] };
    const cpu: Record<string, number[]> = { off: [], embedded: [], shared: [] };
    const applyMs: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)];
      for (const running of order) {
        const pid = (running.instances[0] as GatewayProcess).pid;
        const before = cpuSeconds(pid);
        const times = await sequential(running, REQUESTS_PER_ROUND);
        const after = cpuSeconds(pid);
        p50[running.mode]?.push(median(times));
        if (before !== undefined && after !== undefined) cpu[running.mode]?.push(((after - before) / REQUESTS_PER_ROUND) * 1e6);
      }
      if (redis !== undefined && scriptSha !== undefined) {
        const times: number[] = [];
        await redis.config('RESETSTAT');
        for (let index = 0; index < EVALSHA_CALLS; index += 1) {
          const started = performance.now();
          await redis.evalsha(scriptSha, 0);
          times.push((performance.now() - started) * 1000);
        }
        const inRedis = await evalshaInRedis(redis);
        if (inRedis !== undefined) p50.evalshaInRedis?.push(inRedis);
        p50.evalsha?.push(median(times));
        // The same call paced like the requests (a pause between calls lets Redis and this process go idle, so each
        // call pays the wake-ups a request's script call pays): what a round trip costs at this pace on this machine.
        const paced: number[] = [];
        for (let index = 0; index < PACED_EVALSHA_CALLS; index += 1) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          const started = performance.now();
          await redis.evalsha(scriptSha, 0);
          paced.push((performance.now() - started) * 1000);
        }
        p50.pacedEvalsha?.push(median(paced));
      }
      if (store !== undefined && redis !== undefined) {
        // Redis's own time in the store's scripts: the admissions and the settlements called alone, apart (the
        // gateways are idle meanwhile; their background calls are no EVALSHA).
        const requests: AdmissionRequestV1[] = [];
        await redis.config('RESETSTAT');
        for (let index = 0; index < STORE_CALLS; index += 1) {
          const request = admissionRequestV1({ tenantId: 'bench-store', keyId: 'bench-store-key', tenantLimits: WIDE_LIMITS as AdmissionRequestV1['tenantLimits'], reservedTokens: 40, reservedMicros: 100 });
          if ((await store.admit(request)).kind !== 'admitted') throw new Error('the store alone refused an admission');
          requests.push(request);
        }
        const admitInRedis = await evalshaInRedis(redis);
        await redis.config('RESETSTAT');
        for (const request of requests) await store.settle(settlementV1(request));
        const settleInRedis = await evalshaInRedis(redis);
        if (admitInRedis !== undefined) p50.storeAdmitInRedis?.push(admitInRedis);
        if (settleInRedis !== undefined) p50.storeSettleInRedis?.push(settleInRedis);
      }
      if (store !== undefined) {
        const admitted: number[] = [];
        const settled: number[] = [];
        const pacedAdmitted: number[] = [];
        for (let index = 0; index < STORE_CALLS * 2; index += 1) {
          const paced = index >= STORE_CALLS;
          if (paced) await new Promise((resolve) => setTimeout(resolve, 2));
          const request = admissionRequestV1({ tenantId: 'bench-store', keyId: 'bench-store-key', tenantLimits: WIDE_LIMITS as AdmissionRequestV1['tenantLimits'], reservedTokens: 40, reservedMicros: 100 });
          let started = performance.now();
          if ((await store.admit(request)).kind !== 'admitted') throw new Error('the store alone refused an admission');
          (paced ? pacedAdmitted : admitted).push((performance.now() - started) * 1000);
          started = performance.now();
          await store.settle(settlementV1(request));
          if (!paced) settled.push((performance.now() - started) * 1000);
        }
        p50.storeAdmit?.push(median(admitted));
        p50.storeSettle?.push(median(settled));
        p50.pacedStoreAdmit?.push(median(pacedAdmitted));
      }
      const shared = modes.find((running) => running.mode === 'shared');
      if (shared !== undefined) {
        const first = shared.instances[0] as GatewayProcess;
        for (let change = 0; change < ADMIN_CHANGES_PER_ROUND; change += 1) {
          // The change is applied on the instance that made it before it answers; the others poll the version.
          const started = performance.now();
          const changed = await admin(first.url, 'PATCH', '/tenants/bench-shared', { limits: { ...WIDE_LIMITS, requestsPerMinute: 1_000_000 - round * 10 - change } });
          await waitForVersion(shared.instances, changed.version as number, 30_000);
          applyMs.push(performance.now() - started);
        }
      }
    }
    const metrics: BenchMetric[] = [];
    const perRound = (values: readonly number[], over: readonly number[]): number[] => values.map((value, index) => value / (over[index] as number));
    const push = (id: string, label: string, unit: BenchMetric['unit'], samples: readonly number[], target?: BenchMetric['target']): void => {
      if (samples.length > 0) metrics.push({ id, label, unit, better: 'lower', samples: samples.map((value) => Math.round(value * 1000) / 1000), ...(target === undefined ? {} : { target }) });
    };
    push('off.p50', 'p50 latency, governance off (µs)', 'microseconds', p50.off ?? []);
    push('embedded.p50', 'p50 latency, embedded store (µs)', 'microseconds', p50.embedded ?? []);
    push('shared.p50', 'p50 latency, shared store on loopback Redis and PostgreSQL (µs)', 'microseconds', p50.shared ?? []);
    push('redis.evalsha-p50', 'p50 of one bare Redis EVALSHA round trip (µs)', 'microseconds', p50.evalsha ?? []);
    push('redis.paced-evalsha-p50', 'p50 of one bare Redis EVALSHA round trip, one call every 2 ms (µs)', 'microseconds', p50.pacedEvalsha ?? []);
    push('embedded.p50-ratio', 'p50 embedded / off', 'ratio', perRound(p50.embedded ?? [], p50.off ?? []), { comparison: 'at-most', value: 1.1, gated: false });
    if ((p50.shared ?? []).length > 0) {
      // (shared - off) / (2 EVALSHA): at most 1 means the shared store adds no more than its two scripts' round trips.
      const added = (p50.shared ?? []).map((value, index) => (value - (p50.off?.[index] as number)) / (2 * (p50.evalsha?.[index] as number)));
      push('shared.added-over-two-evalsha', 'p50 added by the shared store / two bare EVALSHA round trips', 'ratio', added, { comparison: 'at-most', value: 1, gated: false });
      const addedPaced = (p50.shared ?? []).map((value, index) => (value - (p50.off?.[index] as number)) / (2 * (p50.pacedEvalsha?.[index] as number)));
      push('shared.added-over-two-paced-evalsha', 'p50 added by the shared store / two bare EVALSHA round trips paced like requests', 'ratio', addedPaced);
      // The store's own scripts as the floor: the added latency over its admission and settlement called alone.
      const overStore = (p50.shared ?? []).map((value, index) => (value - (p50.off?.[index] as number)) / ((p50.storeAdmit?.[index] as number) + (p50.storeSettle?.[index] as number)));
      // Beside the target (bare `return 1` scripts): the same bound against the store's own two scripts.
      push('shared.added-over-store-scripts', 'p50 added by the shared store / its own admission + settlement scripts called alone', 'ratio', overStore, { comparison: 'at-most', value: 1, gated: false });
      const overPacedAdmit = (p50.shared ?? []).map((value, index) => (value - (p50.off?.[index] as number)) / (p50.pacedStoreAdmit?.[index] as number));
      push('shared.added-over-paced-store-admit', 'p50 added by the shared store / its admission alone paced like requests', 'ratio', overPacedAdmit);
    }
    push('redis.store-admit-p50', 'p50 of one shared-store admission called alone (its script, one round trip) (µs)', 'microseconds', p50.storeAdmit ?? []);
    push('redis.store-settle-p50', 'p50 of one shared-store settlement called alone (its script, one round trip) (µs)', 'microseconds', p50.storeSettle ?? []);
    push('redis.evalsha-in-redis', 'time Redis spends in one bare EVALSHA, mean (µs, INFO commandstats)', 'microseconds', p50.evalshaInRedis ?? []);
    push('redis.store-admit-in-redis', 'time Redis spends in one shared-store admission script, mean (µs, INFO commandstats)', 'microseconds', p50.storeAdmitInRedis ?? []);
    push('redis.store-settle-in-redis', 'time Redis spends in one shared-store settlement script, mean (µs, INFO commandstats)', 'microseconds', p50.storeSettleInRedis ?? []);
    push('redis.paced-store-admit-p50', 'p50 of one shared-store admission called alone, one every 2 ms (µs)', 'microseconds', p50.pacedStoreAdmit ?? []);
    push('off.cpu-per-request', 'gateway CPU per request, governance off (µs)', 'microseconds', cpu.off ?? []);
    push('embedded.cpu-per-request', 'gateway CPU per request, embedded store (µs)', 'microseconds', cpu.embedded ?? []);
    push('shared.cpu-per-request', 'gateway CPU per request, shared store (µs)', 'microseconds', cpu.shared ?? []);
    push('embedded.cpu-ratio', 'CPU per request embedded / off', 'ratio', perRound(cpu.embedded ?? [], cpu.off ?? []));
    push('shared.cpu-ratio', 'CPU per request shared / off', 'ratio', perRound(cpu.shared ?? [], cpu.off ?? []));
    push('admin-change.apply-all', 'an admin change until all three instances report its version (µs)', 'microseconds', applyMs.map((ms) => ms * 1000));
    await store?.close();
    store = undefined;
    for (const running of modes.splice(0)) await Promise.all(running.instances.map((instance) => instance.stop(5_000)));
    const starts = await embeddedStartAndMemory(simulator, folder);
    const added = (from: readonly StartFigures[], over: readonly StartFigures[], pick: (figures: StartFigures) => number): number[] =>
      from.map((figures, index) => pick(figures) - pick(over[index] as StartFigures));
    push('embedded.first-start-added', 'start-up to ready added by the embedded store, first start in a new data directory (µs)', 'microseconds', added(starts.first, starts.off, (figures) => figures.readyMs * 1000), { comparison: 'at-most', value: 3_000_000, gated: false });
    push('embedded.warm-start-added', 'start-up to ready added by the embedded store, warm start (µs)', 'microseconds', added(starts.warm, starts.off, (figures) => figures.readyMs * 1000), { comparison: 'at-most', value: 1_000_000, gated: false });
    push('off.start-ready', 'start-up to ready of the built CLI, governance off (µs)', 'microseconds', starts.off.map((figures) => figures.readyMs * 1000));
    push('embedded.peak-rss-added', `peak RSS added by the embedded store after ${MEMORY_REQUESTS} requests (bytes)`, 'bytes', added(starts.warm, starts.off, (figures) => figures.peakRssBytes), { comparison: 'at-most', value: 100 * 1024 * 1024, gated: false });
    push('off.peak-rss', `peak RSS of the gateway after ${MEMORY_REQUESTS} requests, governance off (bytes)`, 'bytes', starts.off.map((figures) => figures.peakRssBytes));
    const path = writeResults('governance', { quick: QUICK, rounds: ROUNDS, requestsPerRound: REQUESTS_PER_ROUND, sharedRun: servers !== undefined, metrics });
    for (const metric of metrics) console.log(`${metric.label.padEnd(82)} ${median(metric.samples).toFixed(metric.unit === 'ratio' ? 3 : 0)}`);
    console.log(`wrote ${path}`);
  } finally {
    redis?.disconnect();
    await store?.close();
    await Promise.all(modes.flatMap((running) => running.instances.map((instance) => instance.stop(5_000))));
    await simulator.close();
    await servers?.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
