import { describe, expect, it } from 'vitest';
import type { BenchMetric } from './bench-metric.js';
import { classifyRatio, componentTargets, flattenNumbers, metricsOf, poolMetrics, poolWorkloads } from './bench-report.js';

describe('flattenNumbers', () => {
  it('keys nested numbers by dotted path and array elements by their stream or name', () => {
    const flat = flattenNumbers({
      fullPathVsFloor: { 'openai-chat text, 1400-byte reads': 2.9 },
      toolArgumentScaling: [{ stream: 'anthropic', exponent: 0.8 }, { other: 3 }],
      skipped: 'text',
      infinite: Number.POSITIVE_INFINITY,
    });
    expect([...flat]).toEqual([
      ['fullPathVsFloor.openai-chat text, 1400-byte reads', 2.9],
      ['toolArgumentScaling.anthropic.exponent', 0.8],
      ['toolArgumentScaling.1.other', 3],
    ]);
  });
});

describe('classifyRatio', () => {
  it('tells units and directions apart by the leaf name', () => {
    expect(classifyRatio('a.fullPathVsFloor')).toEqual({ unit: 'ratio', better: 'lower' });
    expect(classifyRatio('toolArgumentScaling.anthropic.exponent')).toEqual({ unit: 'exponent', better: 'lower' });
    expect(classifyRatio('components.sseParserPushNsPerEvent')).toEqual({ unit: 'nanoseconds', better: 'lower' });
    expect(classifyRatio('engineOwnPerEventNs')).toEqual({ unit: 'nanoseconds', better: 'lower' });
    expect(classifyRatio('x.speedupVsPeer')).toEqual({ unit: 'ratio', better: 'higher' });
  });
});

describe('componentTargets', () => {
  it('applies a target named like a ratio, and maps the codecs benchmark names', () => {
    const engine = componentTargets({ target: { engineOwnPerEventVsJsonParse: 0.25 } }, ['engineOwnPerEventVsJsonParse', 'other']);
    expect([...engine]).toEqual([['engineOwnPerEventVsJsonParse', { comparison: 'at-most', value: 0.25, gated: true }]]);
    const codecs = componentTargets({ target: { fullPathVsFloorAt1400ByteReads: 1.5, toolArgumentTimeRatio4kOver1k: 4.5 } }, [
      'fullPathVsFloor.openai-chat text, 1400-byte reads',
      'fullPathVsFloor.openai-chat text, 64-byte reads',
      'toolArgumentScaling.anthropic.timeRatio4kOver1k',
      'toolArgumentScaling.anthropic.exponent',
    ]);
    expect([...codecs.keys()]).toEqual(['fullPathVsFloor.openai-chat text, 1400-byte reads', 'toolArgumentScaling.anthropic.timeRatio4kOver1k']);
  });
});

describe('metricsOf', () => {
  it('takes a benchmark metrics list as it is', () => {
    const metric: BenchMetric = { id: 'w.x', label: 'x', unit: 'ratio', better: 'lower', samples: [1, 2] };
    expect(metricsOf({ metrics: [metric], ratios: { other: 1 } })).toEqual([metric]);
  });

  it('turns a component benchmark ratios object into one-sample metrics with its targets', () => {
    expect(metricsOf({ target: { base64VsFloor: 1.2 }, ratios: { base64VsFloor: 2.7 } })).toEqual([
      { id: 'base64VsFloor', label: 'base64VsFloor', unit: 'ratio', better: 'lower', samples: [2.7], target: { comparison: 'at-most', value: 1.2, gated: true } },
    ]);
  });
});

describe('metricsFromHttp', () => {
  it('turns the http latencies into engine-over-bare ratios and added microseconds with the 0.3 ms target', () => {
    const results = {
      syncConcurrency1: { bare: { p50Ms: 0.5 }, engine: { p50Ms: 0.75 }, addedP50Ms: 0.25, addedP99Ms: 2 },
      stream2000Chunks: { bareMsPerStream: 20, engineMsPerStream: 30 },
    };
    expect(metricsOf(results)).toEqual([
      { id: 'sync-c1.engine-vs-bare-p50', label: expect.any(String), unit: 'ratio', better: 'lower', samples: [1.5] },
      { id: 'sync-c1.added-p50', label: expect.any(String), unit: 'microseconds', better: 'lower', samples: [250], target: { comparison: 'at-most', value: 300, gated: true } },
      { id: 'sync-c1.added-p99', label: expect.any(String), unit: 'microseconds', better: 'lower', samples: [2000] },
      { id: 'stream-2000.engine-vs-bare', label: expect.any(String), unit: 'ratio', better: 'lower', samples: [1.5] },
    ]);
  });
});

describe('poolMetrics', () => {
  it('pools samples of every process, keeps each process median and judges the target on the pooled median', () => {
    const process = (samples: number[]): BenchMetric[] => [
      { id: 'chat.vs-floor', label: 'chat', unit: 'ratio', better: 'lower', samples, target: { comparison: 'at-most', value: 1.5, gated: true } },
    ];
    const [pooled] = poolMetrics('peers', [process([1, 2, 3]), process([4, 5, 6])]);
    expect(pooled).toMatchObject({
      id: 'peers.chat.vs-floor',
      benchmark: 'peers',
      value: 3.5,
      processMedians: [2, 5],
      spread: { min: 1, max: 6, count: 6 },
      met: false,
    });
  });
});

describe('poolWorkloads', () => {
  it('takes each case median over processes', () => {
    const table = (floor: number) => ({ id: 'w', title: 'W', operation: 'stream', cases: [{ id: 'floor', label: 'floor', role: 'floor', medianNs: floor }] });
    expect(poolWorkloads([{ workloads: [table(10)] }, { workloads: [table(30)] }, { workloads: [table(20)] }])).toEqual([
      { id: 'w', title: 'W', operation: 'stream', cases: [{ id: 'floor', label: 'floor', role: 'floor', medianNs: 20 }] },
    ]);
  });
});
