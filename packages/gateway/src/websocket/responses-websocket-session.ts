import { randomUUID } from 'node:crypto';
import { isCodecErrorV1, type EgressContextV1, type EgressFailureV3 } from '@tokenforge/model-protocol';
import { createSseParser, parseSafeJson, parseSafeJsonBytes, type SseItem } from '@tokenforge/provider-adapters';
import type { WebSocket } from 'ws';
import type { DirectDialect } from '../dialects/direct-dialect.js';
import { createRequestScope, type RequestScope } from '../pipeline/request-scope.js';
import { serveModelRequest } from '../pipeline/serve-model-request.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { logStage } from '../stages/log-stage.js';
import { requestTelemetryFor } from '../telemetry/request-telemetry-for.js';
import { ConnectionResponseHistory, type ResponseHistoryLimits } from './response-history.js';
import { warmupResponseStream } from './warmup-response.js';
import { egressErrorEvent, errorEventFromAnswer, protocolErrorEvent, type ResponsesWebSocketErrorEvent } from './websocket-error-event.js';

/** Unsent bytes on a socket above which the stream waits for the client before it reads the next event. */
const SEND_BUFFER_HIGH_WATER_BYTES = 1024 * 1024;

/** The route label of every `response.create` served over the WebSocket (operator log and telemetry). */
export const RESPONSES_WEBSOCKET_ROUTE = 'WS /v1/responses';

/** What one WebSocket connection on `/v1/responses` serves with. */
export interface ResponsesWebSocketSessionOptions {
  readonly socket: WebSocket;
  readonly runtime: GatewayRuntime;
  /** The Responses dialect (its codecs, key placement and error envelope). */
  readonly dialect: DirectDialect;
  /**
   * The upgrade request's headers without the hop-by-hop and WebSocket ones: every `response.create` is served as a
   * request with these headers (the client key is checked again for each, like an HTTP request).
   */
  readonly headers: Headers;
  /** The id of the client key that passed the upgrade. */
  readonly clientId: string;
  /** The bounds of the connection's `previous_response_id` history. */
  readonly history: ResponseHistoryLimits;
  /** Called when a response starts (`+1`) and ends (`-1`): the drain waits for these. */
  readonly onActivity: (delta: 1 | -1) => void;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string `input` is one user message; an absent one is no items. Anything else is left for the ingress to refuse. */
function inputItems(input: unknown): unknown[] | undefined {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return Array.isArray(input) ? input : undefined;
}

/**
 * One WebSocket connection of the Responses API (`GET /v1/responses` upgraded): each `response.create` message is a
 * Responses request served by the same pipeline as `POST /v1/responses` (authenticate, admit, decode, route,
 * attempt, settle, log), its SSE events sent as one JSON text message each, its refusals as the `error` event. One
 * response at a time; the connection keeps its last response for `previous_response_id`. An idle connection holds
 * nothing of the gateway's: admission happens per `response.create`.
 */
export class ResponsesWebSocketSession {
  private readonly history: ConnectionResponseHistory;
  private running: { readonly abort: AbortController; reader?: ReadableStreamDefaultReader<Uint8Array> } | undefined;
  private closed = false;
  /** The connection's id in the operator log (`websocket.connection`), shared by all its lines. */
  private readonly connectionId = randomUUID();

  constructor(private readonly options: ResponsesWebSocketSessionOptions) {
    this.history = new ConnectionResponseHistory(options.history, options.runtime.now);
    options.socket.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    options.socket.on('close', () => this.close());
  }

  private get codecs() {
    const codecs = this.options.runtime.suite.codecsFor(this.options.dialect.family);
    if (codecs === undefined) throw new Error(`${this.options.dialect.family} has no codecs`);
    return codecs;
  }

  /**
   * The runtime a `response.create` is served with: the gateway's, its operator log lines carrying
   * `websocket: {connection, continued}` (`continued`: expanded from `previous_response_id`).
   */
  private runtimeFor(continued: boolean): GatewayRuntime {
    const runtime = this.options.runtime;
    return { ...runtime, logger: runtime.logger.child({ websocket: { connection: this.connectionId, continued } }) };
  }

  private send(message: string | ResponsesWebSocketErrorEvent): void {
    if (this.closed) return;
    this.options.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  private scope(): RequestScope {
    const scope = createRequestScope(new Request('http://gateway.invalid/v1/responses'), (route) => requestTelemetryFor(this.options.runtime, route), RESPONSES_WEBSOCKET_ROUTE);
    scope.facts.client = this.options.clientId;
    return scope;
  }

  /** Answers a message the pipeline never sees with `event`, and logs it as a refused request. */
  private refuse(event: ResponsesWebSocketErrorEvent, model?: string): void {
    const scope = this.scope();
    if (model !== undefined) scope.facts.model = model;
    this.send(event);
    logStage(this.runtimeFor(false).logger, scope, event.status, `refused:${event.error.code ?? 'websocket'}`);
  }

  private refuseInEgress(failure: EgressFailureV3): void {
    const context: EgressContextV1 = { responseId: 'gw-refused', modelLabel: 'unknown', createdAtMs: this.options.runtime.now() };
    this.refuse(egressErrorEvent(this.codecs.egress, failure, context));
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (isBinary) return this.refuse(protocolErrorEvent('binary_message'));
    const { maxBodyBytes } = this.options.runtime.limits;
    if (data.byteLength > maxBodyBytes) return this.refuseInEgress({ source: 'ingress', code: 'body-too-large' });
    let message: unknown;
    try {
      message = parseSafeJsonBytes(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), { maxBytes: maxBodyBytes });
    } catch (error) {
      if (!isCodecErrorV1(error)) throw error;
      return this.refuseInEgress({ source: 'ingress', code: error.code });
    }
    if (!isObject(message) || message.type !== 'response.create') return this.refuse(protocolErrorEvent('unknown_message_type'));
    const model = typeof message.model === 'string' ? message.model : undefined;
    if (this.running !== undefined) return this.refuse(protocolErrorEvent('conversation_already_has_active_response'), model);
    const abort = new AbortController();
    this.running = { abort };
    this.options.onActivity(1);
    void this.serve(message, abort.signal, model)
      .catch(() => this.send({ type: 'error', status: 500, error: { type: 'server_error', code: 'gateway_error', message: 'The gateway failed to serve this request.', param: null } }))
      .finally(() => {
        this.running = undefined;
        this.options.onActivity(-1);
      });
  }

  private async serve(message: JsonObject, signal: AbortSignal, model: string | undefined): Promise<void> {
    const { type: _type, generate, previous_response_id: previousId, ...body } = message;
    let input = inputItems(body.input);
    const continued = previousId !== undefined && previousId !== null;
    if (continued) {
      const expanded = typeof previousId === 'string' && input !== undefined ? this.history.expand(previousId, input) : { kind: 'not-found' as const };
      if (expanded.kind === 'not-found') return this.refuse(protocolErrorEvent('previous_response_not_found'), model);
      input = expanded.input;
    }
    if (generate === false && input !== undefined) return this.warmup(input, model, continued);
    const bytes = new TextEncoder().encode(JSON.stringify({ ...body, ...(input === undefined ? {} : { input }), stream: true }));
    const request = new Request('http://gateway.invalid/v1/responses', { method: 'POST', headers: this.options.headers, body: bytes, signal });
    const response = await serveModelRequest(request, this.runtimeFor(continued), this.options.dialect, { route: RESPONSES_WEBSOCKET_ROUTE });
    const streamed = response.status === 200 && response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    if (!streamed) {
      this.send(errorEventFromAnswer(response.status, response.headers, await response.text()));
      return;
    }
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    if (this.running !== undefined) this.running.reader = reader;
    if (this.closed) await reader.cancel();
    const parser = createSseParser();
    const take = (items: readonly SseItem[]): void => {
      for (const item of items) {
        if (item.kind !== 'event') continue;
        this.send(item.data);
        if (item.event === 'response.completed' && input !== undefined) this.rememberCompleted(item.data, input, bytes.byteLength);
      }
    };
    for (;;) {
      const next = await reader.read();
      if (next.done === true) break;
      take(parser.push(next.value));
      await this.drained();
    }
    take(parser.finish());
  }

  /** Backpressure: while the client has not taken what was sent, the provider stream is not read further. */
  private async drained(): Promise<void> {
    const { socket } = this.options;
    while (!this.closed && socket.bufferedAmount > SEND_BUFFER_HIGH_WATER_BYTES) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private rememberCompleted(data: string, input: readonly unknown[], requestBytes: number): void {
    const event = parseSafeJson(data, { maxBytes: Math.max(data.length * 3, 1) }) as { response?: { id?: unknown; output?: unknown } };
    const id = event.response?.id;
    const output = event.response?.output;
    if (typeof id === 'string' && Array.isArray(output)) this.history.remember({ id, input, output, bytes: requestBytes + Buffer.byteLength(data) });
  }

  private warmup(input: readonly unknown[], model: string | undefined, continued: boolean): void {
    const scope = this.scope();
    const modelLabel = model ?? 'unknown';
    if (model !== undefined) scope.facts.model = model;
    const context: EgressContextV1 = { responseId: `gw-${scope.requestId}`, modelLabel, createdAtMs: this.options.runtime.now() };
    const take = (items: readonly SseItem[]): void => {
      for (const item of items) if (item.kind === 'event') this.send(item.data);
    };
    const parser = createSseParser();
    take(parser.push(warmupResponseStream(this.codecs.egress, context)));
    take(parser.finish());
    this.history.remember({ id: context.responseId, input, output: [], bytes: Buffer.byteLength(JSON.stringify(input)) });
    scope.facts.firstByteAt = performance.now();
    logStage(this.runtimeFor(continued).logger, scope, 200, 'warmup');
  }

  /** The socket closed: the running response is cancelled (its provider call aborted) and the history dropped. */
  private close(): void {
    this.closed = true;
    this.history.forget();
    const running = this.running;
    if (running === undefined) return;
    running.abort.abort();
    void running.reader?.cancel().catch(() => undefined);
  }
}
