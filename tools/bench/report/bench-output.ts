/**
 * Where a benchmark run writes. Only the full pooled `npx --yes pnpm@12.4.2 bench` (no `--quick`, `--out`,
 * `--only`, at least two processes per benchmark) writes the committed files: tools/bench/results/*.json and
 * docs/benchmarks.md. Every other run (a quick or single-process smoke run, a run with `--out`, `bench:check`,
 * a benchmark run alone such as `bench:gateway`) writes under the ignored tools/bench/.runs/.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(BENCH, '../..');

/** The committed result folder. */
export const COMMITTED_RESULTS = join(BENCH, 'results');
/** The ignored folder of every other run. */
export const SCRATCH = join(BENCH, '.runs');
/** The environment variable run-all sets for its children: the folder their result files go to. */
export const RESULTS_DIR_ENV = 'TOKENFORGE_BENCH_RESULTS_DIR';

/** What decides where `run-all.ts` writes. */
export interface RunShape {
  readonly processes: number;
  readonly quick: boolean;
  readonly only?: readonly string[] | undefined;
  /** `--out=<path>`. */
  readonly out?: string | undefined;
}

/** The files one run writes. */
export interface BenchOutput {
  /** Whether this run writes the committed report. */
  readonly committed: boolean;
  /** The folder of the benchmarks' own result files. */
  readonly resultsDirectory: string;
  /** The pooled report. */
  readonly reportPath: string;
  /** The rendered page. */
  readonly docsPath: string;
}

/** Where a `run-all.ts` run with these options writes. */
export function benchOutput(shape: RunShape): BenchOutput {
  const committed = !shape.quick && shape.out === undefined && shape.only === undefined && shape.processes >= 2;
  if (committed) return { committed, resultsDirectory: COMMITTED_RESULTS, reportPath: join(COMMITTED_RESULTS, 'bench-report.json'), docsPath: join(ROOT, 'docs/benchmarks.md') };
  return { committed, resultsDirectory: join(SCRATCH, 'results'), reportPath: shape.out ?? join(SCRATCH, 'bench-report.json'), docsPath: join(SCRATCH, 'benchmarks.md') };
}

/** Where a benchmark writes its result file: the folder run-all named, else (run alone) the ignored one. */
export function resultsDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const named = env[RESULTS_DIR_ENV];
  return named !== undefined && named.length > 0 ? named : join(SCRATCH, 'results');
}
