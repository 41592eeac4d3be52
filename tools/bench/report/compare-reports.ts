/**
 * `npx --yes pnpm@12.4.2 bench:check`'s rule: a ratio or scaling exponent that worsened by more than the tolerance (25% by
 * default) against the committed report is a regression. Absolute figures (nanoseconds, microseconds, bytes)
 * depend on the machine and are not compared; a metric missing on either side is listed, not failed.
 */
import type { BenchReport, ReportMetric } from './bench-report.js';
import { round3 } from './statistics.js';

/** The default tolerance: 25% worse than the committed figure. */
export const DEFAULT_TOLERANCE = 0.25;

/** One compared metric. */
export interface MetricComparison {
  readonly id: string;
  readonly label: string;
  readonly better: 'lower' | 'higher';
  readonly baseline: number;
  readonly candidate: number;
  /** How much worse the candidate is, as a fraction (0.3 = 30% worse); negative when it improved. */
  readonly worsening: number;
  readonly regressed: boolean;
}

/** The outcome of a comparison. */
export interface ReportComparison {
  readonly tolerance: number;
  readonly compared: readonly MetricComparison[];
  readonly regressions: readonly MetricComparison[];
  /** Comparable metrics of the baseline that the candidate lacks (their benchmark did not run, or was renamed). */
  readonly missing: readonly string[];
  /** Comparable metrics new in the candidate. */
  readonly added: readonly string[];
}

function comparable(metric: ReportMetric): boolean {
  return (metric.unit === 'ratio' || metric.unit === 'exponent') && Number.isFinite(metric.value) && metric.value > 0;
}

/**
 * How much worse `candidate` is than `baseline`: for lower-is-better, candidate / baseline - 1; for
 * higher-is-better, baseline / candidate - 1 (so halving a speedup is as bad as doubling a cost ratio).
 */
export function worseningOf(better: 'lower' | 'higher', baseline: number, candidate: number): number {
  return round3(better === 'lower' ? candidate / baseline - 1 : baseline / candidate - 1);
}

/** Compares the candidate's ratios and exponents with the baseline's. */
export function compareReports(baseline: Pick<BenchReport, 'metrics'>, candidate: Pick<BenchReport, 'metrics'>, tolerance = DEFAULT_TOLERANCE): ReportComparison {
  const candidates = new Map(candidate.metrics.filter(comparable).map((metric) => [metric.id, metric]));
  const baselines = baseline.metrics.filter(comparable);
  const compared: MetricComparison[] = [];
  const missing: string[] = [];
  for (const before of baselines) {
    const after = candidates.get(before.id);
    if (after === undefined) {
      missing.push(before.id);
      continue;
    }
    const worsening = worseningOf(before.better, before.value, after.value);
    compared.push({ id: before.id, label: before.label, better: before.better, baseline: before.value, candidate: after.value, worsening, regressed: worsening > tolerance });
  }
  const known = new Set(baselines.map((metric) => metric.id));
  const added = [...candidates.keys()].filter((id) => !known.has(id));
  return { tolerance, compared, regressions: compared.filter((entry) => entry.regressed), missing, added };
}

/** Gated targets the report misses: `npx --yes pnpm@12.4.2 bench:check` fails on each, whatever the committed report says. */
export function missedGatedTargets(report: Pick<BenchReport, 'metrics'>): ReportMetric[] {
  return report.metrics.filter((metric) => metric.target?.gated === true && metric.met === false);
}
