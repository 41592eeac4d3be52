import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { checkAuth, type SimulatorSurface } from './auth.js';
import { simulatorRateLimitHeaders } from './rate-limit-headers.js';
import { DashScopeSurface } from './jobs/dashscope-jobs.js';
import { simulatedMediaBytes, type SimCallbackDelivery } from './jobs/job-store.js';
import { KlingSurface, type SimJobTimings } from './jobs/kling-jobs.js';
import { parseSimulatorScenario, SIMULATOR_SCENARIO_HEADER, type SimulatorScenario } from './scenario.js';
import { headerValue, parseJsonObject, readRequestBody, SimExchange, type SimRequest, type SimulatorServedUsage } from './sim-exchange.js';
import { createSimulatorCertificate, type SimulatorCertificate } from './simulator-certificate.js';
import {
  createSimulatorCredentials,
  simulatorBaseUrlFor,
  simulatorCredentialsFor,
  type SimulatorCredentials,
  type SimulatorTransportCredentials,
} from './simulator-credentials.js';
import { anthropicMessagesWire } from './wire/anthropic-messages-wire.js';
import { serveCohereRerank } from './wire/cohere-rerank-wire.js';
import { serveCountTokens } from './wire/count-tokens-wire.js';
import { geminiWire } from './wire/gemini-wire.js';
import { openAiChatWire } from './wire/openai-chat-wire.js';
import { serveOpenAiEmbeddings } from './wire/openai-embeddings-wire.js';
import { imageEditModel, serveOpenAiImageEdits, serveOpenAiImageGenerations } from './wire/openai-images-wire.js';
import { openAiResponsesWire } from './wire/openai-responses-wire.js';
import { roughTokens, serveChat, type ChatWire } from './wire/serve-chat.js';
import { planScriptedTurn, type ScriptedToolArguments } from './scripted/plan-scripted-turn.js';
import { planStructuredTurn } from './scripted/plan-structured-turn.js';
import type { ScriptedDialect } from './scripted/scripted-dialect.js';
import { readSimulatorOpaqueHistory, type SimulatorOpaqueHistory } from './wire/opaque-history.js';
import { readSimulatorCompactionRequest, simulatorCompactionPayload, type SimulatorCompactionRequest } from './wire/compaction-request.js';
import { planFor, type AnswerPlan } from './wire/answer-plan.js';

/** Options of {@link startProviderSimulator}. */
export interface StartProviderSimulatorOptions {
  /** Port to listen on; `0` (default) picks a free one. */
  readonly port?: number;
  /** Serve HTTPS with a self-signed certificate generated at start (see `certificate`). Default `false`. */
  readonly tls?: boolean;
  /** Pins some test credentials (the others are random). */
  readonly credentials?: Partial<SimulatorCredentials>;
  /** How long an async job stays queued, then running, unless its scenario says otherwise. Default 100 ms / 200 ms. */
  readonly jobTimings?: Partial<SimJobTimings>;
  /**
   * Result URLs of Kling and DashScope jobs point at an https media server the simulator runs beside its API
   * (`https://127.0.0.1:<port>/media/...`, trust `mediaCertificate`), serving deterministic bytes (no auth, as a
   * CDN's signed URL) until `expireMedia()`. Default: an unreachable host.
   */
  readonly serveMedia?: boolean;
  /** Clock in epoch milliseconds (job progression, JWT checks). Default `Date.now`. */
  readonly now?: () => number;
  /**
   * Arguments of the `scripted` scenario's tool calls, by tool name (a JSON object, or text for a custom tool).
   * A tool without an entry gets a small value of its declared schema.
   */
  readonly scriptedToolArguments?: ScriptedToolArguments;
}

/**
 * The header a host sends with each metered attempt (the TokenForge gateway does), so that what the simulator served
 * can be reconciled with the host's ledger.
 */
export const SIMULATOR_ATTEMPT_ID_HEADER = 'x-tokenforge-attempt-id';

/** One request the simulator answered. */
export interface SimulatorRequestRecord {
  readonly method: string;
  readonly path: string;
  /** The status of the response head, `0` when none was sent (connection cut). */
  readonly status: number;
  /** The request's {@link SIMULATOR_ATTEMPT_ID_HEADER}, when it carried one. */
  readonly attemptId?: string;
  /**
   * The usage a synthesized chat answer reported, set only when that answer was written in full (a stream cut, a
   * mid-stream error, an error status or a client gone before the end report none).
   */
  readonly usage?: SimulatorServedUsage;
  /** The compaction payloads and stored reasoning ids a chat request sent back, when it sent any. */
  readonly opaqueHistory?: SimulatorOpaqueHistory;
  /** The server-side compaction a chat request asked for, and whether the answer compacted, when it asked. */
  readonly compactionRequest?: SimulatorCompactionRequest;
}

/** A running simulator. */
export interface ProviderSimulator {
  /** `http://127.0.0.1:<port>` or `https://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** The certificate a client must trust when `tls` is on. */
  readonly certificate: SimulatorCertificate | undefined;
  /** The test credentials it accepts. */
  readonly credentials: SimulatorCredentials;
  /** The credential of a family, shaped as `@tokenforge/http-transport` takes it; `undefined` for unknown families. */
  credentialsFor(protocolFamily: string): SimulatorTransportCredentials | undefined;
  /** The base URL a host configures for a family; `undefined` for unknown families. */
  baseUrlFor(protocolFamily: string): string | undefined;
  /** Requests answered so far, in order (recorded when each response closes). */
  readonly requests: readonly SimulatorRequestRecord[];
  /** The requests that carried {@link SIMULATOR_ATTEMPT_ID_HEADER}, by attempt id (a repeated id keeps every request). */
  servedAttempts(): ReadonlyMap<string, readonly SimulatorRequestRecord[]>;
  /** Callback deliveries attempted so far, in order. */
  readonly callbacks: readonly SimCallbackDelivery[];
  /** With `serveMedia`: the certificate (PEM) of the https media server, for a client's trust list. */
  readonly mediaCertificate: string | undefined;
  /** From now on the result URLs of `serveMedia` answer 404, as a provider's expired URLs do. */
  expireMedia(): void;
  /** Status reads of each async job (Kling and DashScope) by provider job id: the count and the most at once. */
  jobPolls(): ReadonlyMap<string, { readonly polls: number; readonly maxConcurrent: number }>;
  /** Stops listening, ends stalled answers and callback timers, closes every connection. */
  close(): Promise<void>;
}

interface Route {
  readonly surface: SimulatorSurface;
  readonly serve: (exchange: SimExchange, scenario: SimulatorScenario | undefined) => Promise<void>;
}

const DEFAULT_CHAT: SimulatorScenario = { kind: 'text', chunks: 3 };

interface ChatDialect {
  readonly dialect: ScriptedDialect;
  readonly scriptedToolArguments: ScriptedToolArguments | undefined;
}

function chatRoute(surface: SimulatorSurface, wire: ChatWire, chat: ChatDialect, streamOf: (body: Record<string, unknown>) => boolean, modelOf?: () => string): Route {
  return {
    surface,
    serve: async (exchange, headerScenario) => {
      const body = parseJsonObject(exchange.request.body);
      if (body === undefined) return exchange.json(400, wire.errorBody(400, 'The request body is not a JSON object.'));
      const model = modelOf?.() ?? (typeof body.model === 'string' ? body.model : undefined);
      if (model === undefined) return exchange.json(400, wire.errorBody(400, 'A model is required.'));
      const history = readSimulatorOpaqueHistory(chat.dialect, body, exchange.request.headers);
      if ('refusal' in history) return exchange.json(400, wire.errorBody(400, history.refusal));
      if (history.compactions.length + history.storedReasoningIds.length > 0) exchange.opaqueHistory = history;
      const scenario = headerScenario ?? parseSimulatorScenario(model) ?? DEFAULT_CHAT;
      const facts = { stream: streamOf(body), model, inputTokens: roughTokens(exchange.request.body.length) };
      const compaction = readSimulatorCompactionRequest(chat.dialect, body, exchange.request.headers, facts.inputTokens);
      if (compaction !== undefined && 'refusal' in compaction) return exchange.json(400, wire.errorBody(400, compaction.refusal));
      exchange.compactionRequest = compaction;
      const compacted = (plan: AnswerPlan): AnswerPlan => (compaction?.compacted === true ? { ...plan, compaction: { data: simulatorCompactionPayload(chat.dialect) } } : plan);
      if (scenario.kind === 'structured') {
        return serveChat(wire, exchange, facts, scenario, compacted(planStructuredTurn({ dialect: chat.dialect, body, bad: scenario.bad, inputTokens: facts.inputTokens })));
      }
      if (scenario.kind !== 'scripted') return serveChat(wire, exchange, facts, scenario, compaction?.compacted === true ? compacted(planFor(scenario, facts.inputTokens)) : undefined);
      const turn = planScriptedTurn({ dialect: chat.dialect, body, tool: scenario.tool, inputTokens: facts.inputTokens, toolArguments: chat.scriptedToolArguments });
      if ('refusal' in turn) return exchange.json(400, wire.errorBody(400, turn.refusal));
      return serveChat(wire, exchange, facts, scenario, compacted(turn.plan));
    },
  };
}

function jsonModelScenario(exchange: SimExchange, headerScenario: SimulatorScenario | undefined): SimulatorScenario {
  if (headerScenario !== undefined) return headerScenario;
  const model = parseJsonObject(exchange.request.body)?.model;
  return (typeof model === 'string' ? parseSimulatorScenario(model) : undefined) ?? DEFAULT_CHAT;
}

/**
 * Starts a loopback provider simulator speaking the nine wire protocols at their real paths, with each provider's
 * auth scheme and error envelopes. See `scenario.ts` for how a request picks its answer.
 */
export async function startProviderSimulator(options: StartProviderSimulatorOptions = {}): Promise<ProviderSimulator> {
  const now = options.now ?? Date.now;
  const servedBySurface = new Map<SimulatorSurface, number>();
  const credentials = createSimulatorCredentials(options.credentials);
  const timings: SimJobTimings = { queuedMs: options.jobTimings?.queuedMs ?? 100, runningMs: options.jobTimings?.runningMs ?? 200, pollDelayMs: options.jobTimings?.pollDelayMs ?? 0 };
  const kling = new KlingSurface(now, timings);
  const dashScope = new DashScopeSurface(now, timings);
  const requests: SimulatorRequestRecord[] = [];
  let mediaExpired = false;
  let shut: () => void = () => {};
  const shutdown = new Promise<void>((resolve) => (shut = resolve));

  const chat = (dialect: ScriptedDialect): ChatDialect => ({ dialect, scriptedToolArguments: options.scriptedToolArguments });

  function route(request: SimRequest): Route | undefined {
    const segments = request.path.split('/').filter((segment) => segment.length > 0);
    const path = segments.join('/');
    if (request.method === 'POST') {
      switch (path) {
        case 'v1/chat/completions':
          return chatRoute('openai', openAiChatWire, chat('openai-chat'), (body) => body.stream === true);
        case 'v1/responses':
          return chatRoute('openai', openAiResponsesWire, chat('openai-responses'), (body) => body.stream === true);
        case 'v1/messages':
          return chatRoute('anthropic', anthropicMessagesWire, chat('anthropic-messages'), (body) => body.stream === true);
        case 'v1/messages/count_tokens':
          return { surface: 'anthropic', serve: (exchange, scenario) => serveCountTokens('anthropic-messages', anthropicMessagesWire, exchange, jsonModelScenario(exchange, scenario)) };
        case 'v1/responses/input_tokens':
          return { surface: 'openai', serve: (exchange, scenario) => serveCountTokens('openai-responses', openAiResponsesWire, exchange, jsonModelScenario(exchange, scenario)) };
        case 'v1/embeddings':
          return { surface: 'openai', serve: (exchange, scenario) => serveOpenAiEmbeddings(exchange, jsonModelScenario(exchange, scenario)) };
        case 'v1/images/generations':
          return { surface: 'openai', serve: (exchange, scenario) => serveOpenAiImageGenerations(exchange, jsonModelScenario(exchange, scenario)) };
        case 'v1/images/edits':
          return {
            surface: 'openai',
            serve: (exchange, scenario) => serveOpenAiImageEdits(exchange, scenario ?? parseSimulatorScenario(imageEditModel(exchange) ?? '') ?? DEFAULT_CHAT),
          };
        case 'v2/rerank':
          return { surface: 'cohere', serve: (exchange, scenario) => serveCohereRerank(exchange, jsonModelScenario(exchange, scenario)) };
        default:
          break;
      }
      const gemini = /^v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
      if (gemini !== null) {
        const model = decodeURIComponent(gemini[1] as string);
        return chatRoute('gemini', geminiWire, chat('gemini'), () => gemini[2] === 'streamGenerateContent', () => model);
      }
      const geminiCount = /^v1beta\/models\/([^/:]+):countTokens$/.exec(path);
      if (geminiCount !== null) {
        const model = decodeURIComponent(geminiCount[1] as string);
        return { surface: 'gemini', serve: (exchange, scenario) => serveCountTokens('gemini', geminiWire, exchange, scenario ?? parseSimulatorScenario(model) ?? DEFAULT_CHAT) };
      }
    }
    if (segments[0] === 'v1' && segments[1] === 'videos') {
      return {
        surface: 'kling',
        serve: async (exchange, scenario) => {
          if (!(await kling.handle(exchange, segments.slice(2), scenario))) exchange.json(404, { code: 1202, message: 'Resource not found.', request_id: 'sim' });
        },
      };
    }
    if (segments[0] === 'api' && segments[1] === 'v1') {
      return {
        surface: 'dashscope',
        serve: async (exchange, scenario) => {
          if (!(await dashScope.handle(exchange, segments.slice(2), scenario))) {
            exchange.json(404, { request_id: 'sim', code: 'NotFound', message: 'Resource not found.' });
          }
        },
      };
    }
    return undefined;
  }

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://simulator.invalid');
    const attemptId = headerValue(incoming.headers, SIMULATOR_ATTEMPT_ID_HEADER);
    const record = { method: incoming.method ?? 'GET', path: url.pathname, ...(attemptId === undefined ? {} : { attemptId }) };
    let exchange: SimExchange | undefined;
    response.once('close', () => {
      const usage = exchange?.servedUsage;
      const opaqueHistory = exchange?.opaqueHistory;
      const compactionRequest = exchange?.compactionRequest;
      requests.push({
        ...record,
        status: response.headersSent ? response.statusCode : 0,
        ...(usage === undefined ? {} : { usage }),
        ...(opaqueHistory === undefined ? {} : { opaqueHistory }),
        ...(compactionRequest === undefined ? {} : { compactionRequest }),
      });
    });
    const body = await readRequestBody(incoming);
    if (body === undefined) {
      response.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"error":"request too large"}');
      return;
    }
    const request: SimRequest = { method: record.method, path: url.pathname, query: url.searchParams, headers: incoming.headers, body };
    exchange = new SimExchange(request, response, shutdown);
    const target = route(request);
    if (target === undefined) return exchange.json(404, { error: { message: 'simulator: unknown route', type: 'invalid_request_error' } });
    // Every answer past routing carries the surface's rate-limit headers, as a real provider's does.
    const served = servedBySurface.get(target.surface) ?? 0;
    servedBySurface.set(target.surface, served + 1);
    for (const [name, value] of Object.entries(simulatorRateLimitHeaders(target.surface, served, now()))) response.setHeader(name, value);
    const refusal = checkAuth(target.surface, incoming.headers, url.searchParams, credentials, now());
    if (refusal !== undefined) return exchange.json(refusal.status, refusal.body);
    const header = headerValue(incoming.headers, SIMULATOR_SCENARIO_HEADER);
    const scenario = header === undefined ? undefined : parseSimulatorScenario(header);
    if (header !== undefined && scenario === undefined) return exchange.json(400, { error: { message: 'simulator: unknown scenario', type: 'invalid_request_error' } });
    await target.serve(exchange, scenario);
  }

  function servedAttempts(): ReadonlyMap<string, readonly SimulatorRequestRecord[]> {
    const byAttempt = new Map<string, SimulatorRequestRecord[]>();
    for (const record of requests) {
      if (record.attemptId === undefined) continue;
      const list = byAttempt.get(record.attemptId);
      if (list === undefined) byAttempt.set(record.attemptId, [record]);
      else list.push(record);
    }
    return byAttempt;
  }

  const listener = (incoming: IncomingMessage, response: ServerResponse): void => {
    handle(incoming, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"simulator failure"}');
      else response.destroy();
    });
  };
  const certificate = options.tls === true ? await createSimulatorCertificate() : undefined;
  const server: Server = certificate === undefined ? createHttpServer(listener) : createHttpsServer({ cert: certificate.cert, key: certificate.key }, listener);
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${certificate === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  // Result URLs are https (as every provider's are, and as the adapters require): a media server of its own, with
  // its own certificate, so the API can stay plain HTTP.
  const media = options.serveMedia === true ? await startMediaServer(() => mediaExpired) : undefined;
  if (media !== undefined) {
    kling.mediaOrigin = media.url;
    dashScope.mediaOrigin = media.url;
  }
  let closing: Promise<void> | undefined;

  return {
    url,
    port,
    certificate,
    credentials,
    credentialsFor: (family) => simulatorCredentialsFor(credentials, family),
    baseUrlFor: (family) => simulatorBaseUrlFor(url, family),
    requests,
    servedAttempts,
    mediaCertificate: media?.certificate,
    expireMedia() {
      mediaExpired = true;
    },
    jobPolls() {
      return new Map([...kling.store.polls, ...dashScope.store.polls].map(([id, entry]) => [id, { polls: entry.polls, maxConcurrent: entry.maxConcurrent }]));
    },
    get callbacks() {
      return [...kling.store.deliveries, ...dashScope.store.deliveries];
    },
    close() {
      closing ??= (async () => {
        shut();
        await Promise.all([kling.store.close(), dashScope.store.close()]);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await media?.close();
      })();
      return closing;
    },
  };
}

/** The https server of `serveMedia`: deterministic bytes at `/media/...` until expired. */
async function startMediaServer(expired: () => boolean): Promise<{ url: string; certificate: string; close: () => Promise<void> }> {
  const certificate = await createSimulatorCertificate();
  const server = createHttpsServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://media.invalid').pathname;
    if (request.method !== 'GET' || !path.startsWith('/media/') || expired()) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const bytes = simulatedMediaBytes(path);
    response.writeHead(200, { 'content-type': path.endsWith('.png') ? 'image/png' : 'video/mp4', 'content-length': String(bytes.byteLength) }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    certificate: certificate.cert,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
