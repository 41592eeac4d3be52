import { describe, expect, it } from 'vitest';
import { quantile, summarizeGatewayRuns, type GatewayPathSpec, type PathRun } from './summarize-gateway.js';

const PATHS: GatewayPathSpec[] = [
  { id: 'floor-openai', label: 'floor', role: 'floor' },
  { id: 'ours-same', label: 'ours', role: 'ours', floor: 'floor-openai', process: 'tokenforge' },
  { id: 'portkey', label: 'portkey', role: 'peer', floor: 'floor-openai', process: 'portkey' },
];

function run(path: string, round: number, p50: number, rps: number, cpuSeconds?: number, stream = false, concurrency = 1): PathRun {
  return { path, stream, concurrency, round, completed: 100, failed: 0, requestsPerSecond: rps, latenciesMs: [p50, p50, p50 + 1], firstByteMs: [p50 / 2, p50 / 2, p50 / 2], ...(cpuSeconds === undefined ? {} : { cpuSeconds }) };
}

describe('summarizeGatewayRuns', () => {
  it('takes added latency per round against the floor of the same round, and CPU per request over all rounds', () => {
    const runs = [run('floor-openai', 0, 1, 1000), run('ours-same', 0, 1.2, 800, 0.01), run('floor-openai', 1, 3, 300), run('ours-same', 1, 3.1, 290, 0.02), run('portkey', 0, 2, 400, 0.04), run('portkey', 1, 4, 200, 0.04)];
    const summary = summarizeGatewayRuns(PATHS, runs, { streamEvents: 2000, peakRssBytes: { tokenforge: 1e8, portkey: 2e8 } });
    const ours = summary.paths.find((path) => path.id === 'ours-same');
    // Rounds add 0.2 and 0.1 ms: the median of the two (nearest rank) is 0.1, not the 1.15 ms of pooled medians.
    expect(ours?.cells[0]?.addedP50Ms).toBe(0.1);
    expect(ours?.cells[0]?.cpuPerRequestUs).toBe(150);
    const gated = summary.metrics.find((metric) => metric.id === 'ours-same.sync-c1.added-p50');
    expect(gated?.samples).toEqual([200, 100]);
    expect(gated?.target).toEqual({ comparison: 'at-most', value: 300, gated: true });
    expect(summary.metrics.find((metric) => metric.id === 'targets.cpu-vs-portkey')?.samples).toEqual([0.375]);
    expect(summary.metrics.find((metric) => metric.id === 'portkey.peak-rss')?.samples).toEqual([2e8]);
    expect(summary.metrics.some((metric) => metric.id.startsWith('floor-openai.'))).toBe(false);
  });

  it('gives streams an added time per chunk and to first byte', () => {
    const runs = [run('floor-openai', 0, 2, 100, undefined, true), run('ours-same', 0, 6, 50, 0.5, true)];
    const summary = summarizeGatewayRuns(PATHS, runs, { streamEvents: 2000, peakRssBytes: {} });
    const cell = summary.paths.find((path) => path.id === 'ours-same')?.cells[0];
    expect(cell?.addedPerChunkUs).toBe(2);
    expect(cell?.addedFirstByteP50Ms).toBe(2);
    expect(summary.metrics.find((metric) => metric.id === 'ours-same.stream-c1.added-per-chunk')?.samples).toEqual([2000]);
  });

  it('reads quantiles by nearest rank', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.99)).toBe(4);
    expect(Number.isNaN(quantile([], 0.5))).toBe(true);
  });
});
