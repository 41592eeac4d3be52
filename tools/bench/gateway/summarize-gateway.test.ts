import { describe, expect, it } from 'vitest';
import { poolMetrics } from '../report/bench-report.js';
import { missedGatedTargets } from '../report/compare-reports.js';
import { GOVERNED_SUFFIX, quantile, summarizeGatewayRuns, type GatewayPathSpec, type PathRun } from './summarize-gateway.js';

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
    // The absolute 300 us gate is gone (issue #33): the gated figure is the ratio to the bare proxy.
    expect(gated?.target).toBeUndefined();
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

  describe('the targets of issue #33, gated through bench:check', () => {
    const paths: GatewayPathSpec[] = [
      { id: 'floor-openai', label: 'floor', role: 'floor' },
      { id: 'ours-same', label: 'ours', role: 'ours', floor: 'floor-openai', process: 'tokenforge' },
      { id: `ours-same${GOVERNED_SUFFIX}`, label: 'ours governed', role: 'ours', floor: 'floor-openai', process: 'tokenforge-governance' },
      { id: 'bare-node-proxy', label: 'bare', role: 'peer', floor: 'floor-openai', process: 'bare-node-proxy' },
      { id: 'portkey', label: 'portkey', role: 'peer', floor: 'floor-openai', process: 'portkey' },
    ];
    /** Two rounds of sync c1 and stream c32: ours adds `oursAdded` ms where the bare proxy adds 1 ms; CPU per request and RSS scale alike. */
    function measured(oursAdded: number, oursCpu: number, oursRss: number) {
      const runs: PathRun[] = [];
      for (const round of [0, 1]) {
        runs.push(run('floor-openai', round, 1, 1000), run('bare-node-proxy', round, 2, 900, 0.01), run('ours-same', round, 1 + oursAdded, 800, 0.01), run(`ours-same${GOVERNED_SUFFIX}`, round, 1 + oursAdded * 1.1, 700, 0.01), run('portkey', round, 4, 200, 0.04));
        runs.push(run('floor-openai', round, 10, 100, undefined, true, 32), run('bare-node-proxy', round, 11, 90, 0.1, true, 32), run('ours-same', round, 12, 80, 0.1 * oursCpu, true, 32), run(`ours-same${GOVERNED_SUFFIX}`, round, 12, 80, 0.12 * oursCpu, true, 32), run('portkey', round, 20, 50, 1, true, 32));
      }
      const { metrics } = summarizeGatewayRuns(paths, runs, { streamEvents: 2000, peakRssBytes: { tokenforge: 100e6 * oursRss, 'tokenforge-governance': 110e6 * oursRss, 'bare-node-proxy': 100e6, portkey: 200e6 } });
      return poolMetrics('gateway', [metrics]);
    }

    it('passes when ours is within 1.2x the bare proxy added p50, 6x its stream CPU and 1.3x its peak RSS', () => {
      const pooled = measured(1.1, 5, 1.25);
      const value = (id: string) => pooled.find((metric) => metric.id === `gateway.targets.${id}`);
      expect(value('sync-c1-added-p50-vs-bare-proxy')).toMatchObject({ value: 1.1, met: true, target: { comparison: 'at-most', value: 1.2, gated: true } });
      expect(value('stream-c32-cpu-vs-bare-proxy')).toMatchObject({ value: 5, met: true, target: { value: 6, gated: true } });
      expect(value('peak-rss-vs-bare-proxy')).toMatchObject({ value: 1.25, met: true, target: { value: 1.3, gated: true } });
      expect(value('stream-c32-cpu-vs-portkey')).toMatchObject({ value: 0.5, met: false, target: { gated: false } });
      expect(missedGatedTargets({ metrics: pooled })).toEqual([]);
      // Governance on beside off, reported without a target.
      expect(pooled.find((metric) => metric.id === 'gateway.governance.ours-same.stream-c32-cpu')?.value).toBe(1.2);
      expect(pooled.filter((metric) => metric.id.startsWith('gateway.governance.')).every((metric) => metric.target === undefined)).toBe(true);
      expect(pooled.find((metric) => metric.id === 'gateway.governance.ours-same.peak-rss')?.value).toBe(1.1);
      expect(pooled.find((metric) => metric.id === 'gateway.governance.ours-same.sync-c1-added-p50')?.value).toBe(1.1);
    });

    it('fails bench:check on each gated ratio that is missed', () => {
      const missed = missedGatedTargets({ metrics: measured(1.5, 8, 2.1) }).map((metric) => metric.id);
      expect(missed).toEqual(['gateway.targets.sync-c1-added-p50-vs-bare-proxy', 'gateway.targets.stream-c32-cpu-vs-bare-proxy', 'gateway.targets.peak-rss-vs-bare-proxy']);
    });
  });

  it('holds a target with an IQR limit to the spread of the pooled rounds too', () => {
    const target = { comparison: 'at-most', value: 1.4, gated: true, maxInterquartileRange: 0.1 } as const;
    const metric = (samples: number[]) => ({ id: 'chat', label: 'chat', unit: 'ratio', better: 'lower', samples, target }) as const;
    expect(poolMetrics('peers', [[metric([1.3, 1.32, 1.35])], [metric([1.31, 1.33])]])[0]).toMatchObject({ met: true });
    expect(poolMetrics('peers', [[metric([1.1, 1.2, 1.35])], [metric([1.39, 1.5])]])[0]).toMatchObject({ met: false });
    expect(missedGatedTargets({ metrics: poolMetrics('peers', [[metric([1.1, 1.2, 1.35])], [metric([1.39, 1.5])]]) })).toHaveLength(1);
  });
});
