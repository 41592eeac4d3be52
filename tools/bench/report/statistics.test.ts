import { describe, expect, it } from 'vitest';
import { median, quantile, scalingExponent, summarize } from './statistics.js';
import { caseOrder } from './measure-alternating.js';

describe('statistics', () => {
  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('interpolates quantiles between neighbours', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([10, 20], 0.75)).toBe(17.5);
  });

  it('summarizes with quartiles and extremes', () => {
    expect(summarize([5, 1, 3, 2, 4])).toEqual({ median: 3, p25: 2, p75: 4, min: 1, max: 5, count: 5 });
  });

  it('fits the scaling exponent on a log-log scale', () => {
    expect(scalingExponent([1000, 4000, 16000], [1, 4, 16])).toBe(1);
    expect(scalingExponent([1000, 4000, 16000], [1, 16, 256])).toBe(2);
    expect(() => scalingExponent([1000], [1])).toThrow();
  });
});

describe('caseOrder', () => {
  it('runs forward on even rounds and reversed on odd ones', () => {
    expect(caseOrder(3, 0)).toEqual([0, 1, 2]);
    expect(caseOrder(3, 1)).toEqual([2, 1, 0]);
    expect(caseOrder(3, 2)).toEqual([0, 1, 2]);
  });
});
