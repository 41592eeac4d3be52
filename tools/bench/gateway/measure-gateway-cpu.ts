/**
 * CPU time per request of our gateway on one path, for comparing hot-path changes (wall-clock latency is too noisy
 * on a shared machine): starts the bench upstream and our gateway in processes of their own, warms up, then runs
 * rounds of sequential requests and reads the gateway's `utime + stime` from /proc around each round. Prints one
 * JSON line: CPU microseconds per request per round (and their median), with the gateway's and the floor's p50.
 * With `--base=<dir>` (a checkout of another commit, its node_modules linked to this one's) a second gateway runs
 * from that checkout and the rounds alternate between the two, so a drift of the shared machine hits both alike;
 * the line then also holds the per-round ratio of this checkout's CPU to the base's, and its median.
 * With `--built`, each gateway is the checkout's built CLI (`packages/gateway/dist/cli.js --no-governance`, as
 * `bench:gateway` runs it; build first) instead of the source under tsx. With `--bare` (path `same` only), the bench's
 * bare `node:http` + undici proxy joins the rounds: its CPU and added p50, and per round the ratios of ours to it.
 * With `--callgrind`, each gateway runs under `valgrind --tool=callgrind` with instrumentation switched on
 * (`callgrind_control -i on`) only for the measured rounds: instructions per request, nearly free of the noise of
 * a shared machine (slow: use a few hundred requests).
 *
 * `npx tsx tools/bench/gateway/measure-gateway-cpu.ts [--path=same|anthropic-to-openai|openai-to-anthropic]
 * [--requests=5000] [--rounds=5] [--warmup=3000] [--concurrency=1] [--stream] [--cpu-prof=<dir>] [--no-pin] [--base=<dir>] [--callgrind] [--built] [--bare]`
 */
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadJob } from './load-generator.js';
import { BENCH_CLIENT_KEY, benchCatalogue } from './our-gateway-process.js';
import { cpuSeconds } from './proc-stats.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const option = (name: string, fallback: string): string => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const PATH = option('path', 'same');
const REQUESTS = Number(option('requests', '5000'));
const ROUNDS = Number(option('rounds', '5'));
const WARMUP = Number(option('warmup', '3000'));
const CONCURRENCY = Number(option('concurrency', '1'));
const STREAM = process.argv.includes('--stream');
const CPU_PROF = option('cpu-prof', '');
const BASE = option('base', '');
const CALLGRIND = process.argv.includes('--callgrind');
const BUILT = process.argv.includes('--built');
const BARE = process.argv.includes('--bare');

const children: ChildProcess[] = [];
/** Gateway on core 0, the upstream (and this process) on core 1, as in bench:gateway; `--no-pin` turns it off. */
const PIN = !process.argv.includes('--no-pin') && cpus().length >= 2 && hasTaskset();
function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
/** The JSON line a child prints when ready, or the URL of the CLI's `listening on` line. */
function readyFact(text: string): Record<string, unknown> | undefined {
  const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
  if (url !== undefined) return { url };
  const line = text.split('\n').find((candidate) => candidate.startsWith('{'));
  return line !== undefined && text.includes('\n') ? (JSON.parse(line) as Record<string, unknown>) : undefined;
}
function start(core: number, args: readonly string[], cwd = process.cwd(), wrapper: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; ready: Record<string, unknown> }> {
  const options: SpawnOptions = { cwd, env, stdio: ['ignore', 'pipe', 'ignore'] };
  const command = [...(PIN ? ['taskset', '-c', String(core)] : []), ...wrapper, process.execPath, ...args];
  const child = spawn(command[0] as string, command.slice(1), options);
  children.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const ready = readyFact(text);
      if (ready !== undefined) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve({ child, ready });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    setTimeout(() => reject(new Error(`${args.join(' ')} did not start in 10 minutes`)), 600_000).unref();
  });
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * `on`: switches callgrind's instrumentation on (counters start from zero). `off`: dumps the counters, switches
 * it off and returns the instructions of the dump.
 */
function callgrind(pid: number, outFile: string, instrumentation: 'on' | 'off'): number {
  if (instrumentation === 'on') {
    execFileSync('callgrind_control', ['-i', 'on', String(pid)], { stdio: 'ignore' });
    return 0;
  }
  execFileSync('callgrind_control', ['--dump', String(pid)], { stdio: 'ignore' });
  execFileSync('callgrind_control', ['-i', 'off', String(pid)], { stdio: 'ignore' });
  const name = basename(outFile);
  const parts = readdirSync(dirname(outFile))
    .filter((file) => file.startsWith(`${name}.`))
    .sort((left, right) => Number(left.slice(name.length + 1)) - Number(right.slice(name.length + 1)));
  const text = readFileSync(join(dirname(outFile), parts.at(-1) as string), 'utf8');
  const match = /^totals:\s*(\d+)/m.exec(text);
  if (match?.[1] === undefined) throw new Error(`no totals in the callgrind dump ${parts.at(-1)}`);
  return Number(match[1]);
}

interface Measured {
  readonly cpuMicros: number[];
  readonly p50s: number[];
}

async function main(): Promise<void> {
  const upstream = await start(1, ['--import', 'tsx', join(HERE, 'upstream-server.ts')]);
  const port = upstream.ready.port as number;
  const profile = CPU_PROF === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`];
  const checkouts = BASE === '' ? [process.cwd()] : [process.cwd(), BASE];
  const gateways: { url: string; pid: number; outFile: string; measured: Measured }[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'measure-gateway-cpu-'));
  const cataloguePath = join(folder, 'catalogue.json');
  writeFileSync(cataloguePath, JSON.stringify(benchCatalogue(port)));
  const builtEnv = { ...process.env, BENCH_CLIENT_KEY, BENCH_UPSTREAM_KEY: 'bench-upstream-key' };
  for (const [index, checkout] of checkouts.entries()) {
    const outFile = join(tmpdir(), `gateway-callgrind-${process.pid}-${index}.out`);
    const wrapper = CALLGRIND ? ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${outFile}`] : [];
    const gateway = BUILT
      ? await start(0, [...profile, join(checkout, 'packages/gateway/dist/cli.js'), '--config', cataloguePath, '--port', '0', '--no-governance'], checkout, wrapper, builtEnv)
      : await start(0, [...profile, '--import', 'tsx', join(checkout, 'tools/bench/gateway/our-gateway-process.ts'), String(port)], checkout, wrapper);
    gateways.push({ url: gateway.ready.url as string, pid: gateway.child.pid as number, outFile, measured: { cpuMicros: [], p50s: [] } });
  }
  rmSync(folder, { recursive: true, force: true });
  if (BARE && PATH !== 'same') throw new Error('--bare measures the path `same` only');
  const bare = BARE ? await start(0, [join(HERE, 'bare-proxy-process.mjs'), String(port)]) : undefined;
  const bareMeasured: Measured = { cpuMicros: [], p50s: [] };
  const openAi = { 'content-type': 'application/json', authorization: `Bearer ${BENCH_CLIENT_KEY}` };
  const anthropic = { 'content-type': 'application/json', 'x-api-key': BENCH_CLIENT_KEY, 'anthropic-version': '2023-06-01' };
  const paths: Record<string, { route: string; headers: Record<string, string>; body: Record<string, unknown>; floor: string }> = {
    same: { route: '/v1/chat/completions', headers: openAi, body: { model: 'bench-openai' }, floor: '/v1/chat/completions' },
    'anthropic-to-openai': { route: '/v1/messages', headers: anthropic, body: { model: 'bench-openai', max_tokens: 256 }, floor: '/v1/chat/completions' },
    'openai-to-anthropic': { route: '/v1/chat/completions', headers: openAi, body: { model: 'bench-anthropic' }, floor: '/v1/messages' },
  };
  const chosen = paths[PATH];
  if (chosen === undefined) throw new Error(`unknown --path=${PATH}`);
  const body = JSON.stringify({ ...chosen.body, messages: [{ role: 'user', content: 'Say hello.' }], ...(STREAM ? { stream: true } : {}) });
  const job = (target: string, count: number): LoadJob => ({ url: target, headers: chosen.headers, body, concurrency: CONCURRENCY, count, durationMs: 600_000 });
  const floorUrl = `http://127.0.0.1:${port}${chosen.floor}`;
  for (const gateway of gateways) await runLoad(job(`${gateway.url}${chosen.route}`, WARMUP));
  if (bare !== undefined) await runLoad(job(`${bare.ready.url as string}${chosen.route}`, WARMUP));
  await runLoad(job(floorUrl, WARMUP));
  const floorP50s: number[] = [];
  // The monotonic clock (microseconds) of a `.cpuprofile`'s `startTime`: the measured rounds' window in the profile.
  const windowStartUs = Number(process.hrtime.bigint() / 1000n);
  for (let round = 0; round < ROUNDS; round += 1) {
    const floor = await runLoad(job(floorUrl, REQUESTS));
    floorP50s.push(floor.latenciesMs[Math.floor(floor.latenciesMs.length / 2)] as number);
    for (const gateway of round % 2 === 0 ? gateways : [...gateways].reverse()) {
      const before = CALLGRIND ? callgrind(gateway.pid, gateway.outFile, 'on') : (cpuSeconds(gateway.pid) as number);
      const result = await runLoad(job(`${gateway.url}${chosen.route}`, REQUESTS));
      const after = CALLGRIND ? callgrind(gateway.pid, gateway.outFile, 'off') : (cpuSeconds(gateway.pid) as number);
      if (result.failed > 0) throw new Error(`${result.failed} failed: ${result.firstFailure ?? ''}`);
      gateway.measured.cpuMicros.push(CALLGRIND ? Math.round((after - before) / result.completed) : Math.round(((after - before) / result.completed) * 1e7) / 10);
      gateway.measured.p50s.push(result.latenciesMs[Math.floor(result.latenciesMs.length / 2)] as number);
    }
    if (bare !== undefined) {
      const before = cpuSeconds(bare.child.pid as number) as number;
      const result = await runLoad(job(`${bare.ready.url as string}${chosen.route}`, REQUESTS));
      const after = cpuSeconds(bare.child.pid as number) as number;
      if (result.failed > 0) throw new Error(`bare proxy: ${result.failed} failed: ${result.firstFailure ?? ''}`);
      bareMeasured.cpuMicros.push(Math.round(((after - before) / result.completed) * 1e7) / 10);
      bareMeasured.p50s.push(result.latenciesMs[Math.floor(result.latenciesMs.length / 2)] as number);
    }
  }
  const windowEndUs = Number(process.hrtime.bigint() / 1000n);
  const round4 = (value: number): number => Math.round(value * 1e4) / 1e4;
  const summary = (measured: Measured) => ({
    cpuMicrosPerRequest: measured.cpuMicros,
    medianCpuMicros: median(measured.cpuMicros),
    p50Ms: round4(median(measured.p50s)),
    addedP50Ms: round4(median(measured.p50s.map((value, index) => value - (floorP50s[index] as number)))),
  });
  const [ours, base] = gateways as [(typeof gateways)[number], (typeof gateways)[number] | undefined];
  const ratios = base === undefined ? undefined : ours.measured.cpuMicros.map((value, index) => round4(value / (base.measured.cpuMicros[index] as number)));
  const added = (measured: Measured): number[] => measured.p50s.map((value, index) => value - (floorP50s[index] as number));
  const bareAdded = added(bareMeasured);
  const bareSummary =
    bare === undefined
      ? {}
      : {
          bare: summary(bareMeasured),
          cpuRatioToBare: round4(median(ours.measured.cpuMicros.map((value, index) => value / (bareMeasured.cpuMicros[index] as number)))),
          addedP50RatioToBare: round4(median(added(ours.measured).map((value, index) => value / (bareAdded[index] as number)))),
        };
  console.log(
    JSON.stringify({
      path: PATH,
      stream: STREAM,
      concurrency: CONCURRENCY,
      requests: REQUESTS,
      floorP50Ms: round4(median(floorP50s)),
      ...summary(ours.measured),
      ...(base === undefined || ratios === undefined ? {} : { base: summary(base.measured), cpuRatioToBase: ratios, medianCpuRatio: median(ratios) }),
      ...bareSummary,
      ...(CPU_PROF === '' ? {} : { profileWindowUs: [windowStartUs, windowEndUs] }),
    }),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill(CPU_PROF === '' ? 'SIGKILL' : 'SIGTERM');
  });
