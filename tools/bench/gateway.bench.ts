/**
 * `npx --yes pnpm@12.4.2 bench:gateway`: the overhead a gateway adds, ours beside Portkey's and claude-code-router's, on the same
 * machine in the same run. A canned upstream (its own process) answers openai-chat and anthropic-messages, sync
 * and as 2,000-event streams; a load generator (its own process) drives each path at concurrency 1, 32 and 256:
 *
 * - floor: the client calls the upstream directly (one floor per upstream dialect);
 * - ours (the built CLI, as an operator runs it; the first start builds it when the build is stale): OpenAI chat in, openai-chat out; Anthropic in, openai-chat out; OpenAI chat in, anthropic out; each with
 *   governance off (the gated figures) and, from a second gateway process, with governance on (the embedded store
 *   in a temporary folder, a tenant whose limits never bind);
 * - Portkey's gateway (OpenAI chat in, custom host = the upstream) and claude-code-router (Anthropic in, OpenAI
 *   chat out), installed on demand from tools/bench/gateway-peers;
 * - a reference: a bare `node:http` + undici proxy (no checks, no translation), the least a Node gateway adds here,
 *   plain JavaScript run by node (neither it nor our gateway carries a TypeScript loader).
 *
 * Every path first gets the same fixed-count warm-up (sync and stream), and each cell a short fixed-count one at
 * its concurrency. Paths run in alternating order each round. Per path: added p50/p99 over the floor, requests per second, CPU time
 * per request and peak RSS of the gateway process (/proc), and for streams added time per chunk and to first byte.
 * Gateways are pinned to core 0, the upstream and the load generator to core 1 when `taskset` exists
 * (`--no-pin` turns that off). `--quick` for short rounds, `--no-governance` leaves the governed paths out,
 * `--streams-only` measures the stream cells alone and `--sync-only` the sync cells alone, `--concurrency=32` (a comma list) only those cells and
 * `--paths=ours-same,bare-node-proxy` (a comma list of path ids; floors always run) only those paths, peers
 * unstarted unless named: for focused before/after runs while profiling. Writes gateway.json
 * (tools/bench/results/ in the full pooled `bench` run, else tools/bench/.runs/results/).
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STREAM_EVENTS } from './gateway/canned-upstream.js';
import { CCR_PACKAGE, ensureGatewayPeers, installedVersion, PORTKEY_PACKAGE, writeCcrConfig } from './gateway/gateway-peers.js';
import type { LoadJob, LoadResult } from './gateway/load-generator.js';
import { gatewayScriptNodeFlags } from './gateway/gateway-script-flags.js';
import { BENCH_ADMIN_KEY, BENCH_CLIENT_KEY, benchCatalogue, createGovernedKey } from './gateway/our-gateway-process.js';
import { cpuSeconds, peakRssBytes } from './gateway/proc-stats.js';
import { GOVERNED_SUFFIX, summarizeGatewayRuns, type GatewayPathSpec, type PathRun } from './gateway/summarize-gateway.js';
import { machineFacts, writeResults } from './harness.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const QUICK = process.argv.includes('--quick');
const GOVERNANCE = !process.argv.includes('--no-governance');
const PIN = !process.argv.includes('--no-pin') && hasTaskset() && cpus().length >= 2;
const STREAMS_ONLY = process.argv.includes('--streams-only');
const SYNC_ONLY = process.argv.includes('--sync-only');
const listArgument = (name: string): string[] | undefined =>
  process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3).split(',').filter((item) => item.length > 0);
const ONLY_PATHS = listArgument('paths');
const CONCURRENCIES = (listArgument('concurrency')?.map(Number) ?? [1, 32, 256]).filter((concurrency) => Number.isInteger(concurrency) && concurrency > 0);
const CCR_KEY = 'ccr-bench-key-0123456789';
/** Requests every path gets before the first measured cell (the same count for ours and the peers'). */
const WARMUP = QUICK ? { sync: 1_000, syncConcurrency: 4, streams: 16, streamConcurrency: 4 } : { sync: 3_000, syncConcurrency: 4, streams: 64, streamConcurrency: 8 };
/** Sync requests per in-flight slot in each cell's own warm-up. */
const CELL_WARMUP_PER_SLOT = 4;
/** A warm-up is bounded by its count; this only stops one that hangs. */
const WARMUP_TIME_LIMIT_MS = 60_000;

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `command args` pinned to `core` when pinning is on. */
function pinned(core: number, command: string, args: readonly string[]): [string, string[]] {
  return PIN ? ['taskset', ['-c', String(core), command, ...args]] : [command, [...args]];
}

const children: ChildProcess[] = [];
function startChild(core: number, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  const [command, argv] = pinned(core, process.execPath, args);
  const child = spawn(command, argv, { cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.resume();
  children.push(child);
  return child;
}

/** The first JSON line the child prints. */
function firstJsonLine<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 60 s`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const line = text.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line !== undefined && text.includes('\n')) {
        clearTimeout(timer);
        child.stdout?.resume();
        resolve(JSON.parse(line) as T);
      }
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before it was ready`)));
  });
}

/** The URL the gateway CLI prints once listening; a first start may build the gateway first (minutes). */
function listeningUrl(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 15 minutes`)), 900_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before it was ready`)));
  });
}

/**
 * Our gateway as an operator runs it: the built CLI (`npx --yes pnpm@12.4.2 gateway`'s script with its node flags, which builds first
 * when the build is stale) over the bench catalogue, governance off (`--no-governance`) or on (the embedded store
 * in `folder`, with a tenant whose limits never bind). Answers its URL and the client key to send.
 */
async function startOurGateway(upstreamPort: number, folder: string, governance: boolean): Promise<{ url: string; apiKey: string; child: ChildProcess }> {
  const configPath = join(folder, 'catalogue.json');
  writeFileSync(configPath, JSON.stringify(benchCatalogue(upstreamPort)));
  const cli = join(HERE, '../../packages/gateway/scripts/run-built-cli.mjs');
  const child = startChild(0, [...gatewayScriptNodeFlags(join(HERE, '../../package.json')), cli, '--config', configPath, '--port', '0', ...(governance ? ['--data-dir', join(folder, 'data')] : ['--no-governance'])], {
    env: { ...process.env, BENCH_CLIENT_KEY, BENCH_UPSTREAM_KEY: 'bench-upstream-key', TOKENFORGE_ADMIN_KEY: BENCH_ADMIN_KEY },
  });
  const what = `our gateway (governance ${governance ? 'on' : 'off'})`;
  const url = await listeningUrl(child, what);
  child.stdout?.resume();
  return { url, apiKey: governance ? await createGovernedKey(url, BENCH_ADMIN_KEY) : BENCH_CLIENT_KEY, child };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Polls until a POST to `url` answers 200, or fails after 60 s. */
async function waitUntilAnswering(url: string, headers: Record<string, string>, body: string, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { method: 'POST', headers, body });
      const text = await response.text();
      if (response.status === 200) return;
      last = `${response.status}: ${text.slice(0, 200)}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not answer within 60 s (${last})`);
}

const OPENAI_BODY = (model: string, stream: boolean): string => JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello.' }], ...(stream ? { stream: true } : {}) });
const ANTHROPIC_BODY = (model: string, stream: boolean): string =>
  JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello.' }], ...(stream ? { stream: true } : {}) });

interface RunnablePath extends GatewayPathSpec {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: (stream: boolean) => string;
  /** The gateway process (absent for floors). */
  readonly pid?: number | undefined;
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadGenerator = fork(join(HERE, 'gateway/load-generator.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(loadGenerator);
  if (PIN && loadGenerator.pid !== undefined) execFileSync('taskset', ['-pc', '1', String(loadGenerator.pid)], { stdio: 'ignore' });

  const upstream = startChild(1, ['--import', 'tsx', join(HERE, 'gateway/upstream-server.ts')]);
  const { port: upstreamPort } = await firstJsonLine<{ port: number }>(upstream, 'the upstream');
  const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;

  const governanceFolder = mkdtempSync(join(tmpdir(), 'tokenforge-bench-gateway-'));
  const { url: oursUrl, child: ours } = await startOurGateway(upstreamPort, governanceFolder, false);

  const openAiHeaders = (key: string): Record<string, string> => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` });
  const anthropicHeaders = (key: string): Record<string, string> => ({ 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' });
  const paths: RunnablePath[] = [
    { id: 'floor-openai', label: 'floor: client -> upstream (openai-chat)', role: 'floor', url: `${upstreamUrl}/v1/chat/completions`, headers: openAiHeaders('bench-upstream-key'), body: (s) => OPENAI_BODY('bench-model', s) },
    { id: 'floor-anthropic', label: 'floor: client -> upstream (anthropic-messages)', role: 'floor', url: `${upstreamUrl}/v1/messages`, headers: anthropicHeaders('bench-upstream-key'), body: (s) => ANTHROPIC_BODY('bench-model', s) },
    { id: 'ours-same', label: 'TokenForge: OpenAI chat in, openai-chat out, governance off', role: 'ours', floor: 'floor-openai', process: 'tokenforge', url: `${oursUrl}/v1/chat/completions`, headers: openAiHeaders(BENCH_CLIENT_KEY), body: (s) => OPENAI_BODY('bench-openai', s), pid: ours.pid },
    { id: 'ours-anthropic-to-openai', label: 'TokenForge: Anthropic in, openai-chat out, governance off', role: 'ours', floor: 'floor-openai', process: 'tokenforge', url: `${oursUrl}/v1/messages`, headers: anthropicHeaders(BENCH_CLIENT_KEY), body: (s) => ANTHROPIC_BODY('bench-openai', s), pid: ours.pid },
    { id: 'ours-openai-to-anthropic', label: 'TokenForge: OpenAI chat in, anthropic out, governance off', role: 'ours', floor: 'floor-anthropic', process: 'tokenforge', url: `${oursUrl}/v1/chat/completions`, headers: openAiHeaders(BENCH_CLIENT_KEY), body: (s) => OPENAI_BODY('bench-anthropic', s), pid: ours.pid },
  ];
  if (GOVERNANCE && (ONLY_PATHS === undefined || ONLY_PATHS.some((id) => id.endsWith(GOVERNED_SUFFIX)))) {
    const governedFolder = mkdtempSync(join(governanceFolder, 'governed-'));
    const { url, apiKey, child: governed } = await startOurGateway(upstreamPort, governedFolder, true);
    for (const path of paths.filter((candidate) => candidate.role === 'ours')) {
      const headers = Object.fromEntries(Object.entries(path.headers).map(([name, value]) => [name, value.replace(BENCH_CLIENT_KEY, apiKey)]));
      paths.push({ ...path, id: `${path.id}${GOVERNED_SUFFIX}`, label: path.label.replace('governance off', 'governance on (embedded store)'), process: 'tokenforge-governance', url: path.url.replace(oursUrl, url), headers, pid: governed.pid });
    }
  }
  const bare = startChild(0, [join(HERE, 'gateway/bare-proxy-process.mjs'), String(upstreamPort)]);
  const { url: bareUrl } = await firstJsonLine<{ url: string }>(bare, 'the bare proxy');
  paths.push({
    id: 'bare-node-proxy',
    label: 'reference: bare node:http + undici proxy, OpenAI chat in and out (no checks)',
    role: 'peer',
    floor: 'floor-openai',
    process: 'bare-node-proxy',
    url: `${bareUrl}/v1/chat/completions`,
    headers: openAiHeaders('unused'),
    body: (s) => OPENAI_BODY('bench-model', s),
    pid: bare.pid,
  });
  const peerVersions: Record<string, string> = {};
  const peerProblems: Record<string, string> = {};
  let peersFolder: string | undefined;
  const wanted = (id: string): boolean => ONLY_PATHS === undefined || ONLY_PATHS.includes(id);
  if (wanted('portkey') || wanted('claude-code-router')) try {
    peersFolder = ensureGatewayPeers();
  } catch (error) {
    peerProblems.install = `npm ci of tools/bench/gateway-peers failed: ${String(error).slice(0, 300)}`;
  }
  const ccrHome = mkdtempSync(join(tmpdir(), 'tokenforge-ccr-home-'));
  if (peersFolder !== undefined) {
    if (wanted('portkey')) try {
      peerVersions[PORTKEY_PACKAGE] = installedVersion(peersFolder, PORTKEY_PACKAGE);
      const port = await freePort();
      const portkey = startChild(0, [join(peersFolder, 'node_modules/@portkey-ai/gateway/build/start-server.js'), `--port=${port}`, '--headless'], { cwd: peersFolder });
      portkey.stdout?.resume();
      const path: RunnablePath = {
        id: 'portkey',
        label: `Portkey ${peerVersions[PORTKEY_PACKAGE]}: OpenAI chat in, openai out (custom host)`,
        role: 'peer',
        floor: 'floor-openai',
        process: 'portkey',
        url: `http://127.0.0.1:${port}/v1/chat/completions`,
        headers: { ...openAiHeaders('bench-upstream-key'), 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstreamUrl}/v1` },
        body: (s) => OPENAI_BODY('bench-model', s),
        pid: portkey.pid,
      };
      await waitUntilAnswering(path.url, path.headers, path.body(true), 'Portkey');
      paths.push(path);
    } catch (error) {
      peerProblems.portkey = String(error).slice(0, 300);
    }
    if (wanted('claude-code-router')) try {
      peerVersions[CCR_PACKAGE] = installedVersion(peersFolder, CCR_PACKAGE);
      const port = await freePort();
      writeCcrConfig(ccrHome, port, upstreamPort, CCR_KEY);
      const ccr = startChild(0, [join(peersFolder, 'node_modules/@musistudio/claude-code-router/dist/cli.js'), 'start'], { cwd: peersFolder, env: { ...process.env, HOME: ccrHome, USERPROFILE: ccrHome } });
      ccr.stdout?.resume();
      const path: RunnablePath = {
        id: 'claude-code-router',
        label: `claude-code-router ${peerVersions[CCR_PACKAGE]}: Anthropic in, OpenAI chat out`,
        role: 'peer',
        floor: 'floor-openai',
        process: 'claude-code-router',
        url: `http://127.0.0.1:${port}/v1/messages`,
        headers: anthropicHeaders(CCR_KEY),
        body: (s) => ANTHROPIC_BODY('bench-model', s),
        pid: ccr.pid,
      };
      await waitUntilAnswering(path.url, path.headers, path.body(true), 'claude-code-router');
      paths.push(path);
    } catch (error) {
      peerProblems['claude-code-router'] = String(error).slice(0, 300);
    }
  }
  for (const [peer, problem] of Object.entries(peerProblems)) console.log(`peer not measured: ${peer}: ${problem}`);
  if (ONLY_PATHS !== undefined) {
    const kept = paths.filter((path) => path.role === 'floor' || ONLY_PATHS.includes(path.id));
    paths.splice(0, paths.length, ...kept);
  }

  const load = (job: LoadJob): Promise<LoadResult> =>
    new Promise((resolve, reject) => {
      loadGenerator.once('message', (message: LoadResult | { error: string }) => ('error' in message ? reject(new Error(message.error)) : resolve(message)));
      loadGenerator.send(job);
    });

  // Warm-up before anything is measured: the same fixed count of requests on every path (ours and the peers'
  // alike), sync and stream, so no path is measured while its JIT is still cold (a cold gateway spends ~150 ms
  // of its first requests compiling, and sync c1 runs first).
  for (const path of paths) {
    if (!STREAMS_ONLY) await load({ url: path.url, headers: path.headers, body: path.body(false), concurrency: WARMUP.syncConcurrency, count: WARMUP.sync, durationMs: WARMUP_TIME_LIMIT_MS });
    if (!SYNC_ONLY) await load({ url: path.url, headers: path.headers, body: path.body(true), concurrency: WARMUP.streamConcurrency, count: WARMUP.streams, durationMs: WARMUP_TIME_LIMIT_MS });
  }
  console.log(`warm-up: ${WARMUP.sync} sync requests and ${WARMUP.streams} streams on each of ${paths.length} paths`);

  const runs: PathRun[] = [];
  for (const stream of STREAMS_ONLY ? [true] : SYNC_ONLY ? [false] : [false, true]) {
    for (const concurrency of CONCURRENCIES) {
      // Quick sync cells take three 250 ms rounds (a few seconds a process): with one, a single disturbed round was
      // the whole figure of its process (sync c1 read 3.59x the bare proxy in one process where the others read 1.3x).
      const rounds = QUICK ? (stream ? 1 : 3) : stream && concurrency === 256 ? 2 : 3;
      const durationMs = QUICK ? 250 : stream ? 1_200 : 1_000;
      const count = stream ? Math.max(concurrency, QUICK ? 40 : 300) : 200_000;
      const cell = `${stream ? 'stream' : 'sync'} c${concurrency}`;
      // Per cell, a fixed count on every path at the cell's concurrency, so each path has its sockets open
      // (streams: at most 32 at once, to keep a full run near 5 minutes).
      for (const path of paths) {
        const warm = stream ? Math.min(concurrency, 32) : concurrency;
        await load({ url: path.url, headers: path.headers, body: path.body(stream), concurrency: warm, count: stream ? warm : warm * CELL_WARMUP_PER_SLOT, durationMs: WARMUP_TIME_LIMIT_MS });
      }
      for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? paths : [...paths].reverse();
        for (const path of order) {
          const cpuBefore = path.pid === undefined ? undefined : cpuSeconds(path.pid);
          const result = await load({ url: path.url, headers: path.headers, body: path.body(stream), concurrency, count, durationMs });
          const cpuAfter = path.pid === undefined ? undefined : cpuSeconds(path.pid);
          if (result.failed > 0) console.log(`${cell} ${path.id}: ${result.failed} failed (${result.firstFailure ?? ''})`);
          runs.push({
            path: path.id,
            stream,
            concurrency,
            round,
            completed: result.completed,
            failed: result.failed,
            requestsPerSecond: result.requestsPerSecond,
            latenciesMs: result.latenciesMs,
            firstByteMs: result.firstByteMs,
            ...(cpuBefore === undefined || cpuAfter === undefined ? {} : { cpuSeconds: cpuAfter - cpuBefore }),
          });
        }
      }
      console.log(`${cell}: measured ${paths.length} paths in ${rounds} round(s)`);
    }
  }
  const peakRss: Record<string, number> = {};
  for (const path of paths) if (path.pid !== undefined && path.process !== undefined) peakRss[path.process] = peakRssBytes(path.pid) ?? Number.NaN;

  const summary = summarizeGatewayRuns(paths, runs, { streamEvents: STREAM_EVENTS, peakRssBytes: peakRss });
  for (const line of summary.consoleLines) console.log(line);
  const path = writeResults('gateway', {
    quick: QUICK,
    pinned: PIN,
    warmup: { ...WARMUP, perCellSyncPerSlot: CELL_WARMUP_PER_SLOT },
    cpuModel: machineFacts().cpuModel,
    durationSeconds: Math.round((Date.now() - started) / 1000),
    peerVersions,
    peerProblems,
    paths: summary.paths,
    metrics: summary.metrics,
  });
  console.log(`wrote ${path} in ${Math.round((Date.now() - started) / 1000)} s`);
  rmSync(ccrHome, { recursive: true, force: true });
  rmSync(governanceFolder, { recursive: true, force: true });
}

function stopChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

main()
  .then(() => {
    stopChildren();
    process.exit(0);
  })
  .catch((error: unknown) => {
    console.error(error);
    stopChildren();
    process.exit(1);
  });
