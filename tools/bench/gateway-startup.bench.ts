/**
 * `npx --yes tsx tools/bench/gateway-startup.bench.ts [--quick]` (part of `npx --yes pnpm@12.4.2 bench`): how long the
 * gateway takes from the command to a ready `/healthz` with the embedded default and the embedded governance store (a
 * fresh data directory, no REDIS_URL or DATABASE_URL), started the README's way (`npx --yes pnpm@12.4.2 gateway`,
 * which runs the built CLI), as the launcher that command runs (`node packages/gateway/scripts/run-built-cli.mjs`: the
 * difference is what npx and pnpm cost) and as the bare bin (`node packages/gateway/dist/cli.js`), and how long it
 * takes to stop after SIGTERM with no request open. The build must be current (the first launch
 * builds when it is not; that launch is a warm-up and not measured). Writes tools/bench/results/gateway-startup.json.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchMetric } from './report/bench-metric.js';
import { writeResults } from './harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ROUNDS = process.argv.includes('--quick') ? 3 : 7;
const DATA_DIR = mkdtempSync(join(tmpdir(), 'tokenforge-startup-bench-'));
const { REDIS_URL: _redis, DATABASE_URL: _database, ...inherited } = process.env;
/** The embedded governance store in a data directory of its own (one process at a time holds it). */
const ENV = { ...inherited, TOKENFORGE_DATA_DIR: DATA_DIR };

interface StartStop {
  readonly readyMs: number;
  readonly stopMs: number;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

async function startAndStop(command: string, args: readonly string[]): Promise<StartStop> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  try {
    let url: string | undefined;
    while (url === undefined || !(await answers(url))) {
      if (child.exitCode !== null) throw new Error(`${command} exited before it was ready: ${output}`);
      if (performance.now() - started > 180_000) throw new Error(`${command} was not ready within 180 s`);
      url ??= /listening on (http:\/\/\S+)/.exec(output)?.[1];
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const readyMs = performance.now() - started;
    const stopping = performance.now();
    child.kill('SIGTERM');
    while (await answers(url)) await new Promise((resolve) => setTimeout(resolve, 5));
    return { readyMs, stopMs: performance.now() - stopping };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    // The next start takes the data directory: wait until the gateway (npx's grandchild on the README path) let it go.
    for (let waited = 0; existsSync(join(DATA_DIR, 'governance.lock')) && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const paths = {
  readme: ['npx', ['--yes', 'pnpm@12.4.2', 'gateway', '--port', '0']],
  launcher: [process.execPath, [join(ROOT, 'packages/gateway/scripts/run-built-cli.mjs'), '--port', '0']],
  bin: [process.execPath, [join(ROOT, 'packages/gateway/dist/cli.js'), '--port', '0']],
} as const;

await startAndStop(...paths.readme); // builds when the build is stale; not measured
const samples: Record<keyof typeof paths, StartStop[]> = { readme: [], launcher: [], bin: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const name of Object.keys(paths) as (keyof typeof paths)[]) {
    const [command, args] = paths[name];
    samples[name].push(await startAndStop(command, args));
  }
}

const micros = (values: readonly number[]): number[] => values.map((value) => Math.round(value * 1000));
const metrics: BenchMetric[] = [
  {
    id: 'readme-command.ready',
    label: 'start-up to a ready /healthz through `npx --yes pnpm@12.4.2 gateway` (embedded default, built)',
    unit: 'microseconds',
    better: 'lower',
    samples: micros(samples.readme.map((sample) => sample.readyMs)),
    target: { comparison: 'at-most', value: 2_000_000, gated: false },
  },
  {
    id: 'launcher.ready',
    label: 'start-up to a ready /healthz of `node packages/gateway/scripts/run-built-cli.mjs` (what the README command runs, without npx and pnpm)',
    unit: 'microseconds',
    better: 'lower',
    samples: micros(samples.launcher.map((sample) => sample.readyMs)),
  },
  {
    id: 'bin.ready',
    label: 'start-up to a ready /healthz of `node packages/gateway/dist/cli.js` (embedded default)',
    unit: 'microseconds',
    better: 'lower',
    samples: micros(samples.bin.map((sample) => sample.readyMs)),
  },
  {
    id: 'readme-command.stop',
    label: 'SIGTERM to the README command until /healthz stops answering (no open request)',
    unit: 'microseconds',
    better: 'lower',
    samples: micros(samples.readme.map((sample) => sample.stopMs)),
  },
];
for (const metric of metrics) {
  const sorted = [...metric.samples].sort((a, b) => a - b);
  console.log(`${metric.id.padEnd(24)} median ${((sorted[Math.floor(sorted.length / 2)] ?? 0) / 1000).toFixed(0)} ms  (${metric.samples.map((value) => Math.round(value / 1000)).join(', ')})`);
}
writeResults('gateway-startup', {
  metrics,
  // Start-up is mostly process start and module loading: on a shared machine it follows the load.
  loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  notes: 'Wall time from spawning the command to the first 200 from /healthz, polled every 5 ms, embedded store in a fresh data directory; the README command includes npx and pnpm starting (readme-command minus launcher: about 1.5-3 s of it on a busy 2-core machine) and the launcher\'s stale-build check (about 50 ms).',
});
rmSync(DATA_DIR, { recursive: true, force: true });
