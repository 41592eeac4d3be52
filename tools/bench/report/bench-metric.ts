/**
 * The figures a benchmark hands to the report: one metric per comparable number, with its per-round samples so
 * the report can pool rounds of several processes. `npx --yes pnpm@12.4.2 bench` aggregates them into
 * tools/bench/results/bench-report.json; `npx --yes pnpm@12.4.2 bench:check` compares them with the committed report.
 */

/** What a metric measures; only `ratio` and `exponent` metrics are compared by `bench:check`. */
export type BenchMetricUnit = 'ratio' | 'exponent' | 'nanoseconds' | 'microseconds' | 'bytes';

/** A target a metric is held to. */
export interface BenchMetricTarget {
  /** `at-most`: the value must not exceed `value`; `at-least`: it must reach it. */
  readonly comparison: 'at-most' | 'at-least';
  readonly value: number;
  /** Whether missing the target is a failure of the benchmark (false: reported only). */
  readonly gated: boolean;
  /**
   * The widest interquartile range (p75 - p25) of the pooled samples the target allows, for a figure that must be
   * stable as well as low; absent when only the median counts.
   */
  readonly maxInterquartileRange?: number;
}

/** One metric of one benchmark process. */
export interface BenchMetric {
  /** Stable key, unique within its benchmark (`workload.figure`); the report prefixes the benchmark name. */
  readonly id: string;
  /** What the number is, for people. */
  readonly label: string;
  readonly unit: BenchMetricUnit;
  /** Which direction is an improvement. */
  readonly better: 'lower' | 'higher';
  /** Per-round values of this process (one value when the benchmark gives no rounds). */
  readonly samples: readonly number[];
  readonly target?: BenchMetricTarget;
}

/**
 * Whether `value` meets `target`; with `interquartileRange` (of the pooled samples), also the target's limit on
 * it when it has one.
 */
export function meetsTarget(value: number, target: BenchMetricTarget, interquartileRange?: number): boolean {
  const level = target.comparison === 'at-most' ? value <= target.value : value >= target.value;
  if (target.maxInterquartileRange === undefined || interquartileRange === undefined) return level;
  return level && interquartileRange <= target.maxInterquartileRange + 1e-9;
}
