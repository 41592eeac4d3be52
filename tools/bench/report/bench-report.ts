/**
 * The aggregated benchmark report (`tools/bench/results/bench-report.json`): every benchmark's metrics pooled
 * over the processes `npx --yes pnpm@12.4.2 bench` ran, with their spread, targets and the peers' workload tables.
 */
import type { MachineFacts } from '../harness.js';
import { meetsTarget, type BenchMetric, type BenchMetricTarget, type BenchMetricUnit } from './bench-metric.js';
import { median, round3, summarize, type Summary } from './statistics.js';

/** Whether a benchmark ran. */
export type BenchStatus = 'ran' | 'not-run' | 'failed';

/** One benchmark of the run. */
export interface ReportBenchmark {
  readonly name: string;
  readonly status: BenchStatus;
  /** Why it did not run or failed (no output of the benchmark itself). */
  readonly reason?: string;
  /** Processes whose results were read. */
  readonly processes: number;
}

/** One metric pooled over processes. */
export interface ReportMetric {
  /** `<benchmark>.<metric id>`: the key `bench:check` compares by. */
  readonly id: string;
  readonly benchmark: string;
  readonly label: string;
  readonly unit: BenchMetricUnit;
  readonly better: 'lower' | 'higher';
  /** The median of every sample of every process. */
  readonly value: number;
  /** Quartiles and extremes of the pooled samples. */
  readonly spread: Summary;
  /** The median of each process, in run order. */
  readonly processMedians: readonly number[];
  readonly target?: BenchMetricTarget;
  readonly met?: boolean;
}

/** One case of a workload table, pooled over processes. */
export interface ReportWorkloadCase {
  readonly id: string;
  readonly label: string;
  readonly role: 'floor' | 'ours' | 'peer';
  /** Median over processes of each process's median nanoseconds per operation. */
  readonly medianNs: number;
}

/** A workload table (from the peers benchmark). */
export interface ReportWorkload {
  readonly id: string;
  readonly title: string;
  readonly operation: string;
  readonly cases: readonly ReportWorkloadCase[];
}

/** The whole report. */
export interface BenchReport {
  readonly report: 'tokenforge-bench-report';
  readonly version: 1;
  readonly recordedAt: string;
  readonly machine: MachineFacts;
  /** One-minute load average when the run started and ended: a loaded machine gives noisy figures. */
  readonly loadAverage: { readonly start: number; readonly end: number };
  readonly processesPerBenchmark: number;
  readonly durationSeconds: number;
  readonly quick: boolean;
  readonly peerVersions: Readonly<Record<string, string>>;
  readonly benchmarks: readonly ReportBenchmark[];
  readonly workloads: readonly ReportWorkload[];
  readonly metrics: readonly ReportMetric[];
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The key naming an array element: its `stream`, `name` or `id` field when it has one, else its position. */
function elementKey(element: unknown, position: number): string {
  if (isObject(element)) {
    for (const field of ['stream', 'name', 'id']) if (typeof element[field] === 'string') return element[field];
  }
  return String(position);
}

/** Every finite number under `value`, keyed by its dotted path (array elements keyed by {@link elementKey}). */
export function flattenNumbers(value: unknown, prefix = ''): Map<string, number> {
  const found = new Map<string, number>();
  const visit = (node: unknown, path: string): void => {
    if (typeof node === 'number' && Number.isFinite(node)) found.set(path, node);
    else if (Array.isArray(node)) node.forEach((element, position) => visit(element, join(path, elementKey(element, position))));
    else if (isObject(node)) for (const [key, child] of Object.entries(node)) visit(child, join(path, key));
  };
  visit(value, prefix);
  return found;
}

function join(path: string, key: string): string {
  return path.length === 0 ? key : `${path}.${key}`;
}

/** How a number from a benchmark's `ratios` object is read: its unit and which direction is better. */
export function classifyRatio(path: string): { readonly unit: BenchMetricUnit; readonly better: 'lower' | 'higher' } {
  const leaf = path.slice(path.lastIndexOf('.') + 1);
  const better = /speedup|faster|perSecond/i.test(leaf) ? 'higher' : 'lower';
  if (/exponent/i.test(leaf)) return { unit: 'exponent', better };
  if (/Ns(Per[A-Za-z0-9]*)?$/.test(leaf)) return { unit: 'nanoseconds', better };
  if (/Bytes$/.test(leaf)) return { unit: 'bytes', better };
  return { unit: 'ratio', better };
}

/**
 * Targets a component benchmark declares in its `target` object, matched to its ratio paths. A target key that
 * names a ratio path applies to it; the codecs benchmark names its targets differently, so they are mapped here.
 */
export function componentTargets(results: JsonObject, ratioPaths: readonly string[]): Map<string, BenchMetricTarget> {
  const targets = new Map<string, BenchMetricTarget>();
  if (!isObject(results.target)) return targets;
  for (const [key, value] of Object.entries(results.target)) {
    if (typeof value !== 'number') continue;
    const at = (path: string): void => void targets.set(path, { comparison: 'at-most', value, gated: true });
    if (ratioPaths.includes(key)) at(key);
    else if (key === 'fullPathVsFloorAt1400ByteReads') ratioPaths.filter((path) => /^fullPathVsFloor\..*1400-byte/.test(path) && path.includes('openai-chat')).forEach(at);
    else if (key === 'toolArgumentTimeRatio4kOver1k') ratioPaths.filter((path) => path.endsWith('.timeRatio4kOver1k')).forEach(at);
  }
  return targets;
}

/** The metrics of one process of a component benchmark (one that writes `ratios` rather than `metrics`). */
export function metricsFromRatios(results: JsonObject): BenchMetric[] {
  const ratios = flattenNumbers(results.ratios);
  const targets = componentTargets(results, [...ratios.keys()]);
  return [...ratios].map(([path, value]) => {
    const target = targets.get(path);
    return { id: path, label: path, ...classifyRatio(path), samples: [value], ...(target === undefined ? {} : { target }) };
  });
}

function numberAt(value: unknown, ...path: string[]): number | undefined {
  let node = value;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return typeof node === 'number' && Number.isFinite(node) ? node : undefined;
}

/**
 * The metrics of one process of the http benchmark, which reports latencies rather than `ratios`: the engine's
 * time over bare undici's (sync p50 at concurrency 1 and 32, one stream), and the added p50/p99 per sync call
 * (its target: at most 0.3 ms added at concurrency 1).
 */
export function metricsFromHttp(results: JsonObject): BenchMetric[] {
  const metrics: BenchMetric[] = [];
  const ratio = (id: string, label: string, top: number | undefined, bottom: number | undefined): void => {
    if (top !== undefined && bottom !== undefined && bottom > 0) metrics.push({ id, label, unit: 'ratio', better: 'lower', samples: [round3(top / bottom)] });
  };
  const added = (id: string, label: string, milliseconds: number | undefined, target?: BenchMetricTarget): void => {
    if (milliseconds !== undefined) {
      metrics.push({ id, label, unit: 'microseconds', better: 'lower', samples: [round3(milliseconds * 1000)], ...(target === undefined ? {} : { target }) });
    }
  };
  for (const [key, concurrency] of [['syncConcurrency1', 1], ['syncConcurrency32', 32]] as const) {
    ratio(`sync-c${concurrency}.engine-vs-bare-p50`, `sync chat at concurrency ${concurrency}: engine + http-transport p50 / bare undici p50`, numberAt(results, key, 'engine', 'p50Ms'), numberAt(results, key, 'bare', 'p50Ms'));
    added(
      `sync-c${concurrency}.added-p50`,
      `sync chat at concurrency ${concurrency}: p50 added by engine + http-transport`,
      numberAt(results, key, 'addedP50Ms'),
      concurrency === 1 ? { comparison: 'at-most', value: 300, gated: true } : undefined,
    );
    added(`sync-c${concurrency}.added-p99`, `sync chat at concurrency ${concurrency}: p99 added by engine + http-transport`, numberAt(results, key, 'addedP99Ms'));
  }
  ratio('stream-2000.engine-vs-bare', '2,000-chunk stream over HTTP: engine draining events / bare undici reading bytes', numberAt(results, 'stream2000Chunks', 'engineMsPerStream'), numberAt(results, 'stream2000Chunks', 'bareMsPerStream'));
  return metrics;
}

/**
 * The metrics of one process of any benchmark: its `metrics` list when it has one, the http benchmark's
 * latencies, else its flattened `ratios`.
 */
export function metricsOf(results: JsonObject): BenchMetric[] {
  if (Array.isArray(results.metrics) && results.metrics.every((metric) => isObject(metric) && Array.isArray(metric.samples))) {
    return results.metrics as BenchMetric[];
  }
  if (results.ratios === undefined && isObject(results.syncConcurrency1)) return metricsFromHttp(results);
  return metricsFromRatios(results);
}

/** Pools the metrics of several processes of one benchmark (matched by id, first-seen order). */
export function poolMetrics(benchmark: string, processes: readonly (readonly BenchMetric[])[]): ReportMetric[] {
  const byId = new Map<string, BenchMetric[]>();
  for (const metrics of processes) {
    for (const metric of metrics) {
      const list = byId.get(metric.id) ?? [];
      list.push(metric);
      byId.set(metric.id, list);
    }
  }
  return [...byId.values()].map((list) => {
    const first = list[0] as BenchMetric;
    const samples = list.flatMap((metric) => metric.samples);
    const spread = summarize(samples);
    return {
      id: `${benchmark}.${first.id}`,
      benchmark,
      label: first.label,
      unit: first.unit,
      better: first.better,
      value: spread.median,
      spread,
      processMedians: list.map((metric) => round3(median(metric.samples))),
      ...(first.target === undefined ? {} : { target: first.target, met: meetsTarget(spread.median, first.target, spread.p75 - spread.p25) }),
    };
  });
}

/** Pools the peers' workload tables: each case's median over processes. */
export function poolWorkloads(processes: readonly unknown[]): ReportWorkload[] {
  const tables = processes.filter(isObject).flatMap((results) => (Array.isArray(results.workloads) ? results.workloads.filter(isObject) : []));
  const byId = new Map<string, JsonObject[]>();
  for (const table of tables) {
    const id = String(table.id);
    byId.set(id, [...(byId.get(id) ?? []), table]);
  }
  return [...byId.values()].map((list) => {
    const first = list[0] as JsonObject;
    const firstCases = (Array.isArray(first.cases) ? first.cases : []).filter(isObject);
    return {
      id: String(first.id),
      title: String(first.title),
      operation: String(first.operation),
      cases: firstCases.map((workloadCase) => {
        const values = list.flatMap((table) =>
          (Array.isArray(table.cases) ? table.cases : []).filter(isObject).filter((other) => other.id === workloadCase.id).map((other) => Number(other.medianNs)),
        );
        return { id: String(workloadCase.id), label: String(workloadCase.label), role: workloadCase.role as ReportWorkloadCase['role'], medianNs: round3(median(values)) };
      }),
    };
  });
}

/** For a target that also limits the spread: `, IQR x (at most y)` for the console; else nothing. */
export function spreadNote(metric: ReportMetric): string {
  const limit = metric.target?.maxInterquartileRange;
  return limit === undefined ? '' : `, IQR ${round3(metric.spread.p75 - metric.spread.p25)} (at most ${limit})`;
}
