import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { getRequest, loopbackTransport, readAll, readBody, rejectionOf, startHttpServer } from './test-support/local-servers.js';

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

async function redirectingServer(route: (url: string, method: string) => { status: number; location?: string; body?: string }) {
  const seen: Seen[] = [];
  const server = await startHttpServer((request, response) => {
    void readBody(request).then((body) => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body: body.toString() });
      const answer = route(request.url ?? '', request.method ?? '');
      response.writeHead(answer.status, answer.location === undefined ? {} : { location: answer.location });
      response.end(answer.body ?? '');
    });
  });
  return { server, seen };
}

describe('redirects', () => {
  it('refuses a cross-origin redirect even when same-origin redirects are followed', async () => {
    const other = await startHttpServer((_request, response) => response.end('other'));
    const { server, seen } = await redirectingServer(() => ({ status: 302, location: `http://elsewhere.test:${other.port}/steal` }));
    const transport = loopbackTransport(server, { policy: { redirects: 'follow-same-origin' } });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(failure).toMatchObject({ stage: 'after-send', reason: 'redirect-refused' });
    expect(seen).toHaveLength(1);
    expect(other.sockets).toHaveLength(0);
  });

  it('treats another port of the same host as another origin', async () => {
    const other = await startHttpServer((_request, response) => response.end('other'));
    const { server } = await redirectingServer(() => ({ status: 307, location: `http://api.test:${other.port}/v1/models` }));
    const transport = loopbackTransport(server, { policy: { redirects: 'follow-same-origin' } });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'after-send', reason: 'redirect-refused' });
    expect(other.sockets).toHaveLength(0);
  });

  it('refuses a same-origin redirect by default', async () => {
    const { server, seen } = await redirectingServer((url) => (url === '/v1/models' ? { status: 301, location: '/v1/other' } : { status: 200 }));
    const transport = loopbackTransport(server);
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'after-send', reason: 'redirect-refused' });
    expect(seen.map((entry) => entry.url)).toEqual(['/v1/models']);
  });

  it('follows a same-origin redirect when allowed, with credentials on every hop', async () => {
    const { server, seen } = await redirectingServer((url) =>
      url === '/v1/models' ? { status: 302, location: '/v1/models-moved?page=2' } : { status: 200, body: 'moved' },
    );
    const transport = loopbackTransport(server, { policy: { redirects: 'follow-same-origin' } });
    const response = await transport.send(getRequest());
    expect(response.status).toBe(200);
    expect((await readAll(response.body)).toString()).toBe('moved');
    expect(seen.map((entry) => entry.url)).toEqual(['/v1/models', '/v1/models-moved?page=2']);
    expect(seen.map((entry) => entry.headers.authorization)).toEqual(['Bearer sk-test-key', 'Bearer sk-test-key']);
  });

  it('resends the JSON body on 307 and turns 303 into a GET without body', async () => {
    const { server, seen } = await redirectingServer((url) => {
      if (url === '/v1/start') return { status: 307, location: '/v1/again' };
      if (url === '/v1/again') return { status: 303, location: '/v1/result' };
      return { status: 200, body: 'result' };
    });
    const transport = loopbackTransport(server, { policy: { redirects: 'follow-same-origin' } });
    const response = await transport.send(getRequest({ method: 'POST', path: '/start', body: { type: 'json', value: { a: 1 } } }));
    expect((await readAll(response.body)).toString()).toBe('result');
    expect(seen.map((entry) => [entry.method, entry.url, entry.body])).toEqual([
      ['POST', '/v1/start', '{"a":1}'],
      ['POST', '/v1/again', '{"a":1}'],
      ['GET', '/v1/result', ''],
    ]);
    expect(seen[2]?.headers['content-type']).toBeUndefined();
  });

  it('stops after maxRedirects hops with redirect-refused', async () => {
    const { server, seen } = await redirectingServer(() => ({ status: 302, location: '/v1/loop' }));
    const transport = loopbackTransport(server, { policy: { redirects: 'follow-same-origin', maxRedirects: 2 } });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'after-send', reason: 'redirect-refused' });
    expect(seen).toHaveLength(3);
  });

  it('refuses a same-origin location that carries userinfo', async () => {
    const { server } = await redirectingServer((_url) => ({ status: 302, location: `http://user:pw@api.test:${server.port}/v1/x` }));
    const transport = loopbackTransport(server, { policy: { redirects: 'follow-same-origin' } });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'after-send', reason: 'redirect-refused' });
  });

  it('returns a 3xx without location as an ordinary response', async () => {
    const { server } = await redirectingServer(() => ({ status: 304 }));
    const transport = loopbackTransport(server);
    const response = await transport.send(getRequest());
    expect(response.status).toBe(304);
    expect((await readAll(response.body)).byteLength).toBe(0);
  });

  it.each([
    '/admin/secret',
    '/v1x/models',
    '/',
    '/v1/../admin',
    '/v1/%2e%2e/admin',
    '/v1/..%2Fadmin',
    '/v1/a%5C..%5C..%5Cadmin',
    '../admin',
    '//api.test/admin',
  ])('refuses a same-origin redirect to %s, outside the base path or escaping it', async (location) => {
    const { server, seen } = await redirectingServer((url) => (url === '/v1/models' ? { status: 302, location } : { status: 200 }));
    const transport = loopbackTransport(server, { policy: { redirects: 'follow-same-origin' } });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'after-send', reason: 'redirect-refused' });
    expect(seen.map((entry) => entry.url)).toEqual(['/v1/models']);
  });

  it.each(['/v1', '/v1/', '/v1/models/next?page=2', 'next', './deeper/x'])('follows a same-origin redirect to %s under the base path', async (location) => {
    const { server, seen } = await redirectingServer((url) => (url === '/v1/models' ? { status: 302, location } : { status: 200, body: 'ok' }));
    const transport = loopbackTransport(server, { policy: { redirects: 'follow-same-origin' } });
    const response = await transport.send(getRequest());
    expect((await readAll(response.body)).toString()).toBe('ok');
    expect(seen).toHaveLength(2);
    expect(seen[1]?.url?.startsWith('/v1')).toBe(true);
  });
});
