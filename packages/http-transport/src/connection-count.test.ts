import { describe, expect, it } from 'vitest';
import { getRequest, loopbackTransport, readAll, rejectionOf, startHttpServer } from './test-support/local-servers.js';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('connections after an aborted or abandoned request', () => {
  it('opens no further connection after a request aborted while waiting for the head', async () => {
    const server = await startHttpServer(() => undefined);
    const transport = loopbackTransport(server);
    const controller = new AbortController();
    const sent = transport.send(getRequest({ signal: controller.signal }));
    await settle(100);
    controller.abort();
    expect(await rejectionOf(sent)).toMatchObject({ reason: 'aborted' });
    await settle(400);
    expect(server.sockets).toHaveLength(1);
  });

  it('opens no further connection after a body aborted mid-stream or abandoned with return()', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
    });
    const transport = loopbackTransport(server);
    const controller = new AbortController();
    const first = await transport.send(getRequest({ signal: controller.signal }));
    const iterator = first.body[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await rejectionOf(iterator.next());
    await settle(100);
    const second = await transport.send(getRequest());
    const secondIterator = second.body[Symbol.asyncIterator]();
    await secondIterator.next();
    await secondIterator.return?.();
    await settle(400);
    expect(server.sockets).toHaveLength(2);
  });

  it('opens exactly one connection per aborted request, for any number of them in a row', async () => {
    for (const count of [1, 3, 6]) {
      const server = await startHttpServer(() => undefined);
      const transport = loopbackTransport(server);
      for (let index = 0; index < count; index += 1) {
        const controller = new AbortController();
        const sent = transport.send(getRequest({ signal: controller.signal }));
        await settle(30);
        controller.abort();
        await rejectionOf(sent);
      }
      await settle(300);
      expect(server.sockets).toHaveLength(count);
      expect(server.requests).toHaveLength(count);
      await transport.destroy();
    }
  });

  it('still reuses one socket for requests read to the end', async () => {
    const server = await startHttpServer((_request, response) => response.end('ok'));
    const transport = loopbackTransport(server);
    for (let index = 0; index < 4; index += 1) await readAll((await transport.send(getRequest())).body);
    expect(server.sockets).toHaveLength(1);
  });

  it('opens at most one connection per request when aborts overlap requests still waiting for a socket', async () => {
    const server = await startHttpServer((request, response) => {
      if (request.url === '/v1/slow') return;
      response.end('ok');
    });
    const transport = loopbackTransport(server);
    const controllers = Array.from({ length: 3 }, () => new AbortController());
    const slow = controllers.map((controller) => transport.send(getRequest({ path: '/slow', signal: controller.signal })));
    await settle(100);
    const quick = Array.from({ length: 3 }, () => transport.send(getRequest()));
    for (const controller of controllers) controller.abort();
    await Promise.all(slow.map((sent) => rejectionOf(sent)));
    await Promise.all(quick.map(async (sent) => readAll((await sent).body)));
    await settle(300);
    expect(server.sockets.length).toBeLessThanOrEqual(6);
  });
});
