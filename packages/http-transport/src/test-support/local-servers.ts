import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { ProviderTransportRequest } from '@tokenforge/model-protocol';
import { generate } from 'selfsigned';
import { afterEach } from 'vitest';
import { createHttpProviderTransport, type HttpProviderTransport } from '../create-http-provider-transport.js';
import type { CreateHttpProviderTransportOptions } from '../http-transport-options.js';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** A server on 127.0.0.1 with an ephemeral port; every socket it accepted is listed. */
export interface LocalServer {
  readonly port: number;
  readonly sockets: Socket[];
  /** Names of the requests it received (method and URL), in order. */
  readonly requests: IncomingMessage[];
}

const openServers: Server[] = [];
const openTransports: HttpProviderTransport[] = [];

afterEach(async () => {
  await Promise.all(openTransports.splice(0).map((transport) => transport.destroy().catch(() => undefined)));
  await Promise.all(
    openServers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function listen(server: Server, secure: boolean): Promise<LocalServer> {
  const sockets: Socket[] = [];
  const requests: IncomingMessage[] = [];
  server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => sockets.push(socket));
  server.on('request', (request: IncomingMessage) => requests.push(request));
  openServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, sockets, requests };
}

/** Starts a plain HTTP server on 127.0.0.1; it is closed after the test. */
export function startHttpServer(handler: RequestHandler): Promise<LocalServer> {
  return listen(createHttpServer({ keepAliveTimeout: 10_000 }, handler), false);
}

/** A certificate (self-signed, so it is its own authority) for the given DNS names. */
export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

/** Makes a self-signed certificate for `names` at test time. */
export async function createTestCertificate(names: readonly string[]): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: names[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** Starts an HTTPS server on 127.0.0.1 with the given certificate; it is closed after the test. */
export function startHttpsServer(certificate: TestCertificate, handler: RequestHandler): Promise<LocalServer> {
  return listen(createHttpsServer({ cert: certificate.cert, key: certificate.key, keepAliveTimeout: 10_000 }, handler), true);
}

/** Creates a transport that is closed after the test. */
export function trackedTransport(options: CreateHttpProviderTransportOptions): HttpProviderTransport {
  const transport = createHttpProviderTransport(options);
  openTransports.push(transport);
  return transport;
}

/** Resolves every name to 127.0.0.1 and counts the calls. */
export function loopbackResolver(): CreateHttpProviderTransportOptions['resolveHostname'] & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string): Promise<readonly string[]> => {
    calls.push(hostname);
    return ['127.0.0.1'];
  };
  return Object.assign(resolver, { calls });
}

/** A transport to a local plain-HTTP server under the name `api.test`, with a bearer key. */
export function loopbackTransport(
  server: LocalServer,
  overrides: Partial<CreateHttpProviderTransportOptions> = {},
): HttpProviderTransport {
  return trackedTransport({
    baseUrl: `http://api.test:${server.port}/v1`,
    credentials: { type: 'api-key', apiKey: 'sk-test-key' },
    metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
    resolveHostname: loopbackResolver(),
    ...overrides,
    policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true, ...overrides.policy },
  });
}

/** Reads a request body whole (test servers only). */
export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads a response body whole (tests only). */
export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A request with defaults: `GET /models`, no body, a fresh signal. */
export function getRequest(overrides: Partial<ProviderTransportRequest> = {}): ProviderTransportRequest {
  return { method: 'GET', path: '/models', headers: {}, body: { type: 'none' }, signal: new AbortController().signal, ...overrides };
}

/** Settles `promise` and returns what it rejected with (fails the test if it resolved). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
