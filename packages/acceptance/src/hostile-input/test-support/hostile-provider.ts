import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { createHttpProviderTransport, type HttpProviderTransport, type HttpTransportPolicy } from '@tokenforge/http-transport';
import type { ProtocolCapabilityV2, ProtocolFamily } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, type ProtocolEngineTargetBindingV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { afterEach } from 'vitest';

/** The secrets every hostile case binds; none of them may ever appear in a fact the engine returns. */
export const CANARY_API_KEY = 'sk-CANARY-hostile-3c9d7e21f0';
export const CANARY_ACCESS_KEY = 'ak-CANARY-hostile-access-77';
export const CANARY_SECRET_KEY = 'CANARY-hostile-signing-secret-0b';
export const CANARY = 'CANARY';

export const suite = createBuiltinTokenForgeProtocolSuiteV1();
export const engine = createProtocolEngineV1({ registry: suite.registry });

/** A local provider that answers every request with `handler` and records what arrived. */
export interface HostileProvider {
  readonly port: number;
  readonly requests: IncomingMessage[];
  readonly sockets: Socket[];
}

const servers: (Server | TcpServer)[] = [];
const transports: HttpProviderTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.destroy()));
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          if ('closeAllConnections' in server) server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** Starts a node:http server on 127.0.0.1 (real sockets) answering with `handler`. */
export async function startHostileProvider(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<HostileProvider> {
  const requests: IncomingMessage[] = [];
  const sockets: Socket[] = [];
  const server = createServer({ keepAliveTimeout: 10_000 }, (request, response) => {
    requests.push(request);
    request.resume();
    handler(request, response);
  });
  server.on('connection', (socket: Socket) => sockets.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, requests, sockets };
}

/** A raw TCP server that answers every request with exactly `bytes` (for malformed HTTP). */
export async function startRawProvider(bytes: string): Promise<HostileProvider> {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(bytes));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, requests: [], sockets };
}

const BASE_PATHS: Readonly<Record<string, string>> = {
  'openai-chat/v1': '/v1',
  'openai-responses/v1': '/v1',
  'anthropic-messages/v1': '',
  'gemini-generate-content/v1': '',
  'dashscope-tasks/v1': '',
  'kling-video/v1': '',
};

type Capability = Omit<ProtocolCapabilityV2, 'protocolFamily'>;
export const CHAT_CAPABILITY: Capability = { executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, structuredOutput: true };
export const VIDEO_CAPABILITY: Capability = { executionMode: 'async-job', taskKinds: ['video-generation'] };

/** A binding of `family` over a real http-transport to `provider`, with the canary credentials. */
export function bindHostile(
  provider: HostileProvider,
  family: ProtocolFamily,
  capability: Omit<ProtocolCapabilityV2, 'protocolFamily'>,
  policy: HttpTransportPolicy = {},
): ProtocolEngineTargetBindingV1 {
  const metadata = suite.transportMetadataFor(family);
  const transport = createHttpProviderTransport({
    baseUrl: `http://hostile.test:${provider.port}${BASE_PATHS[family] ?? ''}`,
    credentials:
      metadata.auth.scheme === 'hs256-jwt'
        ? { type: 'access-key', accessKey: CANARY_ACCESS_KEY, secretKey: CANARY_SECRET_KEY }
        : { type: 'api-key', apiKey: CANARY_API_KEY },
    metadata,
    resolveHostname: async () => ['127.0.0.1'],
    policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true, ...policy },
  });
  transports.push(transport);
  return createProtocolEngineTargetBindingV1({
    target: { provider: 'hostile', providerModel: 'hostile-model', connectionRef: 'hostile', capability: { ...capability, protocolFamily: family } },
    bindTransport: async () => transport,
  });
}

export const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
