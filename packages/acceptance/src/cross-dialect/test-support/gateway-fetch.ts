import {
  isCodecErrorV1,
  type AdapterTerminalOutcome,
  type EgressContextV1,
  type EgressHttpResponseV1,
  type IngressDecodedRequestV1,
  type NormalizedStreamEventV1,
  type ProtocolCapabilityV2,
} from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import {
  createBuiltinTokenForgeProtocolSuiteV1,
  createFixtureTransportV1,
  type FixtureResponseV1,
  type RecordedTransportRequestV1,
} from '@tokenforge/provider-adapters';
import type { ChatDialect } from './dialects.js';

/** The builtin suite and one engine over its registry, shared by every cross-dialect test. */
export const builtinSuite = createBuiltinTokenForgeProtocolSuiteV1();
export const engine = createProtocolEngineV1({ registry: builtinSuite.registry });

/** The base URL the SDKs are pointed at; nothing listens there: the custom fetch answers. */
export const GATEWAY_ORIGIN = 'http://gateway.invalid';

/** The model name the upstream target serves (what the provider request must carry). */
export const PROVIDER_MODEL = 'provider-model';

/** Creation time of every egress answer (a fixed instant, so bytes are deterministic). */
export const EGRESS_CREATED_AT_MS = 1_767_225_600_000;

/** What one exchange through the gateway did, for assertions. */
export interface GatewayExchange {
  /** The client request as the SDK sent it. */
  readonly clientPath: string;
  readonly clientQuery: Readonly<Record<string, string>>;
  readonly clientBody: unknown;
  /** What the ingress codec made of it (absent when it refused). */
  decoded?: IngressDecodedRequestV1;
  /** Requests the provider adapter sent. */
  providerRequests: readonly RecordedTransportRequestV1[];
  /** The normalized events, in order (stream executions). */
  readonly events: NormalizedStreamEventV1[];
  /** The normalized terminal (absent on an ingress or engine refusal). */
  terminal?: AdapterTerminalOutcome;
  /** The answer the client got. */
  status?: number;
  headers?: Readonly<Record<string, string>>;
  /** Body pieces, one per encoder call that produced bytes (each is its own read for the client). */
  readonly chunks: Uint8Array[];
}

/** Options of {@link createGatewayFetch}. */
export interface GatewayFetchOptions {
  /** The dialect the client speaks. */
  readonly dialect: ChatDialect;
  /** The provider family that answers. */
  readonly provider: ChatDialect;
  /** The provider's scripted answers, one per client request. */
  readonly responses: readonly FixtureResponseV1[];
  /** The response id the client sees (default `resp_gateway`). */
  readonly responseId?: string;
}

/** The target capability: every chat feature on, so that the engine admits what the client asked for. */
function capabilityOf(provider: ChatDialect): ProtocolCapabilityV2 {
  return {
    protocolFamily: provider,
    executionMode: 'stream-capable',
    taskKinds: ['chat'],
    tools: true,
    imageInput: true,
    documentInput: true,
    audioInput: true,
    reasoning: true,
    structuredOutput: true,
  };
}

function toResponse(exchange: GatewayExchange, answer: EgressHttpResponseV1): Response {
  exchange.status = answer.status;
  exchange.headers = answer.headers;
  exchange.chunks.push(answer.body);
  return new Response(answer.body.byteLength === 0 ? null : answer.body.slice(), { status: answer.status, headers: answer.headers });
}

function streamResponse(exchange: GatewayExchange, contentType: string): Response {
  exchange.status = 200;
  exchange.headers = { 'content-type': contentType };
  const pieces = exchange.chunks.filter((chunk) => chunk.byteLength > 0);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: exchange.headers });
}

/**
 * A `fetch` that is a whole gateway: the SDK's request → ingress codec of the client dialect → task → engine over
 * the builtin suite with a fixture transport replaying the provider family's answer → normalized events and terminal
 * → egress codec of the client dialect → the `Response` the SDK reads. No network.
 *
 * Host rules this gateway follows (not codec behaviour): a stream whose terminal fails before any event produced a
 * byte is answered with the dialect's HTTP error (status and `retry-after`), since no response head was committed;
 * after the first byte, the failure is written in-stream by the encoder's terminal.
 */
export function createGatewayFetch(options: GatewayFetchOptions): { fetch: typeof fetch; exchanges: GatewayExchange[] } {
  const codecs = builtinSuite.codecsFor(options.dialect);
  if (codecs === undefined) throw new Error(`${options.dialect} has no codecs`);
  const { ingress, egress } = codecs;
  const exchanges: GatewayExchange[] = [];
  let served = 0;

  const gatewayFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const bodyBytes = new Uint8Array(await request.arrayBuffer());
    const bodyText = new TextDecoder().decode(bodyBytes);
    const exchange: GatewayExchange = {
      clientPath: url.pathname,
      clientQuery: Object.fromEntries(url.searchParams),
      clientBody: bodyText.length === 0 ? undefined : (JSON.parse(bodyText) as unknown),
      providerRequests: [],
      events: [],
      chunks: [],
    };
    exchanges.push(exchange);
    const context: EgressContextV1 = { responseId: options.responseId ?? 'resp_gateway', modelLabel: 'client-model', createdAtMs: EGRESS_CREATED_AT_MS };

    let decoded: IngressDecodedRequestV1;
    try {
      decoded = ingress.decodeRequest({ path: url.pathname, query: exchange.clientQuery, body: bodyBytes });
    } catch (error) {
      if (!isCodecErrorV1(error)) throw error;
      return toResponse(exchange, egress.encodeError({ source: 'ingress', code: error.code }, context));
    }
    exchange.decoded = decoded;
    const egressContext: EgressContextV1 = { ...context, modelLabel: decoded.modelLabel };

    const response = options.responses[served];
    served += 1;
    if (response === undefined) throw new Error('the gateway has no scripted provider answer left');
    const transport = createFixtureTransportV1({ responses: [response] });
    const binding = createProtocolEngineTargetBindingV1({
      target: { provider: 'upstream', providerModel: PROVIDER_MODEL, connectionRef: 'upstream', capability: capabilityOf(options.provider) },
      bindTransport: () => transport,
    });
    let execution;
    try {
      execution = await engine.execute({ binding, task: decoded.task, signal: new AbortController().signal });
    } catch (error) {
      if (!isProtocolEngineErrorV1(error)) throw error;
      exchange.providerRequests = transport.requests;
      return toResponse(exchange, egress.encodeError({ source: 'engine', code: error.code }, egressContext));
    } finally {
      exchange.providerRequests = transport.requests;
    }
    switch (execution.kind) {
      case 'response':
        exchange.terminal = execution.terminal;
        return toResponse(exchange, egress.encodeResponse(execution.terminal, egressContext));
      case 'stream': {
        const encoder = egress.createStreamEncoder?.(egressContext);
        if (encoder === undefined) throw new Error(`${options.dialect} cannot stream`);
        let wroteBytes = false;
        for await (const event of execution.events) {
          exchange.events.push(event);
          const bytes = encoder.encodeEvent(event);
          if (bytes.byteLength > 0) wroteBytes = true;
          exchange.chunks.push(bytes);
        }
        const terminal = await execution.terminal;
        exchange.terminal = terminal;
        exchange.providerRequests = transport.requests;
        if (terminal.status === 'failed' && !wroteBytes) {
          exchange.chunks.length = 0;
          return toResponse(exchange, egress.encodeError({ source: 'provider', failure: terminal.failure }, egressContext));
        }
        exchange.chunks.push(encoder.encodeTerminal(terminal));
        return streamResponse(exchange, encoder.contentType);
      }
      case 'accepted-job':
      case 'rejected':
        throw new Error('a chat task never starts an async job');
      default: {
        const unknownExecution: never = execution;
        throw new Error(`unknown execution ${String(unknownExecution)}`);
      }
    }
  };
  return { fetch: gatewayFetch as typeof fetch, exchanges };
}
