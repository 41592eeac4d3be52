import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isProviderTransportFailureV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { getRequest, loopbackTransport, readAll, readBody, rejectionOf, startHttpServer } from './test-support/local-servers.js';

async function captureHeaders(): Promise<{ server: Awaited<ReturnType<typeof startHttpServer>>; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = await startHttpServer((request, response) => {
    seen.push(request.headers);
    response.end('ok');
  });
  return { server, seen };
}

function decodeSegment(segment: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('credentials by auth scheme', () => {
  it('sends a bearer key in authorization', async () => {
    const { server, seen } = await captureHeaders();
    const transport = loopbackTransport(server, { credentials: { type: 'api-key', apiKey: 'sk-bearer-1' } });
    const response = await transport.send(getRequest());
    expect((await readAll(response.body)).toString()).toBe('ok');
    expect(seen[0]?.authorization).toBe('Bearer sk-bearer-1');
  });

  it('sends the key in the named header and no authorization header', async () => {
    const { server, seen } = await captureHeaders();
    const transport = loopbackTransport(server, {
      credentials: { type: 'api-key', apiKey: 'sk-named-2' },
      metadata: { auth: { scheme: 'header', headerName: 'x-api-key' }, fixedHeaders: {} },
    });
    await readAll((await transport.send(getRequest())).body);
    expect(seen[0]?.['x-api-key']).toBe('sk-named-2');
    expect(seen[0]?.authorization).toBeUndefined();
  });

  it('mints an HS256 JWT per request whose signature and claims the server can verify', async () => {
    const { server, seen } = await captureHeaders();
    let now = 1_700_000_000_000;
    const transport = loopbackTransport(server, {
      credentials: { type: 'access-key', accessKey: 'ak-issuer', secretKey: 'signing-secret' },
      metadata: { auth: { scheme: 'hs256-jwt', lifetimeSeconds: 1800, notBeforeSkewSeconds: 5 }, fixedHeaders: {} },
      now: () => now,
    });
    await readAll((await transport.send(getRequest())).body);
    now += 60_000;
    await readAll((await transport.send(getRequest())).body);

    const tokens = seen.map((headers) => /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1] ?? '');
    expect(tokens[0]).not.toBe(tokens[1]);
    for (const [index, token] of tokens.entries()) {
      const [header = '', payload = '', signature = ''] = token.split('.');
      const expected = createHmac('sha256', 'signing-secret').update(`${header}.${payload}`).digest('base64url');
      expect(signature).toBe(expected);
      expect(decodeSegment(header)).toEqual({ alg: 'HS256', typ: 'JWT' });
      const issuedAt = 1_700_000_000 + index * 60;
      expect(decodeSegment(payload)).toEqual({ iss: 'ak-issuer', exp: issuedAt + 1800, nbf: issuedAt - 5 });
    }
  });

  it('adds the fixed headers of the family to every request', async () => {
    const { server, seen } = await captureHeaders();
    const transport = loopbackTransport(server, {
      metadata: { auth: { scheme: 'bearer' }, fixedHeaders: { 'anthropic-version': '2023-06-01', 'x-family': 'yes' } },
    });
    await readAll((await transport.send(getRequest({ headers: { accept: 'text/event-stream' } }))).body);
    expect(seen[0]).toMatchObject({ 'anthropic-version': '2023-06-01', 'x-family': 'yes', accept: 'text/event-stream' });
  });

  it.each([
    ['authorization', 'Bearer adapter-token'],
    ['Authorization', 'Bearer adapter-token'],
    ['x-api-key', 'adapter-key'],
    ['proxy-authorization', 'Basic abc'],
    ['cookie', 'session=1'],
    ['anthropic-version', '2099-01-01'],
    ['content-length', '5'],
    ['host', 'elsewhere.test'],
    ['transfer-encoding', 'chunked'],
    ['accept-encoding', 'gzip'],
  ])('refuses an adapter header %s before anything is sent', async (name, value) => {
    const { server, seen } = await captureHeaders();
    const transport = loopbackTransport(server, {
      metadata: { auth: { scheme: 'header', headerName: 'x-api-key' }, fixedHeaders: { 'anthropic-version': '2023-06-01' } },
    });
    const failure = await rejectionOf(transport.send(getRequest({ headers: { [name]: value } })));
    expect(isProviderTransportFailureV1(failure)).toBe(true);
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
    expect(seen).toHaveLength(0);
    expect(server.sockets).toHaveLength(0);
  });

  it('refuses header values that could inject another header', async () => {
    const { server, seen } = await captureHeaders();
    const transport = loopbackTransport(server);
    const failure = await rejectionOf(transport.send(getRequest({ headers: { 'x-note': 'a\r\nauthorization: Bearer x' } })));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
    expect(seen).toHaveLength(0);
  });

  it('serializes a JSON body with its content type and length, and encodes the query', async () => {
    let received: { url: string | undefined; headers: IncomingHttpHeaders; body: string } | undefined;
    const server = await startHttpServer((request, response) => {
      void readBody(request).then((body) => {
        received = { url: request.url, headers: request.headers, body: body.toString('utf8') };
        response.end();
      });
    });
    const transport = loopbackTransport(server);
    const value = { model: 'm', input: ['héllo', 1, null] };
    const response = await transport.send(
      getRequest({ method: 'POST', path: '/embeddings', query: { 'api-version': '2024 01', a: 'b&c' }, body: { type: 'json', value } }),
    );
    await readAll(response.body);
    expect(received?.url).toBe('/v1/embeddings?api-version=2024+01&a=b%26c');
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(value))));
    expect(JSON.parse(received?.body ?? '')).toEqual(value);
  });

  it.each([
    ['a BigInt', { n: 1n }],
    ['a cycle', (() => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      return cyclic;
    })()],
    ['undefined', undefined],
  ])('refuses a JSON body holding %s before sending', async (_label, value) => {
    const { server, seen } = await captureHeaders();
    const transport = loopbackTransport(server);
    const failure = await rejectionOf(transport.send(getRequest({ method: 'POST', body: { type: 'json', value } })));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'other' });
    expect(seen).toHaveLength(0);
  });

  it.each(['/../admin', '/a/%2e%2e/b', '/./x', 'relative', '//other.test/x', '/a b', '/a?b=1'])(
    'refuses the request path %s before sending',
    async (path) => {
      const { server, seen } = await captureHeaders();
      const transport = loopbackTransport(server);
      const failure = await rejectionOf(transport.send(getRequest({ path })));
      expect(failure).toMatchObject({ stage: 'before-send', reason: 'policy-refused' });
      expect(seen).toHaveLength(0);
    },
  );

  it('lower-cases response headers and joins repeated ones', async () => {
    const server = await startHttpServer((_request, response) => {
      response.setHeader('X-Request-Id', 'abc');
      response.setHeader('X-Multi', ['one', 'two']);
      response.statusCode = 201;
      response.end('done');
    });
    const transport = loopbackTransport(server);
    const response = await transport.send(getRequest());
    expect(response.status).toBe(201);
    expect(response.headers['x-request-id']).toBe('abc');
    expect(response.headers['x-multi']).toBe('one, two');
    expect(Object.keys(response.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect((await readAll(response.body)).toString()).toBe('done');
  });
});
