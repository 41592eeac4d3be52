/**
 * `npx --yes pnpm@12.4.2 bench`: runs every benchmark (engine, codecs with embeddings, http, peers, gateway, governance) several times, each in a fresh
 * process, pools their figures and writes tools/bench/results/bench-report.json and docs/benchmarks.md: only the full
 * pooled run does (no `--quick`, `--out` or `--only`, two processes or more); every other run writes its results,
 * report and page under the ignored tools/bench/.runs/ (see report/bench-output.ts).
 *
 * A benchmark whose file is absent is reported as not run; one that exits non-zero is reported as failed (and
 * the command then exits 1 after writing the report). Options: `--processes=N` (default 3), `--quick` (passed to
 * the benchmarks that support it), `--full` (no pooled shortening), `--only=engine,peers`, `--no-docs` (write the
 * JSON only), `--out=<path>`; `--from=<report.json>` only renders docs/benchmarks.md from a report. A run without
 * `--quick` first waits, up to three minutes, for the one-minute load average to fall to half the cores (at least 1).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machineFacts } from './harness.js';
import { benchOutput, RESULTS_DIR_ENV } from './report/bench-output.js';
import type { BenchMetric } from './report/bench-metric.js';
import { metricsOf, poolMetrics, poolWorkloads, spreadNote, type BenchReport, type ReportBenchmark, type ReportMetric } from './report/bench-report.js';
import { renderBenchmarksMarkdown } from './report/render-markdown.js';
import { waitForQuiet } from './report/wait-for-quiet.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../..');
/** Where the full pooled `npx --yes pnpm@12.4.2 bench` writes the aggregated report (the committed one). */
export const REPORT_PATH = benchOutput({ processes: 3, quick: false }).reportPath;
const DOCS_PATH = benchOutput({ processes: 3, quick: false }).docsPath;

/** A benchmark `npx --yes pnpm@12.4.2 bench` knows: its file, the result files it writes, and how it is run here. */
interface BenchmarkSpec {
  readonly file: string;
  /** Result names (tools/bench/results/<name>.json), each reported as its own benchmark. */
  readonly results: readonly string[];
  /** Whether it takes `--quick`. */
  readonly quickFlag: boolean;
  /** Arguments for each of several pooled processes (unless `--full`): their rounds add up across processes. */
  readonly pooledArgs: readonly string[];
}

const BENCHMARKS: readonly BenchmarkSpec[] = [
  { file: 'engine.bench.ts', results: ['engine'], quickFlag: false, pooledArgs: [] },
  // A full codecs run takes minutes on two cores; three quick processes give more rounds than one full run.
  { file: 'codecs.bench.ts', results: ['codecs', 'codecs-embeddings'], quickFlag: true, pooledArgs: ['--quick'] },
  { file: 'http.bench.ts', results: ['http'], quickFlag: false, pooledArgs: [] },
  { file: 'peers.bench.ts', results: ['peers'], quickFlag: true, pooledArgs: [] },
  // Gateways over loopback HTTP (ours, Portkey, claude-code-router): quick rounds (three per sync cell, one per stream cell) per process, pooled.
  { file: 'gateway.bench.ts', results: ['gateway'], quickFlag: true, pooledArgs: ['--quick'] },
  // Start-up to a ready /healthz through the README's command and through the bin.
  { file: 'gateway-startup.bench.ts', results: ['gateway-startup'], quickFlag: true, pooledArgs: ['--quick'] },
  // Governance off, embedded and shared (real Redis and PostgreSQL on loopback) beside the gateway bench: quick rounds, pooled.
  { file: 'governance.bench.ts', results: ['governance'], quickFlag: true, pooledArgs: ['--quick'] },
  { file: 'jobs.bench.ts', results: ['jobs'], quickFlag: true, pooledArgs: ['--quick'] },
];

/** Options of {@link runAllBenchmarks}. */
export interface RunAllOptions {
  readonly processes: number;
  readonly quick: boolean;
  /** Run each benchmark at its full length in every process (no pooled shortening). */
  readonly full: boolean;
  /** Result names or benchmark file stems to run (all when absent). */
  readonly only?: readonly string[];
  /** The folder the benchmarks write their result files to (the children are told through the environment). */
  readonly resultsDirectory: string;
}

function runChild(file: string, args: readonly string[], resultsDirectory: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // --expose-gc for the peers' heap figure; tsx through --import so the flags reach node itself.
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(HERE, file), ...args], {
      cwd: ROOT,
      env: { ...process.env, [RESULTS_DIR_ENV]: resultsDirectory },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

/** The result file `name`, when it was written at or after `since` (ms). */
function freshResults(directory: string, name: string, since: number): Record<string, unknown> | undefined {
  const path = join(directory, `${name}.json`);
  if (!existsSync(path)) return undefined;
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const recordedAt = typeof parsed.recordedAt === 'string' ? Date.parse(parsed.recordedAt) : Number.NaN;
  return recordedAt >= since - 1000 ? parsed : undefined;
}

/** Runs the benchmarks and returns the pooled report (writes nothing but the benchmarks' own result files). */
export async function runAllBenchmarks(options: RunAllOptions): Promise<BenchReport> {
  if (!options.quick) {
    // A build or test run that just ended would land in the first process's rounds (measured: one process of three
    // read 0.75x where the other two read 0.60x and 0.64x, widening the pooled IQR past its gate).
    const threshold = Math.max(1, availableParallelism() / 2);
    const waited = await waitForQuiet({ load: () => loadavg()[0] ?? 0, threshold, maxWaitMs: 180_000, pollMs: 5000, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) });
    if (waited.waitedMs > 0) {
      console.log(`waited ${Math.round(waited.waitedMs / 1000)} s for a quiet machine: load average ${waited.loadBefore.toFixed(2)} -> ${waited.loadAfter.toFixed(2)}${waited.quiet ? '' : ' (still busy: measuring anyway)'}`);
    }
  }
  const started = Date.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const benchmarks: ReportBenchmark[] = [];
  const metrics: ReportMetric[] = [];
  let peerResults: Record<string, unknown>[] = [];
  let gatewayResults: Record<string, unknown>[] = [];
  const selected = (spec: BenchmarkSpec): boolean =>
    options.only === undefined || options.only.some((name) => spec.results.includes(name) || spec.file.startsWith(`${name}.`));

  for (const spec of BENCHMARKS.filter(selected)) {
    if (!existsSync(join(HERE, spec.file))) {
      for (const name of spec.results) benchmarks.push({ name, status: 'not-run', reason: `tools/bench/${spec.file} is not in this checkout`, processes: 0 });
      continue;
    }
    const collected = new Map(spec.results.map((name): [string, Record<string, unknown>[]] => [name, []]));
    let failure: string | undefined;
    for (let run = 0; run < options.processes; run += 1) {
      console.log(`\n=== ${spec.file}: process ${run + 1} of ${options.processes} ===`);
      const runStarted = Date.now();
      const args = options.quick && spec.quickFlag ? ['--quick'] : options.full || options.processes === 1 ? [] : spec.pooledArgs;
      const code = await runChild(spec.file, args, options.resultsDirectory);
      if (code !== 0) {
        failure = `exited with code ${code}`;
        break;
      }
      for (const name of spec.results) {
        const results = freshResults(options.resultsDirectory, name, runStarted);
        if (results !== undefined) collected.get(name)?.push(results);
      }
    }
    for (const [name, runs] of collected) {
      if (failure !== undefined) benchmarks.push({ name, status: 'failed', reason: failure, processes: runs.length });
      else if (runs.length === 0) benchmarks.push({ name, status: 'not-run', reason: 'it wrote no results', processes: 0 });
      else benchmarks.push({ name, status: 'ran', processes: runs.length });
      if (failure === undefined && runs.length > 0) {
        metrics.push(...poolMetrics(name, runs.map((results): BenchMetric[] => metricsOf(results))));
        if (name === 'peers') peerResults = runs;
        if (name === 'gateway') gatewayResults = runs;
      }
    }
  }
  const lastPeers = peerResults.at(-1);
  return {
    report: 'tokenforge-bench-report',
    version: 1,
    recordedAt: new Date().toISOString(),
    machine: machineFacts(),
    loadAverage: { start: Math.round(loadAtStart * 100) / 100, end: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
    processesPerBenchmark: options.processes,
    durationSeconds: Math.round((Date.now() - started) / 1000),
    quick: options.quick,
    peerVersions: {
      ...((lastPeers?.peerVersions as Record<string, string> | undefined) ?? {}),
      ...((gatewayResults.at(-1)?.peerVersions as Record<string, string> | undefined) ?? {}),
    },
    benchmarks,
    workloads: poolWorkloads(peerResults),
    metrics,
  };
}

/** Reads `--name=value` from the command line. */
export function option(name: string, argv: readonly string[] = process.argv): string | undefined {
  return argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/**
 * Parses the shared options of `run-all.ts` and `check.ts`. `scratch`: write the results under the ignored folder
 * whatever the options (`bench:check`).
 */
export function runAllOptions(argv: readonly string[] = process.argv, scratch = false): RunAllOptions {
  const processes = Number(option('processes', argv) ?? '3');
  if (!Number.isInteger(processes) || processes < 1 || processes > 20) throw new Error('--processes takes a whole number from 1 to 20');
  const only = option('only', argv)?.split(',').filter((name) => name.length > 0);
  const quick = argv.includes('--quick');
  const output = benchOutput({ processes, quick, only, out: scratch ? 'bench:check' : option('out', argv) });
  return { processes, quick, full: argv.includes('--full'), ...(only === undefined ? {} : { only }), resultsDirectory: output.resultsDirectory };
}

async function main(): Promise<void> {
  const from = option('from');
  if (from !== undefined) {
    // Re-render the page from a report already measured (after a change to the renderer).
    writeFileSync(DOCS_PATH, renderBenchmarksMarkdown(JSON.parse(readFileSync(from, 'utf8')) as BenchReport));
    console.log(`docs written to ${relative(ROOT, DOCS_PATH)} from ${from}`);
    return;
  }
  const options = runAllOptions();
  const output = benchOutput({ processes: options.processes, quick: options.quick, only: options.only, out: option('out') });
  mkdirSync(options.resultsDirectory, { recursive: true });
  const report = await runAllBenchmarks(options);
  mkdirSync(dirname(output.reportPath), { recursive: true });
  writeFileSync(output.reportPath, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nreport written to ${relative(ROOT, output.reportPath)}${output.committed ? '' : ' (not the committed report: only the full pooled run writes that)'}`);
  if (!process.argv.includes('--no-docs')) {
    writeFileSync(output.docsPath, renderBenchmarksMarkdown(report));
    console.log(`docs written to ${relative(ROOT, output.docsPath)}`);
  }
  for (const benchmark of report.benchmarks) console.log(`${benchmark.name}: ${benchmark.status}${benchmark.reason === undefined ? '' : ` (${benchmark.reason})`}`);
  for (const metric of report.metrics.filter((candidate) => candidate.target !== undefined)) {
    console.log(`${metric.met === true ? 'met    ' : 'NOT MET'} ${metric.id}: ${metric.value} (target ${metric.target?.comparison} ${metric.target?.value})${spreadNote(metric)}`);
  }
  console.log(`took ${report.durationSeconds} s`);
  if (report.benchmarks.some((benchmark) => benchmark.status === 'failed')) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
