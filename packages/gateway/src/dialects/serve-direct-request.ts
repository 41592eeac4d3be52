import { randomUUID } from 'node:crypto';
import {
  isCodecErrorV1,
  type AdapterTerminalOutcomeV3,
  type ClientWireRequestV2,
  type EgressCodecV1,
  type EgressContextV1,
  type EgressFailureV3,
  type EgressHttpResponseV1,
  type FinishReasonV1,
  type IngressDecodedRequestV1,
  type NormalizedProviderFailureV3,
  type NormalizedStreamEventV3,
  type PreparedMediaExecutionInputV2,
  type ProtocolFamily,
  type ProviderDiagnosticV3,
  type ProviderRateLimitsV3,
  type ProviderReportedCostV3,
  type TaskEnvelopeV3,
  type TaskKindV3,
  type UsageV3,
} from '@tokenforge/model-protocol';
import { isConnectionPoolExhausted } from '@tokenforge/http-transport';
import { isProtocolEngineErrorV1, PROTOCOL_ENGINE_ERROR_CODES_V1, type ProtocolEngineExecutionV1 } from '@tokenforge/protocol-engine';
import { sameRateLimitHeaderDialect, writeRateLimitHeaders } from '@tokenforge/provider-adapters';
import type { Context } from 'hono';
import { matchClientKey, presentedClientKey, type ClientKeyPlacement } from '../http/authenticate-client.js';
import { clientAuthRefusal, type ErrorShape } from '../http/client-auth-refusal.js';
import { meaningfulHeaders } from '../http/meaningful-headers.js';
import { readLimitedBody } from '../http/read-limited-body.js';
import { requestDeadline, type RequestDeadline } from '../http/request-deadline.js';
import { logRequest, type OperatorLogAttempt, type OperatorLogLine } from '../operations/operator-log.js';
import { nextStepAfterFailure, waitFor, type AttemptBudget } from '../routing/attempt-policy.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { STRUCTURED_OUTPUT_HEADER, structuredOutputStrategyOf } from './structured-output-header.js';
import { catalogueModelLabel } from '../telemetry/catalogue-model-label.js';
import { requestTelemetryFor } from '../telemetry/request-telemetry-for.js';
import type { AttemptEnd, RequestTelemetry } from '../telemetry/gateway-telemetry.js';
import { fitTaskToTarget } from './fit-task-to-target.js';

/** One client dialect endpoint: whose codecs decode and encode, and where its clients put their key. */
export interface DirectDialect {
  /** The codec family of the dialect (`openai-chat/v1`, ...). */
  readonly family: ProtocolFamily;
  readonly keyPlacement: ClientKeyPlacement;
  /** The envelope of a client-key refusal. */
  readonly errorShape: ErrorShape;
  /** Decodes the body itself instead of the ingress codec (OpenAI image edits: a multipart form with files). */
  readonly decode?: (body: Uint8Array, request: Request) => Promise<{ decoded: IngressDecodedRequestV1; preparedMedia?: PreparedMediaExecutionInputV2 }>;
  /** An egress for what this request asked (OpenAI embeddings: the client's `encoding_format`). */
  readonly egressFor?: (decoded: IngressDecodedRequestV1) => EgressCodecV1 | undefined;
  /** The ingress decode of this endpoint's wire request, in place of the dialect's own (a counting endpoint). */
  readonly decodeWire?: (wire: ClientWireRequestV2) => IngressDecodedRequestV1;
  /** The egress this endpoint answers with, built on the dialect's own (a counting endpoint: its count answer). */
  readonly wrapEgress?: (egress: EgressCodecV1) => EgressCodecV1;
}

const GATEWAY_WAIT_MS = 1000;
const IN_STREAM_ERROR_PAUSE_MS = 20;

interface RequestRecord {
  readonly requestId: string;
  readonly route: string;
  readonly started: number;
  client?: string;
  model?: string;
  droppedHostedTools?: readonly string[] | undefined;
  target?: RuntimeTarget;
  readonly attempts: OperatorLogAttempt[];
  firstByteAt?: number;
  providerRequestId?: string;
  /** The rate-limit facts of the latest attempt's response head (none when it had none, or got no head). */
  rateLimits?: ProviderRateLimitsV3 | undefined;
  usage?: UsageV3;
  cost?: ProviderReportedCostV3;
  taskKind?: TaskKindV3;
  finishReason?: FinishReasonV1;
  streamed?: boolean;
  readonly telemetry: RequestTelemetry;
}

function toResponse(answer: EgressHttpResponseV1, extraHeaders: Readonly<Record<string, string>> = {}): Response {
  return new Response(answer.body.byteLength === 0 ? null : answer.body.slice(), { status: answer.status, headers: { ...answer.headers, ...extraHeaders } });
}

function failureHeaders(failure: EgressFailureV3, answer: EgressHttpResponseV1): Record<string, string> {
  if (failure.source !== 'provider' || failure.failure.retryAfterMs === undefined || answer.headers['retry-after'] !== undefined) return {};
  return { 'retry-after': String(Math.ceil(failure.failure.retryAfterMs / 1000)) };
}

function targetsFor(runtime: GatewayRuntime, task: TaskEnvelopeV3, modelName: string): readonly RuntimeTarget[] | undefined {
  const model = runtime.catalogue.models.get(modelName);
  // A token-count task counts the input of a chat model's request: the chat model's targets that can count serve it.
  const modelKind = task.kind === 'token-count' ? 'chat' : task.kind;
  if (model === undefined || model.taskKind !== modelKind) return undefined;
  // A V2 capability lists V2 kinds only, so it never lists `token-count`: read every list as V3 kinds.
  return model.targets.filter((target) => target.execution === 'sync' && (target.capability.taskKinds as readonly TaskKindV3[]).includes(task.kind));
}

type Attempted =
  | { readonly kind: 'answer'; readonly response: Response; readonly outcome: string }
  | { readonly kind: 'failure'; readonly failure: NormalizedProviderFailureV3; readonly acceptance: 'accepted' | 'not-accepted' | 'unknown' };

/**
 * Serves one model request of a direct-HTTP dialect: client key, concurrency slot, body limit, ingress, catalogue
 * model, then targets in order through the engine, with retries and fallback only while no byte reached the
 * client, and the dialect's egress for the answer, the stream and every refusal. One operator log line at the end.
 */
export async function serveDirectRequest(c: Context, runtime: GatewayRuntime, dialect: DirectDialect): Promise<Response> {
  const codecs = runtime.suite.codecsFor(dialect.family);
  if (codecs === undefined) throw new Error(`${dialect.family} has no codecs`);
  const { ingress } = codecs;
  let egress = dialect.wrapEgress === undefined ? codecs.egress : dialect.wrapEgress(codecs.egress);
  const request = c.req.raw;
  const url = new URL(request.url);
  const route = `${request.method} ${routeLabel(url.pathname)}`;
  const record: RequestRecord = { requestId: randomUUID(), route, started: performance.now(), attempts: [], telemetry: requestTelemetryFor(runtime, route) };
  let context: EgressContextV1 = { responseId: `gw-${record.requestId}`, modelLabel: 'unknown', createdAtMs: runtime.now() };
  const finish = (status: number, outcome: string): void => {
    const line: OperatorLogLine = {
      requestId: record.requestId,
      route: record.route,
      ...(record.client === undefined ? {} : { client: record.client }),
      ...(record.model === undefined ? {} : { model: record.model }),
      ...(record.target === undefined ? {} : { target: { provider: record.target.provider, family: record.target.family, ref: record.target.ref } }),
      attempts: record.attempts,
      status,
      outcome,
      ...(record.usage === undefined ? {} : { usage: record.usage }),
      ...(record.cost === undefined ? {} : { cost: record.cost }),
      ...(record.rateLimits === undefined ? {} : { rateLimits: record.rateLimits }),
      ...(record.firstByteAt === undefined ? {} : { timeToFirstByteMs: Math.round(record.firstByteAt - record.started) }),
      totalMs: Math.round(performance.now() - record.started),
      ...(record.providerRequestId === undefined ? {} : { providerRequestId: record.providerRequestId }),
      ...(record.droppedHostedTools === undefined ? {} : { droppedHostedTools: record.droppedHostedTools }),
    };
    logRequest(runtime.logger, line);
    record.telemetry.end({
      status,
      outcome,
      ...(record.model === undefined ? {} : { model: record.model }),
      ...(record.taskKind === undefined ? {} : { taskKind: record.taskKind }),
      ...(record.target === undefined ? {} : { target: record.target }),
      attempts: record.attempts.length,
      streamed: record.streamed === true,
      ...(record.usage === undefined ? {} : { usage: record.usage }),
      ...(record.finishReason === undefined ? {} : { finishReason: record.finishReason }),
      ...(line.timeToFirstByteMs === undefined || record.firstByteAt === undefined ? {} : { timeToFirstChunkMs: record.firstByteAt - record.started }),
    });
  };
  // How the JSON-schema request of the last attempt was carried (its header also goes with a refusal).
  let structuredOutput: string | undefined;
  const refuse = (failure: EgressFailureV3, outcome: string, passedHeaders: Readonly<Record<string, string>> = {}): Response => {
    const answer = egress.encodeError(failure, context);
    record.firstByteAt ??= performance.now();
    finish(answer.status, outcome);
    return toResponse(answer, {
      ...passedHeaders,
      'x-request-id': record.requestId,
      ...failureHeaders(failure, answer),
      ...(structuredOutput === undefined ? {} : { [STRUCTURED_OUTPUT_HEADER]: structuredOutput }),
    });
  };
  // The rate-limit headers an attempt's answer passes to the client: only when the target opted in, only from the
  // first target (never after a fallback: the client would read another account's quota as its own), and only to a
  // client whose dialect writes rate limits the way the target's does.
  const passedRateLimitHeaders = (target: RuntimeTarget, targetIndex: number): Record<string, string> => {
    if (!target.passRateLimitHeaders || targetIndex !== 0 || record.rateLimits === undefined) return {};
    const clientDialect = rateLimitHeadersOf(runtime, dialect.family);
    const targetDialect = rateLimitHeadersOf(runtime, target.family);
    if (clientDialect === undefined || targetDialect === undefined || !sameRateLimitHeaderDialect(clientDialect, targetDialect)) return {};
    return writeRateLimitHeaders(record.rateLimits, clientDialect, runtime.now());
  };

  const clientId = matchClientKey(presentedClientKey(dialect.keyPlacement, request.headers, url.searchParams), runtime.catalogue.clientKeys);
  if (clientId === undefined) {
    finish(401, 'refused:client-key');
    return clientAuthRefusal(dialect.errorShape, record.requestId);
  }
  record.client = clientId;
  if (runtime.draining) return refuse({ source: 'provider', failure: { code: 'overloaded', retryable: true, retryAfterMs: GATEWAY_WAIT_MS } }, 'refused:draining');
  if (!runtime.limiter.tryAcquire()) {
    return refuse({ source: 'provider', failure: { code: 'rate-limited', retryable: true, retryAfterMs: GATEWAY_WAIT_MS } }, 'refused:concurrency');
  }
  let released = false;
  let handedToStream = false;
  let deadline: RequestDeadline | undefined;
  const release = (): void => {
    if (!released) runtime.limiter.release();
    released = true;
    deadline?.dispose();
  };
  try {
    const body = await readLimitedBody(request, runtime.limits.maxBodyBytes);
    if (body === undefined) return refuse({ source: 'ingress', code: 'body-too-large' }, 'refused:body-too-large');
    let decoded: IngressDecodedRequestV1;
    let preparedMedia: PreparedMediaExecutionInputV2 | undefined;
    try {
      if (dialect.decode !== undefined) {
        const custom = await dialect.decode(body, request);
        decoded = custom.decoded;
        preparedMedia = custom.preparedMedia;
      } else {
        const wire: ClientWireRequestV2 = { path: url.pathname, query: Object.fromEntries(url.searchParams), body, headers: meaningfulHeaders(request.headers) };
        decoded = dialect.decodeWire === undefined ? ingress.decodeRequest(wire) : dialect.decodeWire(wire);
      }
    } catch (error) {
      if (!isCodecErrorV1(error)) throw error;
      return refuse({ source: 'ingress', code: error.code, ...(error.path === undefined ? {} : { param: error.path }) }, `refused:${error.code}`);
    }
    context = { ...context, modelLabel: decoded.modelLabel };
    egress = dialect.egressFor?.(decoded) ?? egress;
    const ingressDropped = droppedHostedTools(decoded);
    const hostedNames = hostedToolNames(decoded);
    record.droppedHostedTools = ingressDropped;
    record.model = catalogueModelLabel(runtime.catalogue.models, decoded.modelLabel);
    record.taskKind = decoded.task.kind;
    const targets = targetsFor(runtime, decoded.task, decoded.modelLabel);
    // A model none of whose targets can count answers the dialect's not-supported refusal (each dialect's 400 for
    // the engine's task mismatch), never an estimate or zero.
    if (targets !== undefined && targets.length === 0 && decoded.task.kind === 'token-count') {
      return refuse({ source: 'engine', code: PROTOCOL_ENGINE_ERROR_CODES_V1.TARGET_TASK_MISMATCH }, 'refused:token-count-unsupported');
    }
    if (targets === undefined || targets.length === 0) return refuse({ source: 'provider', failure: { code: 'not-found', retryable: false } }, 'refused:model-not-found');

    deadline = requestDeadline(request.signal, runtime.limits.requestTimeoutMs);
    const signal = deadline.signal;
    const budget: AttemptBudget = { attemptsLeft: runtime.limits.maxAttempts, waitBudgetMs: runtime.limits.retryBudgetMs };
    let last: Attempted | undefined;
    for (let index = 0; index < targets.length; index += 1) {
      const target = targets[index] as RuntimeTarget;
      let retriedHere = false;
      for (;;) {
        if (signal.aborted) return refuse({ source: 'provider', failure: { code: 'timeout', retryable: true } }, 'cancelled');
        budget.attemptsLeft -= 1;
        record.target = target;
        // Hints the target does not declare are left out for it (hosted tools it does not run are named).
        const fitted = fitTaskToTarget(decoded.task, target.capability, hostedNames);
        record.droppedHostedTools = mergeNames(ingressDropped, fitted.droppedHostedTools);
        structuredOutput = structuredOutputStrategyOf(fitted.task, target.capability);
        last = await attempt(runtime, egress, fitted.task, preparedMedia, target, context, signal, record, () => {
          release();
        }, finish);
        if (last.kind === 'answer') {
          if (record.droppedHostedTools !== undefined) last.response.headers.set(DROPPED_TOOLS_HEADER, record.droppedHostedTools.join(', '));
          for (const [name, value] of Object.entries(passedRateLimitHeaders(target, index))) last.response.headers.set(name, value);
          if (structuredOutput !== undefined) last.response.headers.set(STRUCTURED_OUTPUT_HEADER, structuredOutput);
          if (last.outcome !== 'stream') finish(last.response.status, last.outcome);
          else handedToStream = true;
          return last.response;
        }
        const step = nextStepAfterFailure(last.failure, last.acceptance, budget, index + 1 < targets.length, retriedHere);
        if (step.kind === 'retry-same') {
          budget.waitBudgetMs -= step.waitMs;
          retriedHere = true;
          await waitFor(step.waitMs, signal);
          continue;
        }
        if (step.kind === 'next-target') break;
        return refuse({ source: 'provider', failure: last.failure }, `failed:${last.failure.code}`, passedRateLimitHeaders(target, index));
      }
    }
    if (last?.kind === 'failure') {
      const lastTarget = record.target;
      const passed = lastTarget === undefined ? {} : passedRateLimitHeaders(lastTarget, targets.indexOf(lastTarget));
      return refuse({ source: 'provider', failure: last.failure }, `failed:${last.failure.code}`, passed);
    }
    return refuse({ source: 'provider', failure: { code: 'provider-error', retryable: false } }, 'failed:no-target');
  } finally {
    if (!handedToStream) release();
  }
}

/** The rate-limit header dialect of a family, as its suite entry declares it (none for async or undeclared families). */
function rateLimitHeadersOf(runtime: GatewayRuntime, family: ProtocolFamily) {
  const entry = runtime.suite.entries.find((candidate) => candidate.protocolFamily === family);
  return entry?.execution === 'sync' ? entry.rateLimitHeaders : undefined;
}

function failureDetail(failure: NormalizedProviderFailureV3, acceptance: 'accepted' | 'not-accepted' | 'unknown'): Omit<AttemptEnd, 'outcome'> {
  return { retryable: failure.retryable, acceptance, ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }) };
}

/** The response header that names the hosted tools the gateway dropped from a request's offered tools. */
export const DROPPED_TOOLS_HEADER = 'x-tokenforge-dropped-tools';

/** Hosted tools an ingress reported as dropped (a decoded request may carry `droppedHostedTools`). */
function droppedHostedTools(decoded: IngressDecodedRequestV1): readonly string[] | undefined {
  if (!('droppedHostedTools' in decoded) || !Array.isArray(decoded.droppedHostedTools) || decoded.droppedHostedTools.length === 0) return undefined;
  return [...new Set(decoded.droppedHostedTools.filter((entry): entry is string => typeof entry === 'string'))];
}

/** The client's names of the task's hosted tools, parallel to `task.hostedTools` (a decoded request may carry `hostedToolNames`). */
function hostedToolNames(decoded: IngressDecodedRequestV1): readonly string[] | undefined {
  if (!('hostedToolNames' in decoded) || !Array.isArray(decoded.hostedToolNames)) return undefined;
  return decoded.hostedToolNames.map((entry) => (typeof entry === 'string' ? entry : 'hosted-tool'));
}

function mergeNames(first: readonly string[] | undefined, second: readonly string[]): readonly string[] | undefined {
  if (second.length === 0) return first;
  return [...new Set([...(first ?? []), ...second])];
}

function routeLabel(path: string): string {
  return path.startsWith('/v1beta/models/') ? path.replace(/^\/v1beta\/models\/[^/:]+/, '/v1beta/models/{model}') : path;
}

async function attempt(
  runtime: GatewayRuntime,
  egress: EgressCodecV1,
  task: TaskEnvelopeV3,
  preparedMedia: PreparedMediaExecutionInputV2 | undefined,
  target: RuntimeTarget,
  context: EgressContextV1,
  signal: AbortSignal,
  record: RequestRecord,
  release: () => void,
  finish: (status: number, outcome: string) => void,
): Promise<Attempted> {
  const endAttempt = record.telemetry.startAttempt(target, record.model, task.kind);
  // Why a failed attempt failed (host-private): filled by the engine's observer, written with the attempt.
  const diagnostics: ProviderDiagnosticV3[] = [];
  // A new attempt's facts replace the last one's: an attempt without a response head has none.
  record.rateLimits = undefined;
  const logAttempt = (outcome: string, detail: Omit<AttemptEnd, 'outcome'> = {}): void => {
    record.attempts.push({
      target: target.ref,
      provider: target.provider,
      family: target.family,
      outcome,
      ...(detail.retryAfterMs === undefined ? {} : { retryAfterMs: detail.retryAfterMs }),
      ...(diagnostics.length === 0 ? {} : { diagnostics: [...diagnostics] }),
      ...(record.rateLimits === undefined ? {} : { rateLimits: record.rateLimits }),
    });
    endAttempt({ outcome, ...detail });
  };
  const observer = { onDiagnostic: (diagnostic: ProviderDiagnosticV3): void => void diagnostics.push(diagnostic) };
  let execution: ProtocolEngineExecutionV1;
  try {
    execution = await runtime.engine.execute({ binding: target.binding, task, signal, observer, ...(preparedMedia === undefined ? {} : { preparedMedia }) });
  } catch (error) {
    if (!isProtocolEngineErrorV1(error)) throw error;
    logAttempt(error.code, { retryable: error.phase === 'input' || error.phase === 'transport', acceptance: error.phase === 'transport' ? 'unknown' : 'not-accepted' });
    // An input-phase refusal (the target cannot do what the task asks) sent nothing: the next target may.
    if (error.phase === 'input') return { kind: 'failure', failure: { code: 'unsupported', retryable: true }, acceptance: 'not-accepted' };
    // A transport failure (connection refused or reset, no response head) returned nothing to the client.
    // No free connection to the target within its connectMs: nothing was sent; 503-class, the next target may serve.
    if (error.phase === 'transport' && isConnectionPoolExhausted(error)) return { kind: 'failure', failure: { code: 'overloaded', retryable: true }, acceptance: 'not-accepted' };
    if (error.phase === 'transport') return { kind: 'failure', failure: { code: 'network', retryable: true }, acceptance: 'unknown' };
    const answer = egress.encodeError({ source: 'engine', code: error.code }, context);
    return { kind: 'answer', response: toResponse(answer, { 'x-request-id': record.requestId }), outcome: `engine:${error.code}` };
  }
  if (execution.responseMetadata.providerRequestId !== undefined) record.providerRequestId = execution.responseMetadata.providerRequestId;
  record.rateLimits = execution.responseMetadata.rateLimits;
  switch (execution.kind) {
    case 'response': {
      const terminal = execution.terminal;
      if (terminal.status === 'failed') {
        logAttempt(terminal.failure.code, failureDetail(terminal.failure, execution.acceptance.state));
        return { kind: 'failure', failure: terminal.failure, acceptance: execution.acceptance.state };
      }
      logAttempt(terminal.status === 'completed' ? 'ok' : terminal.status);
      if (terminal.status === 'completed' && terminal.usage !== undefined) record.usage = terminal.usage;
      if (terminal.status === 'completed' && terminal.cost !== undefined) record.cost = terminal.cost;
      if (terminal.status === 'completed' && terminal.finishReason !== undefined) record.finishReason = terminal.finishReason;
      record.firstByteAt = performance.now();
      return { kind: 'answer', response: toResponse(egress.encodeResponse(terminal, context), { 'x-request-id': record.requestId }), outcome: terminal.status };
    }
    case 'stream':
      return startStream(execution, egress, context, record, release, finish, logAttempt);
    case 'accepted-job':
    case 'rejected':
      logAttempt('unexpected-async');
      return { kind: 'failure', failure: { code: 'unsupported', retryable: true }, acceptance: 'not-accepted' };
    default: {
      const never: never = execution;
      return never;
    }
  }
}

type StreamExecution = Extract<ProtocolEngineExecutionV1, { kind: 'stream' }>;

/**
 * Pulls events until the encoder has bytes to send (nothing has reached the client before that, so a failed
 * terminal may still fall back), then commits the response head and streams the rest. After the first byte a
 * failure is written in-stream by the encoder and the stream ends; it is never restarted.
 */
async function startStream(
  execution: StreamExecution,
  egress: EgressCodecV1,
  context: EgressContextV1,
  record: RequestRecord,
  release: () => void,
  finish: (status: number, outcome: string) => void,
  logAttempt: (outcome: string, detail?: Omit<AttemptEnd, 'outcome'>) => void,
): Promise<Attempted> {
  const encoder = egress.createStreamEncoder?.(context);
  if (encoder === undefined) {
    execution.abort('no stream encoder');
    await execution.terminal;
    logAttempt('no-stream-encoder');
    return { kind: 'failure', failure: { code: 'unsupported', retryable: false }, acceptance: 'not-accepted' };
  }
  const iterator = execution.events[Symbol.asyncIterator]();
  const pending: Uint8Array[] = [];
  const take = (event: NormalizedStreamEventV3): void => {
    if (event.type === 'usage') record.usage = event.usage;
    const bytes = encoder.encodeEvent(event);
    if (bytes.byteLength > 0) pending.push(bytes);
  };
  let ended = false;
  try {
    while (pending.length === 0) {
      const next = await iterator.next();
      if (next.done === true) {
        ended = true;
        break;
      }
      take(next.value);
    }
  } catch {
    ended = true;
  }
  if (ended && pending.length === 0) {
    const terminal = await execution.terminal;
    if (terminal.status === 'failed') {
      logAttempt(terminal.failure.code, failureDetail(terminal.failure, 'unknown'));
      // The head arrived but the answer did not (a stall, a cut): for the client, whose stream has not started,
      // that is an answer that may or may not have been produced, i.e. `unknown`.
      return { kind: 'failure', failure: terminal.failure, acceptance: 'unknown' };
    }
  }
  logAttempt('ok');
  record.streamed = true;
  let closed = false;
  const close = (terminal: AdapterTerminalOutcomeV3 | undefined, status: string): void => {
    if (closed) return;
    closed = true;
    release();
    if (terminal !== undefined && terminal.status === 'completed' && terminal.usage !== undefined) record.usage = terminal.usage;
    if (terminal !== undefined && terminal.status === 'completed' && terminal.cost !== undefined) record.cost = terminal.cost;
    if (terminal !== undefined && terminal.status === 'completed' && terminal.finishReason !== undefined) record.finishReason = terminal.finishReason;
    finish(200, status);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // A pull that enqueues nothing is not repeated by the stream: loop until bytes or the end.
        for (;;) {
          const bytes = pending.shift();
          if (bytes !== undefined) {
            record.firstByteAt ??= performance.now();
            controller.enqueue(bytes);
            return;
          }
          if (ended) break;
          const next = await iterator.next();
          if (next.done === true) ended = true;
          else take(next.value);
        }
        const terminal = await execution.terminal;
        const tail = encoder.encodeTerminal(terminal);
        // An in-stream error goes out as its own read: the Gemini SDK recognises its bare error object only when
        // it does not share a socket read with the frames before it.
        if (terminal.status === 'failed' && record.firstByteAt !== undefined) await new Promise((resolve) => setTimeout(resolve, IN_STREAM_ERROR_PAUSE_MS));
        if (tail.byteLength > 0) controller.enqueue(tail);
        controller.close();
        close(terminal, terminal.status === 'failed' ? `failed-in-stream:${terminal.failure.code}` : terminal.status);
      } catch {
        execution.abort('stream error');
        controller.error(new Error('stream failed'));
        close(undefined, 'failed-in-stream:gateway');
      }
    },
    async cancel() {
      execution.abort('client closed the stream');
      await iterator.return?.().catch(() => undefined);
      const terminal = await execution.terminal.catch(() => undefined);
      close(terminal, 'cancelled');
    },
  });
  return {
    kind: 'answer',
    response: new Response(body, {
      status: 200,
      headers: { 'content-type': encoder.contentType, 'cache-control': 'no-cache', 'x-request-id': record.requestId },
    }),
    outcome: 'stream',
  };
}
