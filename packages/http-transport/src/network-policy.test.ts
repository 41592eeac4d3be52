import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { isProviderTransportFailureV1 } from '@tokenforge/model-protocol';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RestrictedAddressCategory } from './address-policy/classify-address.js';
import { isHttpTransportConfigurationError } from './http-transport-configuration-error.js';
import { createHttpProviderTransport } from './create-http-provider-transport.js';
import type { CreateHttpProviderTransportOptions } from './http-transport-options.js';
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
import { STAND_IN_PUBLIC_ADDRESS, connectAttempts } from './test-support/socket-guard.js';

vi.mock('node:net', async (importOriginal) => {
  const { withSocketGuard } = await import('./test-support/socket-guard.js');
  return withSocketGuard(await importOriginal<typeof import('node:net')>());
});
vi.mock('node:tls', async (importOriginal) => {
  const { withSocketGuard } = await import('./test-support/socket-guard.js');
  return withSocketGuard(await importOriginal<typeof import('node:tls')>());
});

let certificate: TestCertificate;
beforeAll(async () => {
  certificate = await createTestCertificate(['api.example.com']);
});
beforeEach(() => {
  connectAttempts.length = 0;
});

function resolverAnswering(...answers: (readonly string[])[]): CreateHttpProviderTransportOptions['resolveHostname'] & { calls: number } {
  const state = { calls: 0 };
  const resolver = async (): Promise<readonly string[]> => {
    const answer = answers[Math.min(state.calls, answers.length - 1)] ?? [];
    state.calls += 1;
    return answer;
  };
  return Object.defineProperty(resolver, 'calls', { get: () => state.calls }) as typeof resolver & { calls: number };
}

function publicTransport(server: LocalServer, overrides: Partial<CreateHttpProviderTransportOptions> = {}) {
  return trackedTransport({
    baseUrl: `https://api.example.com:${server.port}/v1`,
    credentials: { type: 'api-key', apiKey: 'sk-policy' },
    metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
    resolveHostname: resolverAnswering([STAND_IN_PUBLIC_ADDRESS]),
    ...overrides,
    policy: { trustedCertificates: certificate.cert, ...overrides.policy },
  });
}

async function okHttpsServer(): Promise<LocalServer> {
  return startHttpsServer(certificate, (_request, response) => response.end('ok'));
}

describe('address policy', () => {
  it('reaches a public address over https with the original Host and SNI, connecting to the resolved IP', async () => {
    const seen: { host: string | undefined; servername: unknown }[] = [];
    const server = await startHttpsServer(certificate, (request, response) => {
      seen.push({ host: request.headers.host, servername: (request.socket as TLSSocket).servername });
      response.end('ok');
    });
    const transport = publicTransport(server);
    const response = await transport.send(getRequest());
    expect((await readAll(response.body)).toString()).toBe('ok');
    expect(seen).toEqual([{ host: `api.example.com:${server.port}`, servername: 'api.example.com' }]);
    expect(connectAttempts).toEqual([STAND_IN_PUBLIC_ADDRESS]);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.3.4', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.10.10', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.1.1', 'carrier-grade-nat'],
    ['fd12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['169.254.169.254', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
  ] as const)('refuses a public-looking name resolving to %s (%s) before connecting', async (address, category) => {
    const server = await okHttpsServer();
    const resolver = resolverAnswering([address]);
    const transport = publicTransport(server, { resolveHostname: resolver });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(isProviderTransportFailureV1(failure)).toBe(true);
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
    expect(String((failure as Error).cause)).toContain(category);
    expect(resolver.calls).toBe(1);
    expect(connectAttempts).toEqual([]);
    expect(server.sockets).toHaveLength(0);
  });

  it.each([
    ['10.0.0.5', 'private'],
    ['100.64.1.1', 'carrier-grade-nat'],
    ['169.254.169.254', 'cloud-metadata'],
    ['fd12:3456::1', 'unique-local'],
  ] as const)('connects to %s only when the policy allows %s (the guard stops the packet)', async (address, category) => {
    const server = await okHttpsServer();
    const transport = publicTransport(server, {
      resolveHostname: resolverAnswering([address]),
      policy: { allowedAddressCategories: [category as RestrictedAddressCategory] },
    });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'connect-failed' });
    expect(connectAttempts).toEqual([address]);
  });

  it.each([
    'https://169.254.169.254/latest',
    'https://[fd00:ec2::254]/',
    'https://10.0.0.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://2130706433/',
    'https://0x7f.0.0.1/',
    'https://[::]/',
  ])('refuses %s when the transport is created, before any resolving or connecting', (baseUrl) => {
    const resolver = resolverAnswering([STAND_IN_PUBLIC_ADDRESS]);
    expect(() =>
      trackedTransport({
        baseUrl,
        credentials: { type: 'api-key', apiKey: 'sk-policy' },
        metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
        resolveHostname: resolver,
      }),
    ).toThrow(expect.objectContaining({ code: 'HTTP_TRANSPORT_POLICY_INVALID' }));
    expect(resolver.calls).toBe(0);
    expect(connectAttempts).toEqual([]);
  });

  it.each([
    'https://metadata.google.internal/computeMetadata',
    'https://METADATA.google.internal./',
  ])('refuses %s without resolving or connecting', async (baseUrl) => {
    const resolver = resolverAnswering([STAND_IN_PUBLIC_ADDRESS]);
    const transport = trackedTransport({
      baseUrl,
      credentials: { type: 'api-key', apiKey: 'sk-policy' },
      metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
      resolveHostname: resolver,
    });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
    expect(resolver.calls).toBe(0);
    expect(connectAttempts).toEqual([]);
  });

  it('refuses a name whose answers mix a public and a private address', async () => {
    const server = await okHttpsServer();
    const transport = publicTransport(server, { resolveHostname: resolverAnswering([STAND_IN_PUBLIC_ADDRESS, '192.168.1.1']) });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
    expect(connectAttempts).toEqual([]);
  });

  it('pins the checked answer against DNS rebinding: the connection uses the first answer, a new one re-checks', async () => {
    const server = await startHttpsServer(certificate, (request, response) => {
      // The first response closes its socket, so the next request needs a new connection.
      if (request.url === '/v1/first') response.setHeader('connection', 'close');
      response.end('ok');
    });
    const resolver = resolverAnswering([STAND_IN_PUBLIC_ADDRESS], ['10.0.0.7']);
    const transport = publicTransport(server, { resolveHostname: resolver });

    const first = await transport.send(getRequest({ path: '/first' }));
    expect((await readAll(first.body)).toString()).toBe('ok');
    expect(resolver.calls).toBe(1);
    expect(connectAttempts).toEqual([STAND_IN_PUBLIC_ADDRESS]);

    const second = await rejectionOf(transport.send(getRequest({ path: '/second' })));
    expect(second).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
    expect(resolver.calls).toBe(2);
    expect(connectAttempts).toEqual([STAND_IN_PUBLIC_ADDRESS]);
  });

  it('tries the next checked answer only when TCP connect fails', async () => {
    const server = await okHttpsServer();
    const transport = publicTransport(server, {
      resolveHostname: resolverAnswering(['::1', STAND_IN_PUBLIC_ADDRESS]),
      policy: { allowedAddressCategories: ['loopback'] },
    });
    expect((await readAll((await transport.send(getRequest())).body)).toString()).toBe('ok');
    expect(connectAttempts).toEqual(['::1', STAND_IN_PUBLIC_ADDRESS]);
  });

  it('reuses a pinned keep-alive socket without resolving again', async () => {
    const server = await okHttpsServer();
    const resolver = resolverAnswering([STAND_IN_PUBLIC_ADDRESS], ['10.0.0.7']);
    const transport = publicTransport(server, { resolveHostname: resolver });
    await readAll((await transport.send(getRequest())).body);
    await readAll((await transport.send(getRequest())).body);
    expect(resolver.calls).toBe(1);
    expect(server.sockets).toHaveLength(1);
  });
});

describe('failures before the request is sent', () => {
  it('reports a resolver failure as dns-failed', async () => {
    const server = await okHttpsServer();
    const resolver = async (): Promise<readonly string[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND api.example.com'), { code: 'ENOTFOUND' });
    };
    const transport = publicTransport(server, { resolveHostname: resolver });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'dns-failed' });
    expect((failure as Error).cause).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('reports an empty answer as dns-failed', async () => {
    const server = await okHttpsServer();
    const transport = publicTransport(server, { resolveHostname: resolverAnswering([]) });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'before-send', reason: 'dns-failed' });
  });

  it('times out a resolver that never answers within connectTimeoutMs', async () => {
    const server = await okHttpsServer();
    let resolverSignal: AbortSignal | undefined;
    const transport = publicTransport(server, {
      resolveHostname: (_hostname, { signal }) => {
        resolverSignal = signal;
        return new Promise(() => undefined);
      },
      policy: { connectTimeoutMs: 100 },
    });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'before-send', reason: 'timeout' });
    expect(resolverSignal?.aborted).toBe(true);
  });

  it('reports a refused TCP connection as connect-failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const transport = publicTransport({ port, sockets: [], requests: [] });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'connect-failed' });
    expect((failure as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('reports a certificate for another name as tls-failed', async () => {
    const other = await createTestCertificate(['other.example.net']);
    const server = await startHttpsServer(other, (_request, response) => response.end('ok'));
    const transport = publicTransport(server, { policy: { trustedCertificates: [other.cert] } });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'tls-failed' });
    expect((failure as Error).cause).toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(server.requests).toHaveLength(0);
  });

  it('reports an untrusted certificate as tls-failed (system roots by default)', async () => {
    const server = await okHttpsServer();
    const transport = trackedTransport({
      baseUrl: `https://api.example.com:${server.port}`,
      credentials: { type: 'api-key', apiKey: 'sk-policy' },
      metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
      resolveHostname: resolverAnswering([STAND_IN_PUBLIC_ADDRESS]),
    });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'before-send', reason: 'tls-failed' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('https only', () => {
  const base = {
    credentials: { type: 'api-key', apiKey: 'sk-policy' },
    metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
  } as const;

  it('refuses a plain http base URL unless the policy allows http to loopback', () => {
    const error = (() => {
      try {
        createHttpProviderTransport({ ...base, baseUrl: 'http://api.example.com' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isHttpTransportConfigurationError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'HTTP_TRANSPORT_BASE_URL_REFUSED' });
  });

  it('refuses plain http to a public address even when http to loopback is allowed', async () => {
    const server = await startHttpServer((_request, response) => response.end('ok'));
    const transport = trackedTransport({
      ...base,
      baseUrl: `http://api.example.com:${server.port}`,
      resolveHostname: resolverAnswering([STAND_IN_PUBLIC_ADDRESS]),
      policy: { allowInsecureHttpToLoopback: true, allowedAddressCategories: ['loopback'] },
    });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
    expect(connectAttempts).toEqual([]);
  });

  it('allows plain http to loopback only when loopback itself is allowed', async () => {
    const server = await startHttpServer((_request, response) => response.end('ok'));
    const options = { ...base, baseUrl: `http://127.0.0.1:${server.port}` };
    expect(() => trackedTransport({ ...options, policy: { allowInsecureHttpToLoopback: true } })).toThrow(
      expect.objectContaining({ code: 'HTTP_TRANSPORT_POLICY_INVALID' }),
    );
    const allowed = trackedTransport({
      ...options,
      policy: { allowInsecureHttpToLoopback: true, allowedAddressCategories: ['loopback'] },
    });
    expect((await readAll((await allowed.send(getRequest())).body)).toString()).toBe('ok');
  });

  it.each([
    ['https://user:pass@api.example.com', 'HTTP_TRANSPORT_BASE_URL_REFUSED'],
    ['https://token@api.example.com', 'HTTP_TRANSPORT_BASE_URL_REFUSED'],
    ['ftp://api.example.com', 'HTTP_TRANSPORT_BASE_URL_REFUSED'],
    ['api.example.com', 'HTTP_TRANSPORT_BASE_URL_INVALID'],
    ['https://api.example.com/v1?key=1', 'HTTP_TRANSPORT_BASE_URL_INVALID'],
    ['https://api.example.com/#x', 'HTTP_TRANSPORT_BASE_URL_INVALID'],
  ])('refuses the base URL %s with %s', (baseUrl, code) => {
    expect(() => createHttpProviderTransport({ ...base, baseUrl })).toThrow(expect.objectContaining({ code }));
  });
});
