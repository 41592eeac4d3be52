/**
 * A small benchmark harness shared by the repository's benchmarks (`npx --yes pnpm@12.4.2 bench:*`).
 *
 * Each measurement runs a warm-up, then several timed rounds of a fixed number of operations, and reports the
 * median nanoseconds per operation with the spread across rounds. Ratios between measurements taken in the same
 * run are the figures to compare across machines; absolute numbers depend on the machine (recorded beside them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, type as osType, release } from 'node:os';
import { join } from 'node:path';
import { resultsDirectory } from './report/bench-output.js';

/** Options of one measurement. */
export interface MeasureOptions {
  /** Operations per timed round (the function is told how many to perform). */
  readonly operationsPerRound: number;
  /** Untimed rounds before measuring, so the JIT has settled. Default 3. */
  readonly warmupRounds?: number;
  /** Timed rounds. Default 9. */
  readonly rounds?: number;
}

/** The result of one measurement. */
export interface Measurement {
  readonly name: string;
  /** Median nanoseconds per operation across rounds. */
  readonly medianNsPerOperation: number;
  /** Fastest and slowest round, nanoseconds per operation. */
  readonly minNsPerOperation: number;
  readonly maxNsPerOperation: number;
  /** (max - min) / median: how noisy the rounds were. */
  readonly relativeSpread: number;
  readonly operationsPerRound: number;
  readonly rounds: number;
  /** Nanoseconds per operation of every timed round, in round order (for paired ratios). */
  readonly samples: readonly number[];
}

/** The machine a run happened on. */
export interface MachineFacts {
  readonly node: string;
  readonly v8: string;
  readonly platform: string;
  readonly arch: string;
  readonly os: string;
  readonly cpuModel: string;
  readonly cpuCount: number;
  readonly totalMemoryMiB: number;
}

/** A function under measurement: performs `operations` operations (sync or async). */
export type BenchFunction = (operations: number) => void | Promise<void>;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** One case of an interleaved measurement. */
export interface BenchCase {
  readonly name: string;
  readonly fn: BenchFunction;
  /** Operations per timed round for this case. */
  readonly operationsPerRound: number;
}

/** Measures `fn`: warm-up rounds, then timed rounds; returns median and spread in nanoseconds per operation. */
export async function measure(name: string, fn: BenchFunction, options: MeasureOptions): Promise<Measurement> {
  const [measurement] = await measureInterleaved([{ name, fn, operationsPerRound: options.operationsPerRound }], options);
  return measurement as Measurement;
}

/** Options of {@link measureInterleaved}. */
export interface InterleavedOptions extends Omit<MeasureOptions, 'operationsPerRound'> {
  /** The order of the cases in a round (default: as given, every round). */
  readonly order?: (count: number, round: number) => readonly number[];
  /** Run, untimed, before every timed case (e.g. a forced GC, so no case pays for its neighbour's garbage). */
  readonly beforeEachCase?: () => void;
}

function inTurn(count: number): number[] {
  return Array.from({ length: count }, (_, position) => position);
}

/**
 * Measures several cases round-robin: every round times each case once, in turn. On a shared machine, load that
 * comes and goes then hits every case alike, which keeps the ratios between them meaningful.
 */
export async function measureInterleaved(
  cases: readonly BenchCase[],
  options: InterleavedOptions = {},
): Promise<Measurement[]> {
  const warmupRounds = options.warmupRounds ?? 3;
  const rounds = options.rounds ?? 9;
  const order = options.order ?? inTurn;
  for (let round = 0; round < warmupRounds; round += 1) {
    for (const position of order(cases.length, round)) {
      const benchCase = cases[position] as BenchCase;
      await benchCase.fn(benchCase.operationsPerRound);
    }
  }
  const samples = cases.map((): number[] => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const position of order(cases.length, round)) {
      const benchCase = cases[position] as BenchCase;
      options.beforeEachCase?.();
      const started = process.hrtime.bigint();
      await benchCase.fn(benchCase.operationsPerRound);
      const elapsed = Number(process.hrtime.bigint() - started);
      samples[position]?.push(elapsed / benchCase.operationsPerRound);
    }
  }
  return cases.map((benchCase, position) => {
    const perOperation = samples[position] as number[];
    const middle = median(perOperation);
    const min = Math.min(...perOperation);
    const max = Math.max(...perOperation);
    return {
      name: benchCase.name,
      medianNsPerOperation: round3(middle),
      minNsPerOperation: round3(min),
      maxNsPerOperation: round3(max),
      relativeSpread: round3((max - min) / middle),
      operationsPerRound: benchCase.operationsPerRound,
      rounds,
      samples: perOperation.map(round3),
    };
  });
}

/**
 * The median over rounds of a per-round ratio. With interleaved measurements each round's cases ran back to back,
 * so a per-round ratio cancels load that changed between rounds; its median is steadier than a ratio of medians.
 */
export function pairedRatio(perRound: (round: number) => number, rounds: number): number {
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round += 1) ratios.push(perRound(round));
  return round3(median(ratios));
}

/** `numerator / denominator` of two medians, rounded to three decimals. */
export function ratio(numerator: Measurement | number, denominator: Measurement | number): number {
  const top = typeof numerator === 'number' ? numerator : numerator.medianNsPerOperation;
  const bottom = typeof denominator === 'number' ? denominator : denominator.medianNsPerOperation;
  return round3(top / bottom);
}

/** Facts about this machine and runtime, stored with every result. */
export function machineFacts(): MachineFacts {
  const processors = cpus();
  return {
    node: process.versions.node,
    v8: process.versions.v8,
    platform: process.platform,
    arch: process.arch,
    os: `${osType()} ${release()}`,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cpuCount: processors.length,
    totalMemoryMiB: Math.round(totalmem() / 1024 / 1024),
  };
}

/** One line per measurement, aligned, for the console. */
export function formatMeasurement(measurement: Measurement): string {
  const value = measurement.medianNsPerOperation.toFixed(1).padStart(10);
  const spread = `±${(measurement.relativeSpread * 50).toFixed(1)}%`;
  return `${measurement.name.padEnd(58)} ${value} ns/op  ${spread}`;
}

/**
 * Writes `<name>.json` (pretty, newline-terminated) and returns its path: into the folder `npx --yes pnpm@12.4.2
 * bench` names (tools/bench/results only for its full pooled run), else, for a benchmark run alone, into the
 * ignored tools/bench/.runs/results.
 */
export function writeResults(name: string, results: Record<string, unknown>): string {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error('a result name is lower-case kebab');
  const directory = resultsDirectory();
  mkdirSync(directory, { recursive: true });
  const path = join(directory, `${name}.json`);
  writeFileSync(path, `${JSON.stringify({ benchmark: name, recordedAt: new Date().toISOString(), machine: machineFacts(), ...results }, null, 2)}\n`);
  return path;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
