/**
 * Interleaved measurement whose case order alternates every round (forward, then reversed), so a case never
 * always runs right after the same neighbour (whose garbage or cache state it would otherwise inherit).
 * Returns the harness's `Measurement` shape, with the per-round samples kept for paired ratios.
 */
import { measureInterleaved, type BenchCase, type Measurement } from '../harness.js';

/** Options of {@link measureAlternating}. */
export interface AlternatingOptions {
  /** Untimed rounds first. Default 2. */
  readonly warmupRounds?: number;
  /** Timed rounds. Default 7. */
  readonly rounds?: number;
  /** Run, untimed, before every timed case (e.g. a forced GC). */
  readonly beforeEachCase?: () => void;
}

/** The order of the cases in `round`: forward on even rounds, reversed on odd ones. */
export function caseOrder(count: number, round: number): number[] {
  const forward = Array.from({ length: count }, (_, position) => position);
  return round % 2 === 0 ? forward : forward.reverse();
}

/** Measures the cases round by round in alternating order; nanoseconds per operation per round. */
export function measureAlternating(cases: readonly BenchCase[], options: AlternatingOptions = {}): Promise<Measurement[]> {
  return measureInterleaved(cases, {
    warmupRounds: options.warmupRounds ?? 2,
    rounds: options.rounds ?? 7,
    order: caseOrder,
    ...(options.beforeEachCase === undefined ? {} : { beforeEachCase: options.beforeEachCase }),
  });
}
