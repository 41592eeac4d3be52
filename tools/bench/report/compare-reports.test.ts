import { describe, expect, it } from 'vitest';
import type { ReportMetric } from './bench-report.js';
import { compareReports, missedGatedTargets, worseningOf } from './compare-reports.js';

function metric(id: string, value: number, better: 'lower' | 'higher' = 'lower', unit: ReportMetric['unit'] = 'ratio'): ReportMetric {
  return { id, benchmark: 'peers', label: id, unit, better, value, spread: { median: value, p25: value, p75: value, min: value, max: value, count: 1 }, processMedians: [value] };
}

describe('worseningOf', () => {
  it('measures worsening in the direction that counts', () => {
    expect(worseningOf('lower', 2, 2.6)).toBe(0.3);
    expect(worseningOf('lower', 2, 1)).toBe(-0.5);
    expect(worseningOf('higher', 5, 4)).toBe(0.25);
    expect(worseningOf('higher', 5, 10)).toBe(-0.5);
  });
});

describe('compareReports', () => {
  it('fails a cost ratio more than 25% higher and a speedup more than 25% lower, not one within', () => {
    const baseline = { metrics: [metric('a', 2), metric('b', 2), metric('c', 5, 'higher'), metric('d', 5, 'higher')] };
    const candidate = { metrics: [metric('a', 2.49), metric('b', 2.6), metric('c', 4.1), metric('d', 3.9)] };
    const comparison = compareReports(baseline, candidate);
    expect(comparison.compared.map((entry) => [entry.id, entry.regressed])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
      ['d', true],
    ]);
    expect(comparison.regressions.map((entry) => entry.id)).toEqual(['b', 'd']);
  });

  it('compares ratios and exponents only, and lists metrics missing on either side', () => {
    const baseline = { metrics: [metric('time', 100, 'lower', 'nanoseconds'), metric('exp', 1, 'lower', 'exponent'), metric('gone', 1)] };
    const candidate = { metrics: [metric('time', 900, 'lower', 'nanoseconds'), metric('exp', 1.4, 'lower', 'exponent'), metric('new', 1)] };
    const comparison = compareReports(baseline, candidate);
    expect(comparison.compared.map((entry) => entry.id)).toEqual(['exp']);
    expect(comparison.regressions.map((entry) => entry.id)).toEqual(['exp']);
    expect(comparison.missing).toEqual(['gone']);
    expect(comparison.added).toEqual(['new']);
  });

  it('honours another tolerance', () => {
    expect(compareReports({ metrics: [metric('a', 2)] }, { metrics: [metric('a', 2.3)] }, 0.1).regressions).toHaveLength(1);
  });
});

describe('missedGatedTargets', () => {
  it('lists gated targets that are not met and nothing else', () => {
    const base = { benchmark: 'gateway', label: 'x', unit: 'microseconds', better: 'lower', spread: { count: 1, min: 1, p25: 1, median: 1, p75: 1, max: 1 }, processMedians: [1] } as unknown as ReportMetric;
    const metrics = [
      { ...base, id: 'gateway.a', value: 400, target: { comparison: 'at-most', value: 300, gated: true }, met: false },
      { ...base, id: 'gateway.b', value: 200, target: { comparison: 'at-most', value: 300, gated: true }, met: true },
      { ...base, id: 'gateway.c', value: 9, target: { comparison: 'at-most', value: 2, gated: false }, met: false },
      { ...base, id: 'gateway.d', value: 9 },
    ] as ReportMetric[];
    expect(missedGatedTargets({ metrics }).map((metric) => metric.id)).toEqual(['gateway.a']);
  });
});
