import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import type { ProviderMultipartPartV1, ProviderTransportRequest } from '@tokenforge/model-protocol';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpProviderTransport } from './create-http-provider-transport.js';
import type { CreateHttpProviderTransportOptions, HttpTransportCredentials } from './http-transport-options.js';
import {
  createTestCertificate,
  getRequest,
  readAll,
  rejectionOf,
  startHttpServer,
  startHttpsServer,
  trackedTransport,
  type LocalServer,
  type TestCertificate,
} from './test-support/local-servers.js';

vi.mock('node:net', async (importOriginal) => {
  const { withSocketGuard } = await import('./test-support/socket-guard.js');
  return withSocketGuard(await importOriginal<typeof import('node:net')>());
});
vi.mock('node:tls', async (importOriginal) => {
  const { withSocketGuard } = await import('./test-support/socket-guard.js');
  return withSocketGuard(await importOriginal<typeof import('node:tls')>());
});

const API_KEY = 'sk-CANARY-api-7f3a9e1d';
const ACCESS_KEY = 'ak-CANARY-access-51bd2c';
const SECRET_KEY = 'CANARY-signing-secret-c0ffee42';
const CANARIES = [API_KEY, ACCESS_KEY, SECRET_KEY, 'CANARY'];

const SCHEMES: readonly { label: string; metadata: CreateHttpProviderTransportOptions['metadata']; credentials: HttpTransportCredentials }[] = [
  { label: 'bearer', metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} }, credentials: { type: 'api-key', apiKey: API_KEY } },
  {
    label: 'header',
    metadata: { auth: { scheme: 'header', headerName: 'x-api-key' }, fixedHeaders: {} },
    credentials: { type: 'api-key', apiKey: API_KEY },
  },
  {
    label: 'hs256-jwt',
    metadata: { auth: { scheme: 'hs256-jwt', lifetimeSeconds: 60, notBeforeSkewSeconds: 5 }, fixedHeaders: {} },
    credentials: { type: 'access-key', accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
  },
];

/** Every way an error could be shown: String, message, stack, inspect (hidden fields too) and JSON, down the cause chain. */
function exposures(error: unknown): string {
  const texts: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (seen.has(value) || value === undefined || value === null) return;
    seen.add(value);
    texts.push(String(value), inspect(value, { depth: 20, showHidden: true, getters: true }));
    texts.push(
      JSON.stringify(value, (_key, inner: unknown) =>
        inner instanceof Error ? Object.fromEntries(Object.getOwnPropertyNames(inner).map((name) => [name, (inner as never)[name]])) : inner,
      ) ?? '',
    );
    if (value instanceof Error) {
      texts.push(value.message, value.stack ?? '');
      visit(value.cause);
    }
  };
  visit(error);
  return texts.join('\n');
}

const tokensSeen: string[] = [];
const logged: string[] = [];

function expectNoSecret(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  const text = exposures(error);
  for (const secret of [...CANARIES, ...tokensSeen]) expect(text).not.toContain(secret);
}

let certificate: TestCertificate;
beforeAll(async () => {
  certificate = await createTestCertificate(['api.example.com']);
});
beforeEach(() => {
  logged.length = 0;
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(inspect(args)));
  }
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
  vi.restoreAllMocks();
  for (const secret of [...CANARIES, ...tokensSeen]) expect(logged.join('\n')).not.toContain(secret);
});
function onWarning(warning: Error): void {
  logged.push(inspect(warning));
}

/** A server that records every credential it is sent (so minted JWTs join the forbidden strings). */
function recordCredentials(headers: Record<string, string | string[] | undefined>): void {
  const value = headers.authorization ?? headers['x-api-key'];
  if (typeof value === 'string') tokensSeen.push(value.replace(/^Bearer /, ''));
}

function transportFor(
  scheme: (typeof SCHEMES)[number],
  server: Pick<LocalServer, 'port'>,
  overrides: Partial<CreateHttpProviderTransportOptions> = {},
) {
  return trackedTransport({
    baseUrl: `http://api.test:${server.port}/v1`,
    credentials: scheme.credentials,
    metadata: scheme.metadata,
    resolveHostname: async () => ['127.0.0.1'],
    ...overrides,
    policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true, ...overrides.policy },
  });
}

/** The secrets this connection holds: what a host error could plausibly quote and the transport can scrub. */
function ownSecrets(scheme: (typeof SCHEMES)[number]): string {
  const { credentials } = scheme;
  return credentials.type === 'api-key' ? credentials.apiKey : `${credentials.accessKey} and ${credentials.secretKey}`;
}

type Scenario = (scheme: (typeof SCHEMES)[number]) => Promise<unknown>;

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function silentServer(): Promise<LocalServer> {
  return startHttpServer((request) => recordCredentials(request.headers));
}

const SCENARIOS: Record<string, Scenario> = {
  'policy refusal': async (scheme) => {
    const transport = transportFor(scheme, { port: 443 }, { resolveHostname: async () => ['10.1.2.3'] });
    return rejectionOf(transport.send(getRequest()));
  },
  'resolver error quoting the key': async (scheme) => {
    const transport = transportFor(scheme, { port: 443 }, {
      resolveHostname: async () => {
        throw new Error(`lookup failed with ${ownSecrets(scheme)}`);
      },
    });
    return rejectionOf(transport.send(getRequest()));
  },
  'connect failure': async (scheme) => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    return rejectionOf(transportFor(scheme, { port }).send(getRequest()));
  },
  'connect timeout': async (scheme) => {
    const transport = transportFor(scheme, { port: 443 }, { resolveHostname: () => new Promise(() => undefined), policy: { connectTimeoutMs: 50 } });
    return rejectionOf(transport.send(getRequest()));
  },
  'TLS failure': async (scheme) => {
    const server = await startHttpsServer(certificate, (_request, response) => response.end());
    const transport = trackedTransport({
      baseUrl: `https://api.example.com:${server.port}`,
      credentials: scheme.credentials,
      metadata: scheme.metadata,
      resolveHostname: async () => ['127.0.0.1'],
      policy: { allowedAddressCategories: ['loopback'] },
    });
    return rejectionOf(transport.send(getRequest()));
  },
  'refused adapter header': async (scheme) => {
    const server = await silentServer();
    const request = getRequest({ headers: { authorization: `Bearer ${API_KEY}` } });
    return rejectionOf(transportFor(scheme, server).send(request));
  },
  'aborted before sending': async (scheme) => {
    const server = await silentServer();
    const controller = new AbortController();
    controller.abort(new Error(`aborted ${API_KEY}`));
    return rejectionOf(transportFor(scheme, server).send(getRequest({ signal: controller.signal })));
  },
  'headers timeout': async (scheme) => {
    const server = await silentServer();
    return rejectionOf(transportFor(scheme, server, { policy: { headersTimeoutMs: 50 } }).send(getRequest()));
  },
  'aborted waiting for headers': async (scheme) => {
    const server = await silentServer();
    const controller = new AbortController();
    const sending = transportFor(scheme, server).send(getRequest({ signal: controller.signal }));
    while (server.requests.length === 0) await sleep(5);
    controller.abort();
    return rejectionOf(sending);
  },
  'idle body timeout': async (scheme) => {
    const server = await startHttpServer((request, response) => {
      recordCredentials(request.headers);
      response.writeHead(200);
      response.write('x');
    });
    const response = await transportFor(scheme, server, { policy: { bodyIdleTimeoutMs: 50 } }).send(getRequest());
    return rejectionOf(readAll(response.body));
  },
  'connection lost mid-body': async (scheme) => {
    const server = await startHttpServer((request, response) => {
      recordCredentials(request.headers);
      response.writeHead(200, { 'content-length': '100' });
      response.write('x', () => setTimeout(() => response.socket?.destroy(), 10));
    });
    const response = await transportFor(scheme, server).send(getRequest());
    return rejectionOf(readAll(response.body));
  },
  'response too large': async (scheme) => {
    const server = await startHttpServer((request, response) => {
      recordCredentials(request.headers);
      response.end(Buffer.alloc(100));
    });
    const response = await transportFor(scheme, server, { policy: { maxResponseBytes: 10 } }).send(getRequest());
    return rejectionOf(readAll(response.body));
  },
  'redirect refused': async (scheme) => {
    const server = await startHttpServer((request, response) => {
      recordCredentials(request.headers);
      response.writeHead(302, { location: `https://evil.test/?k=${API_KEY}` });
      response.end();
    });
    return rejectionOf(transportFor(scheme, server).send(getRequest()));
  },
  'aborted mid-body': async (scheme) => {
    const server = await startHttpServer((request, response) => {
      recordCredentials(request.headers);
      response.writeHead(200);
      response.write('x');
    });
    const controller = new AbortController();
    const response = await transportFor(scheme, server).send(getRequest({ signal: controller.signal }));
    const iterator = response.body[Symbol.asyncIterator]();
    await iterator.next();
    const pending = iterator.next();
    controller.abort();
    return rejectionOf(pending);
  },
  'file source error quoting the key': async (scheme) => {
    const server = await startHttpServer((request, response) => {
      recordCredentials(request.headers);
      request.resume();
      request.on('end', () => response.end());
    });
    const part: ProviderMultipartPartV1 = {
      kind: 'file',
      name: 'f',
      fileName: 'f',
      mediaType: 'image/png',
      sizeBytes: 10,
      async *open() {
        yield new Uint8Array(2);
        throw new Error(`disk read failed near ${ownSecrets(scheme)}`);
      },
    };
    const request: ProviderTransportRequest = getRequest({ method: 'POST', body: { type: 'multipart', parts: [part] } });
    return rejectionOf(transportFor(scheme, server).send(request));
  },
};

describe('secrets never leave through failures or logs', () => {
  for (const scheme of SCHEMES) {
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      it(`${scheme.label}: ${name}`, async () => {
        const failure = await scenario(scheme);
        expect(failure).toMatchObject({ name: 'ProviderTransportFailureV1' });
        expectNoSecret(failure);
      });
    }
  }

  it('scrubs the secret from a cause message that quotes it (the redactor is really exercised)', async () => {
    const failure = await SCENARIOS['resolver error quoting the key']!(SCHEMES[2]!);
    expect(String((failure as Error).cause)).toContain('[redacted]');
  });

  it.each([
    ['a key with a line break', { type: 'api-key', apiKey: `${API_KEY}\r\nx: 1` }, SCHEMES[0]!.metadata],
    ['access-key credentials for a bearer scheme', { type: 'access-key', accessKey: ACCESS_KEY, secretKey: SECRET_KEY }, SCHEMES[0]!.metadata],
    ['an api key for the jwt scheme', { type: 'api-key', apiKey: API_KEY }, SCHEMES[2]!.metadata],
  ] as const)('keeps configuration errors free of secrets: %s', (_label, credentials, metadata) => {
    let caught: unknown;
    try {
      createHttpProviderTransport({ baseUrl: 'https://api.example.com', credentials, metadata });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'HTTP_TRANSPORT_CREDENTIALS_INVALID' });
    expectNoSecret(caught);
  });

  it('keeps a base URL with userinfo out of the configuration error', () => {
    let caught: unknown;
    try {
      createHttpProviderTransport({
        baseUrl: `https://user:${API_KEY}@api.example.com`,
        credentials: { type: 'api-key', apiKey: 'k' },
        metadata: SCHEMES[0]!.metadata,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'HTTP_TRANSPORT_BASE_URL_REFUSED' });
    expectNoSecret(caught);
  });

  it('actually saw minted tokens, so the JWT check above was not vacuous', () => {
    expect(tokensSeen.some((token) => token.split('.').length === 3)).toBe(true);
  });
});
