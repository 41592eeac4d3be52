import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway, type GatewayCatalogueV1 } from '@tokenforge/gateway';
import {
  isCodecErrorV1,
  type AdapterTerminalOutcomeV4,
  type IngressDecodedRequestV1,
  type NormalizedStreamEventV4,
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
import { CROSS_DIALECT_SIGNING_KEY } from './cross-dialect-signing-key.js';

/** The builtin suite and one engine over its registry, shared by every cross-dialect test. */
export const builtinSuite = createBuiltinTokenForgeProtocolSuiteV1();
export const engine = createProtocolEngineV1({ registry: builtinSuite.registry });

/** The base URL the SDKs are pointed at; the custom fetch sends each request to a real gateway instead. */
export const GATEWAY_ORIGIN = 'http://gateway.invalid';

/** The model name the upstream target serves (what the provider request must carry). */
export const PROVIDER_MODEL = 'provider-model';

/** What one exchange through the gateway did, for assertions. */
export interface GatewayExchange {
  /** The client request as the SDK sent it. */
  readonly clientPath: string;
  readonly clientQuery: Readonly<Record<string, string>>;
  readonly clientBody: unknown;
  /** What the client dialect's ingress codec makes of it (absent when it refuses). */
  decoded?: IngressDecodedRequestV1;
  /** Requests the provider received, as the replay server read them off the socket. */
  providerRequests: readonly RecordedTransportRequestV1[];
  /** The engine's normalized events for the same answer, in order (stream executions; an independent run). */
  readonly events: NormalizedStreamEventV4[];
  /** The engine's normalized terminal for the same answer (absent on an ingress or engine refusal). */
  terminal?: AdapterTerminalOutcomeV4;
  /** The answer the client got. */
  status?: number;
  headers?: Readonly<Record<string, string>>;
  /** Body pieces as the client read them off the socket. */
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

const CLIENT_KEY = 'test-key';

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

async function readIncoming(incoming: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A provider on a loopback socket that answers one scripted response: the fixture transport produces the status,
 * headers and body pieces (or the failure), and the server writes them to the wire (a failure resets the socket).
 */
async function startReplayProvider(response: FixtureResponseV1, requests: RecordedTransportRequestV1[]): Promise<{ url: string; close(): Promise<void> }> {
  const fixture = createFixtureTransportV1({ responses: [response] });
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    void (async () => {
      const url = new URL(incoming.url ?? '/', 'http://provider.invalid');
      const bytes = await readIncoming(incoming);
      const text = new TextDecoder().decode(bytes);
      const query = Object.fromEntries(url.searchParams);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers[name] = value;
      requests.push({
        method: (incoming.method ?? 'POST') as RecordedTransportRequestV1['method'],
        path: url.pathname,
        ...(url.searchParams.size === 0 ? {} : { query }),
        headers,
        body: text.length === 0 ? { type: 'none' } : { type: 'json', value: JSON.parse(text) as unknown },
      } as RecordedTransportRequestV1);
      try {
        const answer = await fixture.send({ method: 'POST', path: url.pathname, headers: {}, body: { type: 'none' }, signal: new AbortController().signal });
        outgoing.writeHead(answer.status, { ...answer.headers });
        outgoing.flushHeaders();
        for await (const piece of answer.body) outgoing.write(piece);
        outgoing.end();
      } catch {
        outgoing.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The engine's view of the same answer (events and terminal), from an independent run over a fixture transport. */
async function normalizedView(provider: ChatDialect, decoded: IngressDecodedRequestV1, response: FixtureResponseV1, exchange: GatewayExchange): Promise<void> {
  const transport = createFixtureTransportV1({ responses: [response] });
  const binding = createProtocolEngineTargetBindingV1({
    target: { provider: 'upstream', providerModel: PROVIDER_MODEL, connectionRef: 'upstream', capability: capabilityOf(provider) },
    bindTransport: () => transport,
  });
  let execution;
  try {
    execution = await engine.execute({ binding, task: decoded.task, signal: new AbortController().signal });
  } catch (error) {
    if (isProtocolEngineErrorV1(error)) return;
    throw error;
  }
  if (execution.kind === 'response') exchange.terminal = execution.terminal;
  else if (execution.kind === 'stream') {
    for await (const event of execution.events) exchange.events.push(event);
    exchange.terminal = await execution.terminal;
  }
}

/**
 * A `fetch` for the official SDKs that goes through the real gateway over real sockets: the SDK's request is sent
 * to a `@tokenforge/gateway` whose catalogue maps `client-model` to one target of the provider family, served by
 * a loopback provider that replays the scripted answer. The gateway runs the client dialect's ingress, the engine
 * with the provider family's adapter over `@tokenforge/http-transport`, and the client dialect's egress.
 *
 * For assertions each exchange also records what the client dialect's ingress makes of the request and the
 * engine's normalized events and terminal for the same answer (an independent run over a fixture transport).
 */
export function createGatewayFetch(options: GatewayFetchOptions): { fetch: typeof fetch; exchanges: GatewayExchange[] } {
  const codecs = builtinSuite.codecsFor(options.dialect);
  if (codecs === undefined) throw new Error(`${options.dialect} has no codecs`);
  const { ingress } = codecs;
  const exchanges: GatewayExchange[] = [];
  let served = 0;

  const gatewayFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const bodyBytes = new Uint8Array(await request.arrayBuffer());
    const bodyText = new TextDecoder().decode(bodyBytes);
    const providerRequests: RecordedTransportRequestV1[] = [];
    const exchange: GatewayExchange = {
      clientPath: url.pathname,
      clientQuery: Object.fromEntries(url.searchParams),
      clientBody: bodyText.length === 0 ? undefined : (JSON.parse(bodyText) as unknown),
      providerRequests,
      events: [],
      chunks: [],
    };
    exchanges.push(exchange);
    const response = options.responses[served];
    served += 1;
    if (response === undefined) throw new Error('the gateway has no scripted provider answer left');
    try {
      exchange.decoded = ingress.decodeRequest({ path: url.pathname, query: exchange.clientQuery, body: bodyBytes });
    } catch (error) {
      if (!isCodecErrorV1(error)) throw error;
    }
    if (exchange.decoded !== undefined) await normalizedView(options.provider, exchange.decoded, response, exchange);

    const provider = await startReplayProvider(response, providerRequests);
    const catalogue: GatewayCatalogueV1 = {
      version: 1,
      clientKeys: [{ id: 'sdk', env: 'CROSS_DIALECT_CLIENT_KEY' }],
      models: [
        {
          name: 'client-model',
          taskKind: 'chat',
          targets: [
            {
              provider: 'upstream',
              family: options.provider,
              model: PROVIDER_MODEL,
              baseUrl: provider.url,
              credentials: { apiKeyEnv: 'CROSS_DIALECT_PROVIDER_KEY' },
              capability: { tools: true, imageInput: true, documentInput: true, audioInput: true, reasoning: true, structuredOutput: true },
              network: { allowLoopback: true },
            },
          ],
        },
      ],
      limits: { maxAttempts: 1 },
      jobs: { signingKeyEnv: 'CROSS_DIALECT_SIGNING_KEY' },
    };
    const gateway = await startGateway({
      catalogue,
      env: { CROSS_DIALECT_CLIENT_KEY: CLIENT_KEY, CROSS_DIALECT_PROVIDER_KEY: 'provider-key-for-tests', CROSS_DIALECT_SIGNING_KEY },
      logger: { write: () => {} },
    });
    try {
      const answer = await fetch(`${gateway.url}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        ...(bodyBytes.byteLength === 0 ? {} : { body: bodyBytes }),
      });
      exchange.status = answer.status;
      exchange.headers = headerRecord(answer.headers);
      if (answer.body !== null) {
        const reader = answer.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          exchange.chunks.push(value);
        }
      }
      const pieces = exchange.chunks;
      return new Response(
        answer.body === null || answer.status === 204
          ? null
          : new ReadableStream<Uint8Array>({
              start(controller) {
                for (const piece of pieces) controller.enqueue(piece);
                controller.close();
              },
            }),
        { status: answer.status, headers: answer.headers },
      );
    } finally {
      await gateway.close();
      await provider.close();
    }
  };
  return { fetch: gatewayFetch as typeof fetch, exchanges };
}
