import { describe, expect, it } from 'vitest';
import type { BenchReport, ReportMetric } from './bench-report.js';
import { formatWithSpread, renderBenchmarksMarkdown } from './render-markdown.js';

function metric(id: string, value: number, extra: Partial<ReportMetric> = {}): ReportMetric {
  return {
    id,
    benchmark: id.split('.')[0] as string,
    label: id,
    unit: 'ratio',
    better: 'lower',
    value,
    spread: { median: value, p25: value * 0.9, p75: value * 1.1, min: value * 0.8, max: value * 1.2, count: 10 },
    processMedians: [value * 0.95, value * 1.05],
    ...extra,
  };
}

function report(load: number): BenchReport {
  return {
    report: 'tokenforge-bench-report',
    version: 1,
    recordedAt: '2026-11-30T00:00:00.000Z',
    machine: { node: '20.20.2', v8: '11.3', platform: 'linux', arch: 'x64', os: 'Linux 6', cpuModel: 'Test CPU', cpuCount: 2, totalMemoryMiB: 1024 },
    loadAverage: { start: load, end: load },
    processesPerBenchmark: 3,
    durationSeconds: 300,
    quick: false,
    peerVersions: { openai: '5.23.2' },
    benchmarks: [
      { name: 'engine', status: 'ran', processes: 3 },
      { name: 'http', status: 'not-run', reason: 'tools/bench/http.bench.ts is not in this checkout', processes: 0 },
      { name: 'peers', status: 'ran', processes: 3 },
    ],
    workloads: [
      {
        id: 'openai-chat-1400',
        title: 'chat stream',
        operation: 'stream',
        cases: [
          { id: 'floor', label: 'floor', role: 'floor', medianNs: 10_000_000 },
          { id: 'tokenforge', label: 'TokenForge', role: 'ours', medianNs: 14_000_000 },
          { id: 'ai-sdk', label: 'AI SDK', role: 'peer', medianNs: 70_000_000 },
        ],
      },
    ],
    metrics: [
      metric('peers.openai-chat-1400.tokenforge-vs-floor', 1.4, { target: { comparison: 'at-most', value: 1.5, gated: true }, met: true }),
      metric('peers.openai-chat-1400.ai-sdk-vs-floor', 7),
      metric('peers.openai-chat-1400.speedup-vs-ai-sdk', 5, { better: 'higher', target: { comparison: 'at-least', value: 5, gated: false }, met: true }),
      metric('engine.engineOwnPerEventVsJsonParse', 0.3, { target: { comparison: 'at-most', value: 0.25, gated: true }, met: false }),
    ],
  };
}

describe('renderBenchmarksMarkdown', () => {
  it('shows the machine, the targets with verdicts, the workload table and the benchmarks not run', () => {
    const markdown = renderBenchmarksMarkdown(report(0.5));
    expect(markdown).toContain('| CPU | Test CPU, 2 cores |');
    expect(markdown).toContain('| Node | 20.20.2 (V8 11.3) |');
    expect(markdown).toContain('| peers: peers.openai-chat-1400.tokenforge-vs-floor | 1.40× (IQR 1.26×–1.54×) | ≤ 1.50×: **met** |');
    expect(markdown).toContain('≥ 5.00× (reported, not gated): **met**');
    expect(markdown).toContain('| engine: engine.engineOwnPerEventVsJsonParse | 0.30× (IQR 0.27×–0.33×) | ≤ 0.25×: **not met** |');
    expect(markdown).toContain('| **TokenForge** | ours | 14.0 ms | 1.40× (IQR 1.26×–1.54×) |  |');
    expect(markdown).toContain('| AI SDK | peer | 70.0 ms | 7.00× (IQR 6.30×–7.70×) | 5.00× (IQR 4.50×–5.50×) |');
    expect(markdown).toContain('| http | not-run: tools/bench/http.bench.ts is not in this checkout | 0 |');
    expect(markdown).toContain('`npx --yes pnpm@12.4.2 bench:check`');
    expect(markdown).not.toContain('Noisy run');
    expect(markdown).toContain('Its load stayed below its core count');
    expect(markdown).not.toMatch(/\n\n\n/);
  });

  it('renders a growth workload as one row per path with its exponent, and explains an untimed slow peer', () => {
    const base = report(0.5);
    const markdown = renderBenchmarksMarkdown({
      ...base,
      workloads: [
        { id: 'base64-event-4mb', title: 'big event', operation: 'stream', cases: [{ id: 'tokenforge', label: 'TokenForge', role: 'ours', medianNs: 1e6 }] },
        {
          id: 'tool-arguments',
          title: 'tool arguments',
          operation: 'stream',
          cases: [
            { id: 'tokenforge-1000', label: 'TokenForge, 1000 deltas', role: 'ours', medianNs: 1e6 },
            { id: 'tokenforge-4000', label: 'TokenForge, 4000 deltas', role: 'ours', medianNs: 4e6 },
          ],
        },
      ],
      metrics: [metric('peers.tool-arguments.tokenforge-exponent', 1, { unit: 'exponent' })],
    });
    expect(markdown).toContain('| path | 1000 deltas | 4000 deltas | exponent |');
    expect(markdown).toContain('| TokenForge | 1.0 ms | 4.0 ms | 1.00 (IQR 0.90–1.10) |');
    expect(markdown).toContain('The openai SDK is not timed on this workload by default');
  });

  it('warns when the machine was loaded beyond its cores', () => {
    const markdown = renderBenchmarksMarkdown(report(9.5));
    expect(markdown).toContain('> **Noisy run.** The load average (9.5) exceeded the core count (2)');
    expect(markdown).toContain('was loaded by other work while they were measured');
  });
});

describe('formatWithSpread', () => {
  it('omits the range for a single sample', () => {
    expect(formatWithSpread({ ...metric('x.y', 2), spread: { median: 2, p25: 2, p75: 2, min: 2, max: 2, count: 1 } })).toBe('2.00×');
  });
});

describe('renderBenchmarksMarkdown: gateways', () => {
  it('renders one row per gateway path from the gateway metrics, with the peers in the versions row', () => {
    const base = report(0.5);
    const gateway = [
      metric('gateway.ours-same.sync-c1.added-p50', 180, { unit: 'microseconds', label: 'TokenForge: OpenAI chat in, openai-chat out, sync at concurrency 1: p50 added over the floor', target: { comparison: 'at-most', value: 300, gated: true }, met: true }),
      metric('gateway.ours-same.sync-c1.cpu-per-request', 400, { unit: 'microseconds', label: 'TokenForge: OpenAI chat in, openai-chat out, sync at concurrency 1: gateway CPU time per request' }),
      metric('gateway.portkey.sync-c1.added-p50', 900, { unit: 'microseconds', label: 'Portkey 1.15.2: OpenAI chat in, openai out (custom host), sync at concurrency 1: p50 added over the floor' }),
      metric('gateway.portkey.peak-rss', 300 * 1048576, { unit: 'bytes', label: 'Portkey 1.15.2: OpenAI chat in, openai out (custom host): peak RSS of the gateway process (whole run)' }),
      metric('gateway.targets.cpu-vs-portkey', 0.4, { target: { comparison: 'at-most', value: 0.5, gated: false }, met: true }),
      metric('gateway.reference.ours-same-c1-added-p50-vs-bare-proxy', 1.4, { label: 'TokenForge same-dialect sync at concurrency 1: p50 added / the bare proxy' }),
      metric('gateway.governance.ours-same.sync-c1-added-p50', 1.2, { label: 'TokenForge same-dialect, governance on (embedded) / off: sync at concurrency 1, p50 added (per round)' }),
    ];
    const markdown = renderBenchmarksMarkdown({ ...base, peerVersions: { ...base.peerVersions, '@portkey-ai/gateway': '1.15.2' }, benchmarks: [...base.benchmarks, { name: 'gateway', status: 'ran', processes: 3 }], metrics: [...base.metrics, ...gateway] });
    expect(markdown).toContain('## Gateways over loopback HTTP');
    expect(markdown).toContain('| TokenForge: OpenAI chat in, openai-chat out | 180.0 µs | n/a | 400.0 µs |');
    expect(markdown).toContain('| Portkey 1.15.2: OpenAI chat in, openai out (custom host) | 900.0 µs |');
    expect(markdown).toContain('314,572,800 B');
    expect(markdown).toContain('@portkey-ai/gateway 1.15.2');
    expect(markdown).not.toContain('| targets |');
    // A ratio between paths is a figure, not a path: no row of n/a in the path table.
    expect(markdown).not.toMatch(/\| TokenForge same-dialect sync at concurrency 1: p50 added \/ the bare proxy \| n\/a/);
    expect(markdown).not.toMatch(/\| TokenForge same-dialect, governance on \(embedded\) \/ off: [^|]* \| n\/a/);
    expect(markdown).toContain('1.40×');
  });
});
