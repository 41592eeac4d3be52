import { CODEC_ERROR_CODES_V1, PROVIDER_FAILURE_CODES_V3 } from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 } from '@tokenforge/protocol-engine';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TargetHealthSnapshot } from '../routing/target-health-snapshot.js';
import type { OperatorLogLine } from './operator-log.js';
import type { TargetPoolUse } from './target-pool-use.js';

/** What the metrics read besides the log lines; every function is read at scrape or observation time (reload-aware). */
export interface GatewayMetricsSources {
  /** The public model names of the catalogue in force (aliases included). */
  readonly modelNames: () => ReadonlySet<string>;
  /** The catalogue in force: target ref to its provider. */
  readonly targets: () => ReadonlyMap<string, { readonly provider: string }>;
  /** Model requests in flight. */
  readonly inFlight: () => number;
  /** Each target's health in this process, when routing keeps it. */
  readonly targetHealth?: () => readonly TargetHealthSnapshot[];
  /** Each HTTP target's upstream connection pool in this process. */
  readonly targetPools?: () => readonly TargetPoolUse[];
}

/** The label a value outside the catalogue or a fixed vocabulary gets. */
export const OTHER_LABEL = 'other';

/** The routes the gateway serves (the operator log's `route`), the only route label values. */
const ROUTES = new Set([
  'POST /v1/chat/completions',
  'POST /v1/responses',
  'POST /v1/messages',
  'POST /v1/embeddings',
  'POST /v1/images/generations',
  'POST /v1/images/edits',
  'POST /v1/rerank',
  'POST /v2/rerank',
  'POST /v1beta/models/{model}:generateContent',
  'POST /v1beta/models/{model}:streamGenerateContent',
  'POST /v1beta/models/{model}:countTokens',
  'POST /v1/messages/count_tokens',
  'POST /v1/responses/input_tokens',
  'POST /v1/jobs',
  'GET /v1/jobs/{id}',
  'POST /v2/jobs',
  'GET /v2/jobs/{id}',
]);

/** How a request ended, before the colon of the log's `outcome`. */
const OUTCOME_KINDS = new Set(['completed', 'incomplete', 'failed', 'failed-in-stream', 'refused', 'cancelled', 'engine', 'accepted', 'unknown', 'rejected', 'queued', 'running', 'succeeded', 'expired']);

/** The gateway's own refusal and failure codes (after `refused:` / `failed:`). */
const GATEWAY_CODES = ['client-key', 'draining', 'concurrency', 'body-too-large', 'model-not-found', 'token-count-unsupported', 'no-target', 'gateway', 'job-id', 'all-targets', 'unexpected-async', 'no-stream-encoder', 'ok'];

/** Every code a label may carry: normalized failures, codec and engine errors, the gateway's own. */
const CODES = new Set<string>([...PROVIDER_FAILURE_CODES_V3, ...CODEC_ERROR_CODES_V1, ...Object.values(PROTOCOL_ENGINE_ERROR_CODES_V1), ...GATEWAY_CODES]);

const TOKEN_KINDS = [
  ['inputTokens', 'input'],
  ['outputTokens', 'output'],
  ['cacheReadInputTokens', 'cache_read'],
  ['cacheWriteInputTokens', 'cache_write'],
  ['reasoningOutputTokens', 'reasoning'],
] as const;

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

function splitOutcome(outcome: string): { outcome: string; code: string } {
  const colon = outcome.indexOf(':');
  const kind = colon === -1 ? outcome : outcome.slice(0, colon);
  const code = colon === -1 ? '' : outcome.slice(colon + 1);
  if (!OUTCOME_KINDS.has(kind)) return { outcome: OTHER_LABEL, code: '' };
  return { outcome: kind, code: code === '' ? '' : CODES.has(code) ? code : OTHER_LABEL };
}

function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : OTHER_LABEL;
}

/**
 * The gateway's Prometheus metrics over its own registry (never prom-client's global one). Fed with the operator
 * log's request lines ({@link GatewayMetrics.observe}); every label value comes from the catalogue in force or a
 * fixed vocabulary, anything else is `other`, so no client-chosen string becomes a series.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #sources: GatewayMetricsSources;
  readonly #requests: Counter<'route' | 'model' | 'outcome' | 'code' | 'status'>;
  readonly #attempts: Counter<'model' | 'target' | 'provider' | 'outcome'>;
  readonly #duration: Histogram<'route' | 'model'>;
  readonly #firstByte: Histogram<'route' | 'model'>;
  readonly #tokens: Counter<'model' | 'target' | 'kind'>;
  readonly #cost: Counter<'model' | 'target' | 'currency'>;
  readonly #reloads: Counter<'result'>;

  constructor(sources: GatewayMetricsSources) {
    this.#sources = sources;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Counter({
      name: 'tokenforge_gateway_requests_total',
      help: 'Requests by route, public model, outcome (completed, failed, refused, cancelled, ...), code and status.',
      labelNames: ['route', 'model', 'outcome', 'code', 'status'],
      registers,
    });
    this.#attempts = new Counter({
      name: 'tokenforge_gateway_attempts_total',
      help: 'Provider attempts by public model, catalogue target, provider and outcome (ok or the failure code).',
      labelNames: ['model', 'target', 'provider', 'outcome'],
      registers,
    });
    this.#duration = new Histogram({
      name: 'tokenforge_gateway_request_duration_seconds',
      help: 'Whole request time, streams included.',
      labelNames: ['route', 'model'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#firstByte = new Histogram({
      name: 'tokenforge_gateway_time_to_first_byte_seconds',
      help: 'Time until the first byte of the answer was ready for the client.',
      labelNames: ['route', 'model'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#tokens = new Counter({
      name: 'tokenforge_gateway_tokens_total',
      help: 'Tokens by public model, target and kind (input, output, cache_read, cache_write, reasoning).',
      labelNames: ['model', 'target', 'kind'],
      registers,
    });
    this.#cost = new Counter({
      name: 'tokenforge_gateway_reported_cost_micros_total',
      help: 'Cost the providers reported, in millionths of the currency, by public model and target.',
      labelNames: ['model', 'target', 'currency'],
      registers,
    });
    this.#reloads = new Counter({
      name: 'tokenforge_gateway_catalogue_reloads_total',
      help: 'Catalogue reloads by result (applied, refused).',
      labelNames: ['result'],
      registers,
    });
    new Gauge({
      name: 'tokenforge_gateway_in_flight_requests',
      help: 'Model requests in flight in this process (streams included).',
      registers,
      collect() {
        this.set(sources.inFlight());
      },
    });
    const health = (name: string, help: string, value: (snapshot: TargetHealthSnapshot) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ['model', 'target', 'provider'],
        registers,
        collect: function (this: Gauge<'model' | 'target' | 'provider'>) {
          this.reset();
          for (const snapshot of sources.targetHealth?.() ?? []) this.set({ model: snapshot.model, target: snapshot.ref, provider: snapshot.provider }, value(snapshot));
        },
      });
    };
    health('tokenforge_gateway_target_cooling_down', 'Whether this process skips the target (1: cooling down or probing, 0: healthy).', (snapshot) => (snapshot.state === 'healthy' ? 0 : 1));
    health('tokenforge_gateway_target_recent_failures', 'Failures of the counted classes in the current window.', (snapshot) => snapshot.recentFailures);
    health('tokenforge_gateway_target_in_flight_requests', 'Requests this process has in flight at the target.', (snapshot) => snapshot.inFlight);
    const pool = (name: string, help: string, value: (use: TargetPoolUse) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ['model', 'target', 'provider'],
        registers,
        collect: function (this: Gauge<'model' | 'target' | 'provider'>) {
          this.reset();
          for (const use of sources.targetPools?.() ?? []) this.set({ model: use.model, target: use.ref, provider: use.provider }, value(use));
        },
      });
    };
    pool('tokenforge_gateway_upstream_connections_in_use', "Connections of the target's pool held by an exchange now (this process).", (use) => use.inUse);
    pool('tokenforge_gateway_upstream_connections_max', "The size of the target's connection pool (maxConnections).", (use) => use.connections);
    pool('tokenforge_gateway_upstream_queued_requests', 'Requests waiting for a free connection to the target (each waits at most its connect timeout).', (use) => use.waiting);
  }

  /** Counts one request line of the operator log. */
  observe(line: OperatorLogLine): void {
    const models = this.#sources.modelNames();
    const targets = this.#sources.targets();
    const route = ROUTES.has(line.route) ? line.route : OTHER_LABEL;
    const model = line.model !== undefined && models.has(line.model) ? line.model : OTHER_LABEL;
    const { outcome, code } = splitOutcome(line.outcome);
    this.#requests.inc({ route, model, outcome, code, status: statusLabel(line.status) });
    this.#duration.observe({ route, model }, line.totalMs / 1000);
    if (line.timeToFirstByteMs !== undefined) this.#firstByte.observe({ route, model }, line.timeToFirstByteMs / 1000);
    for (const attempt of line.attempts) {
      const known = targets.get(attempt.target);
      this.#attempts.inc({
        model,
        target: known === undefined ? OTHER_LABEL : attempt.target,
        provider: known?.provider ?? OTHER_LABEL,
        outcome: CODES.has(attempt.outcome) ? attempt.outcome : OTHER_LABEL,
      });
    }
    const target = line.target !== undefined && targets.has(line.target.ref) ? line.target.ref : OTHER_LABEL;
    if (line.usage !== undefined) {
      for (const [field, kind] of TOKEN_KINDS) {
        const count = line.usage[field];
        if (typeof count === 'number' && count > 0) this.#tokens.inc({ model, target, kind }, count);
      }
    }
    if (line.cost !== undefined && line.cost.amountMicros > 0) {
      this.#cost.inc({ model, target, currency: /^[A-Z]{3}$/.test(line.cost.currency) ? line.cost.currency : OTHER_LABEL }, line.cost.amountMicros);
    }
  }

  /** Counts a catalogue reload. */
  countReload(result: 'applied' | 'refused'): void {
    this.#reloads.inc({ result });
  }

  /** The exposition: Prometheus text format. */
  async render(): Promise<{ readonly contentType: string; readonly body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
