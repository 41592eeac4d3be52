/**
 * Turns the raw load runs of `npx --yes pnpm@12.4.2 bench:gateway` into per-path figures and report metrics: added latency over
 * the path's floor (per round, then the median), requests per second, CPU time per request, peak RSS, and for
 * streams the added time per chunk and to first byte. Pure: no I/O.
 */
import type { BenchMetric } from '../report/bench-metric.js';

/** A measured path. */
export interface GatewayPathSpec {
  readonly id: string;
  readonly label: string;
  readonly role: 'floor' | 'ours' | 'peer';
  /** The floor path it is compared with (absent for floors). */
  readonly floor?: string;
  /** The gateway process serving it (absent for floors). */
  readonly process?: string;
}

/** One bounded load run of one path. */
export interface PathRun {
  readonly path: string;
  readonly stream: boolean;
  readonly concurrency: number;
  readonly round: number;
  readonly completed: number;
  readonly failed: number;
  readonly requestsPerSecond: number;
  /** Sorted. */
  readonly latenciesMs: readonly number[];
  /** Sorted. */
  readonly firstByteMs: readonly number[];
  /** CPU seconds the path's gateway process used during the run. */
  readonly cpuSeconds?: number;
}

/** The figures of one path in one cell (sync or stream, one concurrency). */
export interface PathCell {
  readonly mode: 'sync' | 'stream';
  readonly concurrency: number;
  readonly completed: number;
  readonly failed: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly firstByteP50Ms: number;
  readonly requestsPerSecond: number;
  readonly addedP50Ms?: number;
  readonly addedP99Ms?: number;
  readonly addedFirstByteP50Ms?: number;
  /** Streams: added p50 per event, microseconds. */
  readonly addedPerChunkUs?: number;
  /** CPU time of the gateway process per completed request, microseconds. */
  readonly cpuPerRequestUs?: number;
}

/** One path's figures. */
export interface PathSummary extends GatewayPathSpec {
  readonly cells: readonly PathCell[];
  /** Highest requests per second over the concurrencies, sync and stream. */
  readonly saturationRps: { readonly sync: number; readonly stream: number };
  readonly peakRssBytes?: number;
}

/** Options of {@link summarizeGatewayRuns}. */
export interface SummarizeOptions {
  readonly streamEvents: number;
  /** Peak RSS per gateway process. */
  readonly peakRssBytes: Readonly<Record<string, number>>;
}

/** The value at quantile `q` of a sorted list (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

function median(values: readonly number[]): number {
  return quantile([...values].sort((left, right) => left - right), 0.5);
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function merged(runs: readonly PathRun[], pick: (run: PathRun) => readonly number[]): number[] {
  return runs.flatMap(pick).sort((left, right) => left - right);
}

/** Summaries per path and the report metrics. */
export function summarizeGatewayRuns(
  paths: readonly GatewayPathSpec[],
  runs: readonly PathRun[],
  options: SummarizeOptions,
): { paths: PathSummary[]; metrics: BenchMetric[]; consoleLines: string[] } {
  const metrics: BenchMetric[] = [];
  const lines: string[] = [];
  const of = (path: string, stream: boolean, concurrency: number): PathRun[] =>
    runs.filter((run) => run.path === path && run.stream === stream && run.concurrency === concurrency && run.completed > 0);
  /** Per-round `figure(path) - figure(floor)` for rounds both completed. */
  const perRound = (path: string, floor: string, stream: boolean, concurrency: number, figure: (run: PathRun) => number): number[] => {
    const floorRuns = of(floor, stream, concurrency);
    return of(path, stream, concurrency).flatMap((run) => {
      const partner = floorRuns.find((candidate) => candidate.round === run.round);
      return partner === undefined ? [] : [figure(run) - figure(partner)];
    });
  };
  const cells = new Map<string, PathCell>();
  const cellKey = (path: string, mode: string, concurrency: number): string => `${path}|${mode}|${concurrency}`;
  const modes = [...new Set(runs.map((run) => run.stream))];
  const concurrencies = [...new Set(runs.map((run) => run.concurrency))].sort((left, right) => left - right);

  const summaries = paths.map((path): PathSummary => {
    const pathCells: PathCell[] = [];
    for (const stream of modes) {
      for (const concurrency of concurrencies) {
        const own = runs.filter((run) => run.path === path.id && run.stream === stream && run.concurrency === concurrency);
        if (own.length === 0) continue;
        const mode = stream ? 'stream' : 'sync';
        const latencies = merged(own, (run) => run.latenciesMs);
        const firstBytes = merged(own, (run) => run.firstByteMs);
        const completed = own.reduce((sum, run) => sum + run.completed, 0);
        const cpu = own.every((run) => run.cpuSeconds !== undefined) ? own.reduce((sum, run) => sum + (run.cpuSeconds ?? 0), 0) : undefined;
        const p50 = (run: PathRun): number => quantile(run.latenciesMs, 0.5);
        const p99 = (run: PathRun): number => quantile(run.latenciesMs, 0.99);
        const ttfb = (run: PathRun): number => quantile(run.firstByteMs, 0.5);
        const addedP50 = path.floor === undefined ? [] : perRound(path.id, path.floor, stream, concurrency, p50);
        const addedP99 = path.floor === undefined ? [] : perRound(path.id, path.floor, stream, concurrency, p99);
        const addedTtfb = path.floor === undefined ? [] : perRound(path.id, path.floor, stream, concurrency, ttfb);
        const cell: PathCell = {
          mode,
          concurrency,
          completed,
          failed: own.reduce((sum, run) => sum + run.failed, 0),
          p50Ms: round3(quantile(latencies, 0.5)),
          p99Ms: round3(quantile(latencies, 0.99)),
          firstByteP50Ms: round3(quantile(firstBytes, 0.5)),
          requestsPerSecond: round3(median(own.map((run) => run.requestsPerSecond))),
          ...(addedP50.length === 0 ? {} : { addedP50Ms: round3(median(addedP50)), addedP99Ms: round3(median(addedP99)), addedFirstByteP50Ms: round3(median(addedTtfb)) }),
          ...(stream && addedP50.length > 0 ? { addedPerChunkUs: round3((median(addedP50) * 1000) / options.streamEvents) } : {}),
          ...(cpu === undefined || completed === 0 ? {} : { cpuPerRequestUs: round3((cpu * 1e6) / completed) }),
        };
        cells.set(cellKey(path.id, mode, concurrency), cell);
        pathCells.push(cell);
        if (path.role === 'floor') continue;
        const prefix = `${path.id}.${mode}-c${concurrency}`;
        const gated = path.id === 'ours-same' && mode === 'sync' && concurrency === 1;
        if (addedP50.length > 0) {
          metrics.push({
            id: `${prefix}.added-p50`,
            label: `${path.label}, ${mode} at concurrency ${concurrency}: p50 added over the floor`,
            unit: 'microseconds',
            better: 'lower',
            samples: addedP50.map((value) => round3(value * 1000)),
            ...(gated ? { target: { comparison: 'at-most', value: 300, gated: true } } : {}),
          });
          metrics.push({ id: `${prefix}.added-p99`, label: `${path.label}, ${mode} at concurrency ${concurrency}: p99 added over the floor`, unit: 'microseconds', better: 'lower', samples: addedP99.map((value) => round3(value * 1000)) });
        }
        if (stream && addedP50.length > 0) {
          metrics.push({ id: `${prefix}.added-per-chunk`, label: `${path.label}, stream at concurrency ${concurrency}: p50 added per chunk`, unit: 'nanoseconds', better: 'lower', samples: addedP50.map((value) => round3((value * 1e6) / options.streamEvents)) });
          metrics.push({ id: `${prefix}.added-first-byte`, label: `${path.label}, stream at concurrency ${concurrency}: time to first byte added`, unit: 'microseconds', better: 'lower', samples: addedTtfb.map((value) => round3(value * 1000)) });
        }
        if (cell.cpuPerRequestUs !== undefined) {
          metrics.push({ id: `${prefix}.cpu-per-request`, label: `${path.label}, ${mode} at concurrency ${concurrency}: gateway CPU time per request`, unit: 'microseconds', better: 'lower', samples: [cell.cpuPerRequestUs] });
        }
      }
    }
    const saturation = (mode: 'sync' | 'stream'): number => Math.max(0, ...pathCells.filter((cell) => cell.mode === mode).map((cell) => cell.requestsPerSecond));
    const rss = path.process === undefined ? undefined : options.peakRssBytes[path.process];
    if (rss !== undefined && Number.isFinite(rss) && path.role !== 'floor') metrics.push({ id: `${path.id}.peak-rss`, label: `${path.label}: peak RSS of the gateway process (whole run)`, unit: 'bytes', better: 'lower', samples: [rss] });
    return { ...path, cells: pathCells, saturationRps: { sync: saturation('sync'), stream: saturation('stream') }, ...(rss === undefined ? {} : { peakRssBytes: rss }) };
  });

  const cell = (path: string, mode: 'sync' | 'stream', concurrency: number): PathCell | undefined => cells.get(cellKey(path, mode, concurrency));
  const target = (id: string, label: string, value: number | undefined, comparison: 'at-most' | 'at-least', limit: number): void => {
    if (value === undefined || !Number.isFinite(value)) return;
    metrics.push({ id: `targets.${id}`, label, unit: 'ratio', better: comparison === 'at-most' ? 'lower' : 'higher', samples: [round3(value)], target: { comparison, value: limit, gated: false } });
  };
  const ratioOf = (top: number | undefined, bottom: number | undefined): number | undefined => (top === undefined || bottom === undefined || bottom <= 0 ? undefined : top / bottom);
  target('cpu-vs-portkey', 'TokenForge same-dialect sync at concurrency 1: CPU per request / Portkey\'s', ratioOf(cell('ours-same', 'sync', 1)?.cpuPerRequestUs, cell('portkey', 'sync', 1)?.cpuPerRequestUs), 'at-most', 0.5);
  target('throughput-vs-portkey-c32', 'TokenForge same-dialect sync at concurrency 32: requests per second / Portkey\'s', ratioOf(cell('ours-same', 'sync', 32)?.requestsPerSecond, cell('portkey', 'sync', 32)?.requestsPerSecond), 'at-least', 1.5);
  target(
    'throughput-vs-ccr-c32',
    'TokenForge Anthropic in, openai-chat out, sync at concurrency 32: requests per second / claude-code-router\'s',
    ratioOf(cell('ours-anthropic-to-openai', 'sync', 32)?.requestsPerSecond, cell('claude-code-router', 'sync', 32)?.requestsPerSecond),
    'at-least',
    1.5,
  );
  const bareAdded = cell('bare-node-proxy', 'sync', 1)?.addedP50Ms;
  const oursAdded = cell('ours-same', 'sync', 1)?.addedP50Ms;
  const overBare = ratioOf(oursAdded, bareAdded);
  if (overBare !== undefined && Number.isFinite(overBare)) {
    metrics.push({ id: 'reference.ours-same-c1-added-p50-vs-bare-proxy', label: 'TokenForge same-dialect sync at concurrency 1: p50 added / the bare node:http + undici proxy\'s', unit: 'ratio', better: 'lower', samples: [round3(overBare)] });
  }
  const same = cell('ours-same', 'stream', 1)?.addedPerChunkUs;
  const cross = [cell('ours-anthropic-to-openai', 'stream', 1)?.addedPerChunkUs, cell('ours-openai-to-anthropic', 'stream', 1)?.addedPerChunkUs].filter((value): value is number => value !== undefined);
  if (same !== undefined && same > 0 && cross.length > 0) target('cross-stream-per-chunk-vs-same', 'TokenForge cross-dialect stream at concurrency 1: added per chunk / same-dialect (the worse direction)', Math.max(...cross) / same, 'at-most', 2);

  for (const summary of summaries) {
    lines.push(`${summary.label}${summary.peakRssBytes === undefined ? '' : ` (peak RSS ${Math.round(summary.peakRssBytes / 1048576)} MiB)`}`);
    for (const entry of summary.cells) {
      const extra = [
        entry.addedP50Ms === undefined ? '' : ` +p50 ${(entry.addedP50Ms * 1000).toFixed(0)} us +p99 ${((entry.addedP99Ms ?? 0) * 1000).toFixed(0)} us`,
        entry.addedPerChunkUs === undefined ? '' : ` +${entry.addedPerChunkUs.toFixed(2)} us/chunk +ttfb ${((entry.addedFirstByteP50Ms ?? 0) * 1000).toFixed(0)} us`,
        entry.cpuPerRequestUs === undefined ? '' : ` cpu ${entry.cpuPerRequestUs.toFixed(0)} us/req`,
        entry.failed > 0 ? ` FAILED ${entry.failed}` : '',
      ].join('');
      lines.push(`  ${entry.mode.padEnd(6)} c${String(entry.concurrency).padEnd(4)} p50 ${entry.p50Ms.toFixed(3)} ms p99 ${entry.p99Ms.toFixed(3)} ms ${entry.requestsPerSecond.toFixed(0)} req/s${extra}`);
    }
  }
  for (const metric of metrics.filter((candidate) => candidate.target !== undefined)) lines.push(`target ${metric.id}: ${median(metric.samples)} (${metric.target?.comparison} ${metric.target?.value})`);
  return { paths: summaries, metrics, consoleLines: lines };
}
