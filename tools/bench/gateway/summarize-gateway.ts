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

/** The id suffix of a path served by the gateway with governance on (the embedded store), beside the same path with it off. */
export const GOVERNED_SUFFIX = '-governance';

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
        if (addedP50.length > 0) {
          metrics.push({
            id: `${prefix}.added-p50`,
            label: `${path.label}, ${mode} at concurrency ${concurrency}: p50 added over the floor`,
            unit: 'microseconds',
            better: 'lower',
            samples: addedP50.map((value) => round3(value * 1000)),
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
  const target = (id: string, label: string, samples: readonly number[] | number | undefined, comparison: 'at-most' | 'at-least', limit: number, gated = false): void => {
    const values = (typeof samples === 'number' ? [samples] : samples ?? []).filter((value) => Number.isFinite(value));
    if (values.length === 0) return;
    metrics.push({ id: `targets.${id}`, label, unit: 'ratio', better: comparison === 'at-most' ? 'lower' : 'higher', samples: values.map(round3), target: { comparison, value: limit, gated } });
  };
  const ratioOf = (top: number | undefined, bottom: number | undefined): number | undefined => (top === undefined || bottom === undefined || bottom <= 0 ? undefined : top / bottom);
  /** A figure of each round of one path in one cell, by round. */
  const byRound = (path: string, stream: boolean, concurrency: number, figure: (run: PathRun) => number | undefined): Map<number, number> =>
    new Map(of(path, stream, concurrency).flatMap((run): [number, number][] => {
      const value = figure(run);
      return value === undefined || !Number.isFinite(value) ? [] : [[run.round, value]];
    }));
  /** Per-round `top / bottom` over the rounds both measured (load that changes between rounds cancels). */
  const roundRatios = (top: Map<number, number>, bottom: Map<number, number>): number[] =>
    [...top].flatMap(([round, value]) => {
      const under = bottom.get(round);
      return under === undefined || under <= 0 ? [] : [value / under];
    });
  const floorOf = (path: string): string | undefined => paths.find((candidate) => candidate.id === path)?.floor;
  const addedP50 = (path: string, stream: boolean, concurrency: number): Map<number, number> => {
    const floor = floorOf(path);
    if (floor === undefined) return new Map();
    const floorRounds = byRound(floor, stream, concurrency, (run) => quantile(run.latenciesMs, 0.5));
    return byRound(path, stream, concurrency, (run) => {
      const under = floorRounds.get(run.round);
      return under === undefined ? undefined : quantile(run.latenciesMs, 0.5) - under;
    });
  };
  const cpuPerRequest = (path: string, stream: boolean, concurrency: number): Map<number, number> =>
    byRound(path, stream, concurrency, (run) => (run.cpuSeconds === undefined || run.completed === 0 ? undefined : (run.cpuSeconds * 1e6) / run.completed));
  const rssOf = (path: string): number | undefined => {
    const process = paths.find((candidate) => candidate.id === path)?.process;
    return process === undefined ? undefined : options.peakRssBytes[process];
  };

  // Gated (issue #33), governance off: ratios to the bare node:http + undici proxy measured in the same rounds.
  target('sync-c1-added-p50-vs-bare-proxy', 'TokenForge same-dialect sync at concurrency 1: p50 added / the bare node:http + undici proxy\'s (per round)', roundRatios(addedP50('ours-same', false, 1), addedP50('bare-node-proxy', false, 1)), 'at-most', 1.2, true);
  target('stream-c32-cpu-vs-bare-proxy', 'TokenForge same-dialect stream at concurrency 32: gateway CPU per request / the bare proxy\'s (per round)', roundRatios(cpuPerRequest('ours-same', true, 32), cpuPerRequest('bare-node-proxy', true, 32)), 'at-most', 6, true);
  target('peak-rss-vs-bare-proxy', 'TokenForge gateway process: peak RSS / the bare proxy process\'s (whole run)', ratioOf(rssOf('ours-same'), rssOf('bare-node-proxy')), 'at-most', 1.3, true);
  // Reported.
  target('stream-c32-cpu-vs-portkey', 'TokenForge same-dialect stream at concurrency 32: gateway CPU per request / Portkey\'s (per round)', roundRatios(cpuPerRequest('ours-same', true, 32), cpuPerRequest('portkey', true, 32)), 'at-most', 1 / 3);
  const crossCpu = (['ours-anthropic-to-openai', 'ours-openai-to-anthropic'] as const).map((path) => roundRatios(cpuPerRequest(path, true, 32), cpuPerRequest('ours-same', true, 32)));
  const crossRounds = Math.min(...crossCpu.map((ratios) => ratios.length));
  target(
    'cross-stream-c32-cpu-vs-same',
    'TokenForge cross-dialect stream at concurrency 32: gateway CPU per request / same-dialect (the worse direction, per round)',
    Array.from({ length: Number.isFinite(crossRounds) ? crossRounds : 0 }, (_, index) => Math.max(...crossCpu.map((ratios) => ratios[index] as number))),
    'at-most',
    1.2,
  );
  target('cpu-vs-portkey', 'TokenForge same-dialect sync at concurrency 1: CPU per request / Portkey\'s', ratioOf(cell('ours-same', 'sync', 1)?.cpuPerRequestUs, cell('portkey', 'sync', 1)?.cpuPerRequestUs), 'at-most', 0.5);
  const rps = (path: string): Map<number, number> => byRound(path, false, 32, (run) => run.requestsPerSecond);
  target('throughput-vs-portkey-c32', 'TokenForge same-dialect sync at concurrency 32: requests per second / Portkey\'s (per round)', roundRatios(rps('ours-same'), rps('portkey')), 'at-least', 4);
  target('throughput-vs-ccr-c32', 'TokenForge Anthropic in, openai-chat out, sync at concurrency 32: requests per second / claude-code-router\'s (per round)', roundRatios(rps('ours-anthropic-to-openai'), rps('claude-code-router')), 'at-least', 4);
  const same = cell('ours-same', 'stream', 1)?.addedPerChunkUs;
  const cross = [cell('ours-anthropic-to-openai', 'stream', 1)?.addedPerChunkUs, cell('ours-openai-to-anthropic', 'stream', 1)?.addedPerChunkUs].filter((value): value is number => value !== undefined);
  if (same !== undefined && same > 0 && cross.length > 0) target('cross-stream-per-chunk-vs-same', 'TokenForge cross-dialect stream at concurrency 1: added per chunk / same-dialect (the worse direction)', Math.max(...cross) / same, 'at-most', 2);

  // Governance on (embedded store, a tenant whose limits never bind) beside governance off, in the same rounds.
  for (const [path, label] of [['ours-same', 'same-dialect'], ['ours-anthropic-to-openai', 'Anthropic in, openai-chat out'], ['ours-openai-to-anthropic', 'OpenAI chat in, anthropic out']] as const) {
    const governed = `${path}${GOVERNED_SUFFIX}`;
    if (!paths.some((candidate) => candidate.id === governed)) continue;
    const row = (id: string, what: string, samples: readonly number[] | number | undefined): void => {
      const values = (typeof samples === 'number' ? [samples] : samples ?? []).filter((value) => Number.isFinite(value));
      if (values.length > 0) metrics.push({ id: `governance.${path}.${id}`, label: `TokenForge ${label}, governance on (embedded) / off: ${what}`, unit: 'ratio', better: 'lower', samples: values.map(round3) });
    };
    row('sync-c1-added-p50', 'sync at concurrency 1, p50 added (per round)', roundRatios(addedP50(governed, false, 1), addedP50(path, false, 1)));
    row('sync-c32-throughput', 'sync at concurrency 32, requests per second (per round)', roundRatios(rps(governed), rps(path)));
    row('stream-c32-cpu', 'stream at concurrency 32, gateway CPU per request (per round)', roundRatios(cpuPerRequest(governed, true, 32), cpuPerRequest(path, true, 32)));
    if (path === 'ours-same') row('peak-rss', 'peak RSS of the gateway process', ratioOf(rssOf(governed), rssOf(path)));
  }

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
