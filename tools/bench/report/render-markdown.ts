/**
 * Renders `docs/benchmarks.md` from a {@link BenchReport}: the machine, the targets, one table per workload
 * (floor, ours, peers; ratios with their spread), the component benchmarks, how it was measured and how to
 * check a change. Everything below the title is generated; edit this file, not the document.
 */
import type { BenchReport, ReportMetric, ReportWorkload } from './bench-report.js';
import { DEFAULT_TOLERANCE } from './compare-reports.js';

function formatDuration(nanoseconds: number): string {
  if (!Number.isFinite(nanoseconds)) return 'n/a';
  if (nanoseconds >= 1e9) return `${(nanoseconds / 1e9).toFixed(2)} s`;
  if (nanoseconds >= 1e6) return `${(nanoseconds / 1e6).toFixed(1)} ms`;
  if (nanoseconds >= 1e3) return `${(nanoseconds / 1e3).toFixed(1)} µs`;
  return `${nanoseconds.toFixed(0)} ns`;
}

function formatNumber(value: number, unit: ReportMetric['unit']): string {
  if (!Number.isFinite(value)) return 'n/a';
  switch (unit) {
    case 'ratio':
      return `${value.toFixed(2)}×`;
    case 'exponent':
      return value.toFixed(2);
    case 'nanoseconds':
      return formatDuration(value);
    case 'microseconds':
      return formatDuration(value * 1000);
    case 'bytes':
      return `${Math.round(value).toLocaleString('en-US')} B`;
    default: {
      const exhausted: never = unit;
      return String(exhausted);
    }
  }
}

/** `2.91× (IQR 2.60–3.30)`: the median with the interquartile range of the pooled samples. */
export function formatWithSpread(metric: ReportMetric): string {
  const value = formatNumber(metric.value, metric.unit);
  if (metric.spread.count < 2) return value;
  return `${value} (IQR ${formatNumber(metric.spread.p25, metric.unit)}–${formatNumber(metric.spread.p75, metric.unit)})`;
}

function formatTarget(metric: ReportMetric): string {
  if (metric.target === undefined) return '';
  const sign = metric.target.comparison === 'at-most' ? '≤' : '≥';
  const verdict = metric.met === true ? 'met' : 'not met';
  const iqr = metric.target.maxInterquartileRange === undefined ? '' : `, IQR ≤ ${formatNumber(metric.target.maxInterquartileRange, metric.unit)}`;
  return `${sign} ${formatNumber(metric.target.value, metric.unit)}${iqr}${metric.target.gated ? '' : ' (reported, not gated)'}: **${verdict}**`;
}

/** The gateway benchmark's table: one row per path, from its metrics (`<path>.<mode>-c<N>.<figure>`). */
function gatewaySection(report: BenchReport, metrics: ReadonlyMap<string, ReportMetric>): string[] {
  const own = report.metrics.filter((metric) => metric.benchmark === 'gateway');
  if (own.length === 0) return [];
  const paths = [...new Set(own.map((metric) => metric.id.split('.')[1] ?? '').filter((id) => id !== 'targets' && id !== 'reference' && id !== 'governance' && id.length > 0))];
  const cell = (path: string, figure: string): string => {
    const metric = metrics.get(`gateway.${path}.${figure}`);
    return metric === undefined ? 'n/a' : formatNumber(metric.value, metric.unit);
  };
  const labelOf = (path: string): string => (own.find((metric) => metric.id.startsWith(`gateway.${path}.`))?.label ?? path).replace(/, (sync|stream) at concurrency .*$/, '').replace(/: peak RSS.*$/, '');
  return [
    '## Gateways over loopback HTTP',
    '',
    'Added over the floor (the client calling the upstream directly) in the same round; CPU is the gateway process\'s',
    'own time per request. Streams are 2,000 chunks.',
    '',
    ...table(
      ['path', 'sync c1 +p50', 'sync c1 +p99', 'sync c1 CPU/req', 'sync c32 CPU/req', 'stream c1 +per chunk', 'stream c1 +first byte', 'stream c1 CPU/req', 'peak RSS'],
      paths.map((path) => [
        labelOf(path),
        cell(path, 'sync-c1.added-p50'),
        cell(path, 'sync-c1.added-p99'),
        cell(path, 'sync-c1.cpu-per-request'),
        cell(path, 'sync-c32.cpu-per-request'),
        cell(path, 'stream-c1.added-per-chunk'),
        cell(path, 'stream-c1.added-first-byte'),
        cell(path, 'stream-c1.cpu-per-request'),
        cell(path, 'peak-rss'),
      ]),
    ),
    '',
  ];
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`, ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`)];
}

function workloadTable(workload: ReportWorkload, metrics: ReadonlyMap<string, ReportMetric>): string[] {
  const rows = workload.cases.map((workloadCase) => {
    const vsFloor = metrics.get(`peers.${workload.id}.${workloadCase.id}-vs-floor`);
    const speedup = metrics.get(`peers.${workload.id}.speedup-vs-${workloadCase.id}`);
    const name = workloadCase.role === 'ours' ? `**${workloadCase.label}**` : workloadCase.label;
    return [
      name,
      workloadCase.role,
      formatDuration(workloadCase.medianNs),
      workloadCase.role === 'floor' ? '1×' : vsFloor === undefined ? '' : formatWithSpread(vsFloor),
      speedup === undefined ? '' : formatWithSpread(speedup),
    ];
  });
  return [`### ${workload.title}`, '', ...table(['path', 'role', `time per ${workload.operation}`, 'vs floor', 'ours faster by'], rows), ''];
}

/** A table of one path per row and one size per column, with the path's fitted exponent. */
function growthSection(workload: ReportWorkload | undefined, metrics: ReadonlyMap<string, ReportMetric>, sizeUnit: string, note: string): string[] {
  if (workload === undefined) return [];
  const paths = new Map<string, { label: string; cells: string[] }>();
  const sizes: string[] = [];
  for (const workloadCase of workload.cases) {
    const cut = workloadCase.id.lastIndexOf('-');
    const [pathId, size] = [workloadCase.id.slice(0, cut), workloadCase.id.slice(cut + 1)];
    if (!sizes.includes(size)) sizes.push(size);
    const entry = paths.get(pathId) ?? { label: workloadCase.label.replace(/, \d+ (deltas|KB event)$/, ''), cells: [] };
    entry.cells.push(formatDuration(workloadCase.medianNs));
    paths.set(pathId, entry);
  }
  const rows = [...paths].map(([pathId, entry]) => {
    const exponent = metrics.get(`peers.${workload.id}.${pathId}-exponent`);
    return [entry.label, ...entry.cells, exponent === undefined ? '' : formatWithSpread(exponent)];
  });
  return [`### ${workload.title}`, '', note, '', ...table(['path', ...sizes.map((size) => `${size} ${sizeUnit}`), 'exponent'], rows), ''];
}

const SLOW_OPENAI_SDK_NOTE = [
  'The openai SDK is not timed on this workload by default: its SSE line decoder copies its whole buffer and scans',
  'it again from the start on every read, so one event of n bytes in 1 KB reads costs time in proportion to n²',
  '(see the next table). A single 4 MB pass took 193 s on this machine while it was loaded.',
  '`npx --yes pnpm@12.4.2 bench:peers -- --with-slow-peers` times it anyway.',
].join('\n');

function syncSection(report: BenchReport, metrics: ReadonlyMap<string, ReportMetric>): string[] {
  const workload = report.workloads.find((candidate) => candidate.id === 'sync-chat');
  if (workload === undefined) return [];
  const p50 = metrics.get('peers.sync-chat.tokenforge-p50');
  const p99 = metrics.get('peers.sync-chat.tokenforge-p99');
  const rows = workload.cases.map((workloadCase) => {
    const speedup = metrics.get(`peers.sync-chat.p50-speedup-vs-${workloadCase.id}`);
    return [workloadCase.role === 'ours' ? `**${workloadCase.label}**` : workloadCase.label, workloadCase.role, formatDuration(workloadCase.medianNs), speedup === undefined ? '' : formatWithSpread(speedup)];
  });
  return [
    `### ${workload.title}`,
    '',
    ...(p50 !== undefined && p99 !== undefined
      ? [`Through the engine: p50 **${formatWithSpread(p50)}**, p99 **${formatWithSpread(p99)}** (per process, median over processes).`, '']
      : []),
    ...table(['path', 'role', 'p50 per call', 'ours faster by (p50)'], rows),
    '',
  ];
}

/** The whole document. */
export function renderBenchmarksMarkdown(report: BenchReport): string {
  const metrics = new Map(report.metrics.map((metric) => [metric.id, metric]));
  const machine = report.machine;
  const lines: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npx --yes pnpm@12.4.2 bench` (tools/bench/run-all.ts and tools/bench/report/render-markdown.ts). Do not edit by hand. -->',
    '',
    'How fast TokenForge turns provider bytes into validated events, next to the cheapest possible parse of the same',
    'bytes (the floor) and next to the client libraries an application would otherwise use. Absolute times depend on',
    'the machine; the ratios measured in the same process, round by round, are the figures to compare.',
    '',
    '## Latest run',
    '',
    ...table(
      ['fact', 'value'],
      [
        ['recorded', report.recordedAt],
        ['CPU', `${machine.cpuModel}, ${machine.cpuCount} cores`],
        ['memory', `${machine.totalMemoryMiB} MiB`],
        ['Node', `${machine.node} (V8 ${machine.v8})`],
        ['OS', `${machine.os} (${machine.platform} ${machine.arch})`],
        ['load average (1 min) at start / end', `${report.loadAverage.start.toFixed(1)} / ${report.loadAverage.end.toFixed(1)}`],
        ['processes per benchmark', `${report.processesPerBenchmark}${report.quick ? ' (quick run)' : ''}`],
        ['duration', `${Math.round(report.durationSeconds)} s`],
        ['peers', Object.entries(report.peerVersions).map(([name, version]) => `${name} ${version}`).join(', ') || 'not run'],
      ],
    ),
    '',
    ...(report.loadAverage.start > machine.cpuCount
      ? [
          `> **Noisy run.** The load average (${report.loadAverage.start.toFixed(1)}) exceeded the core count (${machine.cpuCount}) while this was measured:`,
          '> other processes shared the CPU, so absolute times are inflated and the ratios have wide spreads. A run on a',
          '> quiet machine will replace these figures.',
          '',
        ]
      : []),
    '## Targets',
    '',
    ...table(
      ['figure', 'measured', 'target'],
      report.metrics.filter((metric) => metric.target !== undefined).map((metric) => [`${metric.benchmark}: ${metric.label}`, formatWithSpread(metric), formatTarget(metric)]),
    ),
    '',
    '## Benchmarks run',
    '',
    ...table(
      ['benchmark', 'status', 'processes'],
      report.benchmarks.map((benchmark) => [benchmark.name, benchmark.status === 'ran' ? 'ran' : `${benchmark.status}${benchmark.reason === undefined ? '' : `: ${benchmark.reason}`}`, String(benchmark.processes)]),
    ),
    '',
    '## Workloads: floor, TokenForge and peers on the same bytes',
    '',
    '"vs floor" is each path\'s time over the floor\'s in the same round; "ours faster by" is the peer\'s time over',
    "TokenForge's in the same round (above 1: TokenForge is faster). Each shows the median over all rounds of all",
    'processes, with the interquartile range (IQR).',
    '',
  ];
  const workloadById = (id: string): ReportWorkload | undefined => report.workloads.find((candidate) => candidate.id === id);
  for (const workload of report.workloads) {
    if (['tool-arguments', 'sync-chat', 'base64-event-growth'].includes(workload.id)) continue;
    lines.push(...workloadTable(workload, metrics));
    if (workload.id === 'base64-event-4mb' && !workload.cases.some((workloadCase) => workloadCase.id === 'openai-sdk')) lines.push(SLOW_OPENAI_SDK_NOTE, '');
  }
  lines.push(
    ...growthSection(workloadById('base64-event-growth'), metrics, 'KB', 'One pass per size and process; the exponent is the slope of log(time) over log(event size) (1 is linear, 2 quadratic).'),
    ...growthSection(
      workloadById('tool-arguments'),
      metrics,
      'deltas',
      'Time per stream; the exponent is the slope of log(time) over log(deltas), fitted per round (1 is linear, 2 quadratic).',
    ),
    ...syncSection(report, metrics),
  );
  const heap = metrics.get('peers.heap.retained-after-100-streams');
  if (heap !== undefined) {
    lines.push('### Memory', '', `${heap.label}: **${formatWithSpread(heap)}** per process (${formatTarget(heap)}).`, '');
  }
  if (report.workloads.length === 0) lines.push('The peers benchmark did not run.', '');

  lines.push(...gatewaySection(report, metrics));
  lines.push('## Component benchmarks', '', 'Ratios each component benchmark reports, median over processes (range over processes).', '');
  for (const benchmark of report.benchmarks.filter((candidate) => candidate.name !== 'peers')) {
    const own = report.metrics.filter((metric) => metric.benchmark === benchmark.name);
    lines.push(`### ${benchmark.name}`, '');
    if (benchmark.status !== 'ran' || own.length === 0) {
      lines.push(`Not run${benchmark.reason === undefined ? '' : `: ${benchmark.reason}`}.`, '');
      continue;
    }
    lines.push(
      ...table(
        ['figure', 'median', 'range over processes', 'target'],
        own.map((metric) => [
          metric.label,
          formatNumber(metric.value, metric.unit),
          `${formatNumber(Math.min(...metric.processMedians), metric.unit)}–${formatNumber(Math.max(...metric.processMedians), metric.unit)}`,
          formatTarget(metric),
        ]),
      ),
      '',
    );
  }

  lines.push(
    '## How measured',
    '',
    '- Every path reads the same pre-split bytes. The peers get them from a custom `fetch` that answers with a',
    '  `Response` over a `ReadableStream` of the reads; TokenForge gets the same `ReadableStream` from an in-memory',
    '  `ProviderTransport`; the floor iterates the same stream and does only UTF-8 decoding, line splitting and',
    '  `JSON.parse` of each `data:` line. No sockets are involved (the http benchmark measures those).',
    '- TokenForge\'s figure is `engine.execute` with the family adapter and full validation, every event iterated',
    '  and the terminal awaited. Peers are used the way their documentation shows: `@ai-sdk/openai` through the',
    '  provider model (`doStream`, `doGenerate`, `doEmbed`) and through `streamText` from `ai`; `openai` and',
    '  `@anthropic-ai/sdk` through their stream iterators and `create` calls, with retries off.',
    '- The cases of a workload run interleaved, their order reversed every other round, after warm-up rounds;',
    '  ratios are taken per round (so load that comes and goes hits both sides) and the median is reported with its',
    '  interquartile range. `npx --yes pnpm@12.4.2 bench` runs every benchmark in several fresh processes and pools their rounds.',
    '- Sync latency times each call on its own (5,000 calls per path, in alternating blocks of 500). The heap figure',
    '  is `heapUsed` after forced collections, after 100 streams, minus the same before them.',
    '- The gateway benchmark runs a canned upstream and a load generator (node:http, keep-alive) in processes of',
    '  their own; each gateway (ours, Portkey with its custom host, claude-code-router) is its own process, pinned to',
    '  core 0 with the upstream and the load generator on core 1 when `taskset` exists. Paths alternate order each',
    '  round; added latency is the path\'s p50 (or p99) minus the floor\'s in the same round; CPU per request is',
    '  `utime + stime` of the gateway process from `/proc/PID/stat` over the requests it completed; peak RSS is `VmHWM`.',
    '- The codecs benchmark measures the same openai-chat stream against a floor that reads an async generator of',
    '  the reads; the floor here reads a `ReadableStream`, which costs more per read. The same TokenForge time is',
    '  therefore a larger multiple of the codecs floor than of this one; both are reported as measured.',
    ...(report.loadAverage.start > machine.cpuCount || report.loadAverage.end > machine.cpuCount
      ? [
          '- The machine these figures come from was loaded by other work while they were measured (see the load',
          '  average above): expect wide spreads and inflated absolute times. Compare ratios, not times, and re-run on',
          '  a quiet machine before drawing conclusions from a small difference.',
        ]
      : [
          '- The machine these figures come from is shared with other work. Its load stayed below its core count at the',
          '  start and end of this run (see above), but load that came and went in between is not recorded: the',
          '  interquartile ranges show how steady each ratio was. Compare ratios, not times.',
        ]),
    '',
    '## Running and checking',
    '',
    '- `npx --yes pnpm@12.4.2 bench` runs every benchmark (engine, codecs, http, peers, gateway) in fresh processes, then writes',
    '  `tools/bench/results/bench-report.json` and this page. A component benchmark whose file is not there is listed',
    '  as not run. `npx --yes pnpm@12.4.2 bench -- --processes=1 --quick` gives a fast smoke run. Only the full pooled run',
    '  (no `--quick`, `--out` or `--only`, two processes or more) writes the committed files; every other run writes its',
    '  results, report and page under the ignored `tools/bench/.runs/`.',
    '- `npx --yes pnpm@12.4.2 bench:engine`, `npx --yes pnpm@12.4.2 bench:codecs`, `npx --yes pnpm@12.4.2 bench:http`, `npx --yes pnpm@12.4.2 bench:peers` and `npx --yes pnpm@12.4.2 bench:gateway` run one',
    '  benchmark once, writing under `tools/bench/.runs/results/` (`bench:gateway` installs its peers on first use from',
    '  `tools/bench/gateway-peers` and runs the built gateway CLI, building it when the build is stale).',
    `- \`npx --yes pnpm@12.4.2 bench:check\` measures again (or reads a report given with \`--report=<file>\`) and compares every ratio and`,
    `  scaling exponent with the committed \`tools/bench/results/bench-report.json\`; it fails when one is more than`,
    `  ${Math.round(DEFAULT_TOLERANCE * 100)}% worse (a cost ratio ${Math.round(DEFAULT_TOLERANCE * 100)}% higher, or a speedup that much lower). Absolute times are not`,
    '  compared. It also fails when the new measurement misses a gated target. Run it before and after a change to a hot path, on a quiet machine; it is not part of CI because',
    '  shared CI machines are too noisy for a 25% rule. Commit a refreshed report when a change moves the figures on',
    '  purpose.',
    '',
  );
  return `${lines.join('\n')}\n`.replace(/\n{3,}/g, '\n\n');
}
