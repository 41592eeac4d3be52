import {
  context,
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Counter,
  type Histogram,
  type MeterProvider,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_TOKEN_TYPE,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  GEN_AI_TOKEN_TYPE_VALUE_INPUT,
  GEN_AI_TOKEN_TYPE_VALUE_OUTPUT,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
} from './gen-ai-conventions.js';
import type { FinishReasonV1, TaskKindV3, UsageV3 } from '@tokenforge/model-protocol';
import { genAiOperationName } from './gen-ai-operation-name.js';

/** The instrumentation scope name of the gateway's spans and metrics. */
export const GATEWAY_INSTRUMENTATION_SCOPE = '@tokenforge/gateway';

/** Where the gateway's spans and metrics go. Default: the providers registered globally through `@opentelemetry/api`. */
export interface GatewayTelemetryOptions {
  /** Default `trace.getTracerProvider()` (a no-op until an SDK registers one). */
  readonly tracerProvider?: TracerProvider;
  /** Default `metrics.getMeterProvider()` at start-up (register the SDK before starting the gateway). */
  readonly meterProvider?: MeterProvider;
}

/** The catalogue target an attempt went to: operator-named facts only. */
export interface TelemetryTarget {
  /** The operator's label of the provider (`gen_ai.provider.name`). */
  readonly provider: string;
  readonly family: string;
  /** `<model>#<index>` in the catalogue. */
  readonly ref: string;
}

/** How one attempt ended. */
export interface AttemptEnd {
  /** `ok`, a normalized failure code or an engine error code. */
  readonly outcome: string;
  readonly retryable?: boolean;
  readonly acceptance?: 'accepted' | 'not-accepted' | 'unknown';
  readonly retryAfterMs?: number;
}

/** The facts of a request at its end: the same ones the operator log line has, never a payload. */
export interface RequestEnd {
  readonly status: number;
  /** `completed`, `failed:<code>`, `refused:<code>`, `cancelled`, ... */
  readonly outcome: string;
  readonly model?: string;
  readonly taskKind?: TaskKindV3;
  readonly target?: TelemetryTarget;
  readonly attempts: number;
  readonly streamed: boolean;
  readonly usage?: UsageV3;
  readonly finishReason?: FinishReasonV1;
  /** Milliseconds from the request's arrival to its first byte to the client (streams). */
  readonly timeToFirstChunkMs?: number;
  /** Whether the request failed, when its outcome alone does not say (the jobs API's `accepted`, `listed`, ...). */
  readonly failed?: boolean;
}

/** One client request: a server span with a client span per attempt. */
export interface RequestTelemetry {
  startAttempt(target: TelemetryTarget, model: string | undefined, taskKind: TaskKindV3 | undefined): (end: AttemptEnd) => void;
  end(facts: RequestEnd): void;
}

const DURATION_BUCKETS_S = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
// Span start times in epoch milliseconds from `performance.now()` readings (read once: the getter is not free).
const TIME_ORIGIN = performance.timeOrigin;
const ATTR_ATTEMPTS = 'tokenforge.gateway.attempts';
const ATTR_OUTCOME = 'tokenforge.gateway.outcome';
const ATTR_ROUTE = 'tokenforge.gateway.route';
const ATTR_TARGET_REF = 'tokenforge.target.ref';
const ATTR_TARGET_FAMILY = 'tokenforge.target.family';
const ATTR_ATTEMPT_RETRYABLE = 'tokenforge.attempt.retryable';
const ATTR_ATTEMPT_ACCEPTANCE = 'tokenforge.attempt.acceptance';
const ATTR_ATTEMPT_RETRY_AFTER_MS = 'tokenforge.attempt.retry_after_ms';

/** The low-cardinality failure code of an outcome, or `undefined` for a completed request. */
export function errorTypeOf(outcome: string): string | undefined {
  if (outcome === 'completed' || outcome === 'ok') return undefined;
  const colon = outcome.indexOf(':');
  return colon === -1 ? outcome : outcome.slice(colon + 1);
}

function usageAttributes(usage: UsageV3 | undefined): Attributes {
  if (usage === undefined) return {};
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = usage.outputTokens;
  if (usage.cacheReadInputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS] = usage.cacheReadInputTokens;
  if (usage.cacheWriteInputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS] = usage.cacheWriteInputTokens;
  if (usage.reasoningOutputTokens !== undefined) attributes[ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS] = usage.reasoningOutputTokens;
  return attributes;
}

function spanName(operation: string | undefined, model: string | undefined, route: string): string {
  return operation === undefined || model === undefined ? route : `${operation} ${model}`;
}

/**
 * The gateway's OpenTelemetry instrumentation, after the GenAI semantic conventions: through `@opentelemetry/api`
 * only, so it costs next to nothing until the operator registers an SDK. `gen_ai.request.model` is the public model
 * name; no prompt, output, key or provider model ever becomes an attribute (content capture does not exist here).
 */
export class GatewayTelemetry {
  private readonly tracer: Tracer;
  private readonly duration: Histogram;
  private readonly tokens: Histogram;
  private readonly firstChunk: Histogram;
  private readonly attemptsCounter: Counter;

  constructor(options: GatewayTelemetryOptions = {}) {
    this.tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(GATEWAY_INSTRUMENTATION_SCOPE);
    const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(GATEWAY_INSTRUMENTATION_SCOPE);
    this.duration = meter.createHistogram(METRIC_GEN_AI_CLIENT_OPERATION_DURATION, {
      description: 'GenAI operation duration, the gateway request from arrival to its last byte.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    });
    this.tokens = meter.createHistogram(METRIC_GEN_AI_CLIENT_TOKEN_USAGE, {
      description: 'Input and output tokens reported by the provider.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    });
    this.firstChunk = meter.createHistogram(METRIC_GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK, {
      description: 'Time from the request to the first streamed chunk sent to the client.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    });
    this.attemptsCounter = meter.createCounter('tokenforge.gateway.attempts', {
      description: 'Attempts at catalogue targets, by outcome.',
      unit: '{attempt}',
    });
  }

  /**
   * The span of a request whose facts are known only at its end (the jobs API): the same request span, with one
   * attempt span per attempt the operator log lists, and the duration metric when the model is known.
   */
  recordFinished(route: string, startedAt: number, facts: RequestEnd & { readonly attemptOutcomes?: readonly (TelemetryTarget & { readonly outcome: string })[] }): void {
    const request = this.startRequest(route, startedAt);
    for (const attempt of facts.attemptOutcomes ?? []) request.startAttempt(attempt, facts.model, facts.taskKind)({ outcome: attempt.outcome });
    request.end(facts);
  }

  /** Starts the span of one client request (a child of the active context, e.g. an HTTP server span). */
  startRequest(route: string, started = performance.now()): RequestTelemetry {
    const parent = context.active();
    const startTime = TIME_ORIGIN + started;
    const span: Span = this.tracer.startSpan(route, { kind: SpanKind.SERVER, startTime, attributes: { [ATTR_ROUTE]: route } }, parent);
    const requestContext = trace.setSpan(parent, span);
    let ended = false;
    return {
      startAttempt: (target, model, taskKind) => {
        const operation = taskKind === undefined ? undefined : genAiOperationName(taskKind);
        const attributes: Attributes = {
          [ATTR_GEN_AI_PROVIDER_NAME]: target.provider,
          [ATTR_TARGET_REF]: target.ref,
          [ATTR_TARGET_FAMILY]: target.family,
        };
        if (operation !== undefined) attributes[ATTR_GEN_AI_OPERATION_NAME] = operation;
        if (model !== undefined) attributes[ATTR_GEN_AI_REQUEST_MODEL] = model;
        const attempt = this.tracer.startSpan(spanName(operation, model, route), { kind: SpanKind.CLIENT, attributes }, requestContext);
        let done = false;
        return (end) => {
          if (done) return;
          done = true;
          const errorType = errorTypeOf(end.outcome);
          this.attemptsCounter.add(1, { ...attributes, [ATTR_OUTCOME]: errorType ?? 'ok' });
          if (attempt.isRecording()) {
            if (end.retryable !== undefined) attempt.setAttribute(ATTR_ATTEMPT_RETRYABLE, end.retryable);
            if (end.acceptance !== undefined) attempt.setAttribute(ATTR_ATTEMPT_ACCEPTANCE, end.acceptance);
            if (end.retryAfterMs !== undefined) attempt.setAttribute(ATTR_ATTEMPT_RETRY_AFTER_MS, end.retryAfterMs);
            if (errorType !== undefined) {
              attempt.setAttribute(ATTR_ERROR_TYPE, errorType);
              attempt.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
            }
          }
          attempt.end();
        };
      },
      end: (facts) => {
        if (ended) return;
        ended = true;
        const operation = facts.taskKind === undefined ? undefined : genAiOperationName(facts.taskKind);
        const errorType = facts.failed === undefined ? errorTypeOf(facts.outcome) : facts.failed ? (errorTypeOf(facts.outcome) ?? facts.outcome) : undefined;
        const common: Attributes = {};
        if (operation !== undefined) common[ATTR_GEN_AI_OPERATION_NAME] = operation;
        if (facts.model !== undefined) common[ATTR_GEN_AI_REQUEST_MODEL] = facts.model;
        if (facts.target !== undefined) common[ATTR_GEN_AI_PROVIDER_NAME] = facts.target.provider;
        if (errorType !== undefined) common[ATTR_ERROR_TYPE] = errorType;
        if (span.isRecording()) {
          span.updateName(spanName(operation, facts.model, route));
          span.setAttributes({
            ...common,
            ...usageAttributes(facts.usage),
            [ATTR_HTTP_RESPONSE_STATUS_CODE]: facts.status,
            [ATTR_OUTCOME]: facts.outcome,
            [ATTR_ATTEMPTS]: facts.attempts,
          });
          if (operation !== undefined) span.setAttribute(ATTR_GEN_AI_REQUEST_STREAM, facts.streamed);
          if (facts.target !== undefined) span.setAttributes({ [ATTR_TARGET_REF]: facts.target.ref, [ATTR_TARGET_FAMILY]: facts.target.family });
          if (facts.finishReason !== undefined) span.setAttribute(ATTR_GEN_AI_RESPONSE_FINISH_REASONS, [facts.finishReason.unified]);
          if (facts.streamed && facts.timeToFirstChunkMs !== undefined) span.setAttribute(ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK, facts.timeToFirstChunkMs / 1000);
          if (errorType !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
        }
        span.end();
        // Metrics need an operation: requests refused before their model was read are in the spans only.
        if (operation === undefined) return;
        this.duration.record((performance.now() - started) / 1000, common);
        const { inputTokens, outputTokens } = facts.usage ?? {};
        if (inputTokens !== undefined) this.tokens.record(inputTokens, { ...common, [ATTR_GEN_AI_TOKEN_TYPE]: GEN_AI_TOKEN_TYPE_VALUE_INPUT });
        if (outputTokens !== undefined) this.tokens.record(outputTokens, { ...common, [ATTR_GEN_AI_TOKEN_TYPE]: GEN_AI_TOKEN_TYPE_VALUE_OUTPUT });
        if (facts.streamed && facts.timeToFirstChunkMs !== undefined) this.firstChunk.record(facts.timeToFirstChunkMs / 1000, common);
      },
    };
  }
}
