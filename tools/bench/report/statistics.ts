/** Small order statistics for benchmark samples. */

/** The median of `values` (the mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The `q` quantile (0..1) of `values` with linear interpolation between neighbours; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] as number;
  const high = sorted[above] as number;
  return low + (high - low) * (position - below);
}

/** Rounds to three decimals. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Median, interquartile range and extremes of a sample set. */
export interface Summary {
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
  readonly min: number;
  readonly max: number;
  readonly count: number;
}

/** Summarizes `values` (rounded to three decimals). */
export function summarize(values: readonly number[]): Summary {
  return {
    median: round3(median(values)),
    p25: round3(quantile(values, 0.25)),
    p75: round3(quantile(values, 0.75)),
    min: round3(Math.min(...values)),
    max: round3(Math.max(...values)),
    count: values.length,
  };
}

/**
 * The least-squares slope of log(time) against log(size): 1 for linear growth, 2 for quadratic. Sizes and times
 * must be positive and the same length (at least two points).
 */
export function scalingExponent(sizes: readonly number[], times: readonly number[]): number {
  if (sizes.length !== times.length || sizes.length < 2) throw new Error('scaling needs two or more paired points');
  const xs = sizes.map(Math.log);
  const ys = times.map(Math.log);
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
  let numerator = 0;
  let denominator = 0;
  for (let index = 0; index < xs.length; index += 1) {
    numerator += ((xs[index] as number) - meanX) * ((ys[index] as number) - meanY);
    denominator += ((xs[index] as number) - meanX) ** 2;
  }
  return round3(numerator / denominator);
}
