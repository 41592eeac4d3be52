import { describe, expect, it } from 'vitest';
import { CONNECTION_POOL_EXHAUSTED_CODE, isConnectionPoolExhausted } from './pool/connection-permits.js';
import { getRequest, loopbackTransport, readAll, rejectionOf, startHttpServer } from './test-support/local-servers.js';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('a full connection pool (maxConnections)', () => {
  it('a request beyond maxConnections waits at most connectTimeoutMs, then fails before-send with the pool code', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
    });
    const transport = loopbackTransport(server, { policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true, maxConnections: 2, connectTimeoutMs: 300 } });
    const open = [await transport.send(getRequest()), await transport.send(getRequest())];
    const started = performance.now();
    const failure = await rejectionOf(transport.send(getRequest()));
    const waited = performance.now() - started;
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'timeout' });
    expect((failure as Error).cause).toMatchObject({ code: CONNECTION_POOL_EXHAUSTED_CODE });
    expect(isConnectionPoolExhausted(failure)).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(280);
    expect(waited).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(2);
    for (const response of open) await response.body[Symbol.asyncIterator]().return?.();
    await transport.destroy();
  });

  it('a waiting request takes the connection a finished one frees, in order, within connectTimeoutMs', async () => {
    let answered = 0;
    const server = await startHttpServer((_request, response) => {
      answered += 1;
      setTimeout(() => response.end(`answer ${answered}`), 150);
    });
    const transport = loopbackTransport(server, { policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true, maxConnections: 1, connectTimeoutMs: 2_000 } });
    const bodies = await Promise.all([0, 1, 2].map(async () => (await readAll((await transport.send(getRequest())).body)).toString()));
    expect(bodies.sort()).toEqual(['answer 1', 'answer 2', 'answer 3']);
    expect(server.sockets).toHaveLength(1);
  });

  it('an abort while waiting for a connection fails aborted and leaves the queue', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
    });
    const transport = loopbackTransport(server, { policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true, maxConnections: 1, connectTimeoutMs: 5_000 } });
    const held = await transport.send(getRequest());
    const controller = new AbortController();
    const waiting = transport.send(getRequest({ signal: controller.signal }));
    await settle(50);
    controller.abort();
    expect(await rejectionOf(waiting)).toMatchObject({ stage: 'before-send', reason: 'aborted' });
    await held.body[Symbol.asyncIterator]().return?.();
    const next = await transport.send(getRequest());
    expect(next.status).toBe(200);
    await next.body[Symbol.asyncIterator]().return?.();
    await transport.destroy();
  });

  it('poolUse answers the pool size, the connections in use and the requests waiting for one', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
    });
    const transport = loopbackTransport(server, { policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true, maxConnections: 2, connectTimeoutMs: 5_000 } });
    expect(transport.poolUse()).toEqual({ connections: 2, inUse: 0, waiting: 0 });
    const held = [await transport.send(getRequest()), await transport.send(getRequest())];
    const waiting = transport.send(getRequest());
    await settle(50);
    expect(transport.poolUse()).toEqual({ connections: 2, inUse: 2, waiting: 1 });
    await held[0]?.body[Symbol.asyncIterator]().return?.();
    const third = await waiting;
    expect(transport.poolUse()).toEqual({ connections: 2, inUse: 2, waiting: 0 });
    for (const response of [held[1], third]) await response?.body[Symbol.asyncIterator]().return?.();
    expect(transport.poolUse()).toEqual({ connections: 2, inUse: 0, waiting: 0 });
    await transport.destroy();
  });
});
