/**
 * Interleaved measurement whose case order alternates every round (forward, then reversed), so a case never
 * always runs right after the same neighbour (whose garbage or cache state it would otherwise inherit).
 * Returns the harness's `Measurement` shape, with the per-round samples kept for paired ratios.
 */
import type { BenchCase, Measurement } from '../harness.js';
import { median, round3 } from './statistics.js';

/** Options of {@link measureAlternating}. */
export interface AlternatingOptions {
  /** Untimed rounds first. Default 2. */
  readonly warmupRounds?: number;
  /** Timed rounds. Default 7. */
  readonly rounds?: number;
}

/** The order of the cases in `round`: forward on even rounds, reversed on odd ones. */
export function caseOrder(count: number, round: number): number[] {
  const forward = Array.from({ length: count }, (_, position) => position);
  return round % 2 === 0 ? forward : forward.reverse();
}

/** Measures the cases round by round in alternating order; nanoseconds per operation per round. */
export async function measureAlternating(cases: readonly BenchCase[], options: AlternatingOptions = {}): Promise<Measurement[]> {
  const warmupRounds = options.warmupRounds ?? 2;
  const rounds = options.rounds ?? 7;
  for (let round = 0; round < warmupRounds; round += 1) {
    for (const position of caseOrder(cases.length, round)) {
      const benchCase = cases[position] as BenchCase;
      await benchCase.fn(benchCase.operationsPerRound);
    }
  }
  const samples = cases.map((): number[] => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const position of caseOrder(cases.length, round)) {
      const benchCase = cases[position] as BenchCase;
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
