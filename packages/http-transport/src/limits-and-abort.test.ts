import { once } from 'node:events';
import { isProviderTransportFailureV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { getRequest, loopbackTransport, readAll, rejectionOf, startHttpServer } from './test-support/local-servers.js';

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('timeouts', () => {
  it('fails after-send with timeout when the response head is slower than headersTimeoutMs', async () => {
    const server = await startHttpServer(() => undefined);
    const transport = loopbackTransport(server, { policy: { headersTimeoutMs: 150 } });
    const failure = await rejectionOf(transport.send(getRequest()));
    expect(isProviderTransportFailureV1(failure)).toBe(true);
    expect(failure).toMatchObject({ stage: 'after-send', reason: 'timeout' });
    expect(server.requests).toHaveLength(1);
  });

  it('fails the body with timeout when it stalls longer than bodyIdleTimeoutMs', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('first');
    });
    const transport = loopbackTransport(server, { policy: { bodyIdleTimeoutMs: 150 } });
    const response = await transport.send(getRequest());
    const iterator = response.body[Symbol.asyncIterator]();
    expect(Buffer.from((await iterator.next()).value as Uint8Array).toString()).toBe('first');
    const failure = await rejectionOf(iterator.next());
    expect(failure).toMatchObject({ stage: 'after-send', reason: 'timeout' });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('stops reading while the consumer does not pull, without counting that time against the idle timeout', async () => {
    const size = 32 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 7);
    let accepted = 0;
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-length': String(size) });
      const pump = (): void => {
        while (accepted < size) {
          accepted += piece.byteLength;
          if (!response.write(piece)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      pump();
    });
    const transport = loopbackTransport(server, { policy: { bodyIdleTimeoutMs: 100, maxResponseBytes: size } });
    const response = await transport.send(getRequest());
    const iterator = response.body[Symbol.asyncIterator]();
    let received = ((await iterator.next()).value as Uint8Array).byteLength;
    // Undici checks body timeouts on a coarse (about 1 s) clock: wait well past it.
    await sleep(2500);
    // Socket buffers hold a few MiB; without backpressure the whole body would have been taken.
    expect(accepted).toBeLessThan(size / 2);
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next()) received += step.value.byteLength;
    expect(received).toBe(size);
  });
});

describe('broken and oversized bodies', () => {
  it('fails with connection-lost when the server destroys the socket mid-body', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write(Buffer.alloc(100, 1), () => setTimeout(() => response.socket?.destroy(), 20));
    });
    const transport = loopbackTransport(server);
    const response = await transport.send(getRequest());
    const chunks: Uint8Array[] = [];
    const failure = await rejectionOf(
      (async () => {
        for await (const chunk of response.body) chunks.push(chunk);
      })(),
    );
    expect(failure).toMatchObject({ stage: 'after-send', reason: 'connection-lost' });
    expect(Buffer.concat(chunks)).toEqual(Buffer.alloc(100, 1));
  });

  it('fails with connection-lost when a chunked body is cut before its last chunk', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n', () => setTimeout(() => response.socket?.destroy(), 20));
    });
    const transport = loopbackTransport(server);
    const response = await transport.send(getRequest());
    expect(await rejectionOf(readAll(response.body))).toMatchObject({ stage: 'after-send', reason: 'connection-lost' });
  });

  it('fails with response-too-large as soon as a declared length exceeds maxResponseBytes, closing the socket', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-length': '5000' });
      response.write(Buffer.alloc(10));
    });
    const transport = loopbackTransport(server, { policy: { maxResponseBytes: 1000 } });
    const response = await transport.send(getRequest());
    expect(response.status).toBe(200);
    const closed = once(server.sockets[0]!, 'close');
    expect(await rejectionOf(readAll(response.body))).toMatchObject({ stage: 'after-send', reason: 'response-too-large' });
    await closed;
  });

  it('counts streamed bytes and fails with response-too-large once they pass maxResponseBytes', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const timer = setInterval(() => response.write(Buffer.alloc(300, 2)), 5);
      response.on('close', () => clearInterval(timer));
    });
    const transport = loopbackTransport(server, { policy: { maxResponseBytes: 1000 } });
    const response = await transport.send(getRequest());
    let delivered = 0;
    const failure = await rejectionOf(
      (async () => {
        for await (const chunk of response.body) delivered += chunk.byteLength;
      })(),
    );
    expect(failure).toMatchObject({ stage: 'after-send', reason: 'response-too-large' });
    expect(delivered).toBeLessThanOrEqual(1000);
  });

  it('accepts a body of exactly maxResponseBytes', async () => {
    const server = await startHttpServer((_request, response) => response.end(Buffer.alloc(1000, 3)));
    const transport = loopbackTransport(server, { policy: { maxResponseBytes: 1000 } });
    expect((await readAll((await transport.send(getRequest())).body)).byteLength).toBe(1000);
  });
});

describe('abort', () => {
  it('fails before-send without connecting when the signal is already aborted', async () => {
    const server = await startHttpServer((_request, response) => response.end());
    const transport = loopbackTransport(server);
    const controller = new AbortController();
    controller.abort();
    const failure = await rejectionOf(transport.send(getRequest({ signal: controller.signal })));
    expect(failure).toMatchObject({ stage: 'before-send', reason: 'aborted' });
    expect(server.sockets).toHaveLength(0);
  });

  it('fails before-send when aborted while connecting, and never writes the request', async () => {
    const server = await startHttpServer((_request, response) => response.end());
    let answer: (addresses: readonly string[]) => void = () => undefined;
    const transport = loopbackTransport(server, {
      resolveHostname: () => new Promise((resolve) => (answer = resolve)),
    });
    const controller = new AbortController();
    const sending = transport.send(getRequest({ signal: controller.signal }));
    await sleep(20);
    controller.abort();
    expect(await rejectionOf(sending)).toMatchObject({ stage: 'before-send', reason: 'aborted' });
    answer(['127.0.0.1']);
    await sleep(100);
    expect(server.requests).toHaveLength(0);
  });

  it('fails after-send when aborted while waiting for the response head', async () => {
    const server = await startHttpServer(() => undefined);
    const transport = loopbackTransport(server);
    const controller = new AbortController();
    const sending = transport.send(getRequest({ signal: controller.signal }));
    while (server.requests.length === 0) await sleep(5);
    controller.abort();
    expect(await rejectionOf(sending)).toMatchObject({ stage: 'after-send', reason: 'aborted' });
  });

  it('ends the body iteration with aborted and destroys the socket when aborted mid-body', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200);
      response.write('part one');
    });
    const transport = loopbackTransport(server);
    const controller = new AbortController();
    const response = await transport.send(getRequest({ signal: controller.signal }));
    const iterator = response.body[Symbol.asyncIterator]();
    expect(Buffer.from((await iterator.next()).value as Uint8Array).toString()).toBe('part one');
    const closed = once(server.sockets[0]!, 'close');
    const pending = iterator.next();
    controller.abort();
    expect(await rejectionOf(pending)).toMatchObject({ stage: 'after-send', reason: 'aborted' });
    await closed;
  });

  it('releases the connection when the consumer stops early, and the transport keeps working', async () => {
    const server = await startHttpServer((request, response) => {
      if (request.url === '/v1/endless') {
        response.writeHead(200);
        const timer = setInterval(() => response.write('tick\n'), 5);
        response.on('close', () => clearInterval(timer));
        return;
      }
      response.end('fine');
    });
    const transport = loopbackTransport(server);
    const response = await transport.send(getRequest({ path: '/endless' }));
    const closed = once(server.sockets[0]!, 'close');
    for await (const chunk of response.body) {
      expect(chunk.byteLength).toBeGreaterThan(0);
      break;
    }
    await closed;
    expect((await readAll((await transport.send(getRequest())).body)).toString()).toBe('fine');
  });
});

describe('body iteration', () => {
  it('answers concurrent next() calls in order', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200);
      response.write('one');
      setTimeout(() => response.end('two'), 50);
    });
    const transport = loopbackTransport(server);
    const iterator = (await transport.send(getRequest())).body[Symbol.asyncIterator]();
    const [first, second, third] = await Promise.all([iterator.next(), iterator.next(), iterator.next()]);
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('one');
    expect(Buffer.from(second.value as Uint8Array).toString()).toBe('two');
    expect(third.done).toBe(true);
  });
});

describe('connection reuse and close', () => {
  it('sends two sequential requests over the same socket', async () => {
    const ports: (number | undefined)[] = [];
    const server = await startHttpServer((request, response) => {
      ports.push(request.socket.remotePort);
      response.end('ok');
    });
    const transport = loopbackTransport(server);
    await readAll((await transport.send(getRequest())).body);
    await readAll((await transport.send(getRequest())).body);
    expect(server.sockets).toHaveLength(1);
    expect(ports[0]).toBe(ports[1]);
  });

  it('never shares sockets between two transports of the same server', async () => {
    const server = await startHttpServer((_request, response) => response.end('ok'));
    const first = loopbackTransport(server);
    const second = loopbackTransport(server);
    await readAll((await first.send(getRequest())).body);
    await readAll((await second.send(getRequest())).body);
    expect(server.sockets).toHaveLength(2);
  });

  it('destroy ends an unread body with aborted and settles a pending close', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200);
      response.write('a');
    });
    const transport = loopbackTransport(server);
    const response = await transport.send(getRequest());
    const closing = transport.close();
    await transport.destroy();
    await closing;
    const chunks: string[] = [];
    const failure = await rejectionOf(
      (async () => {
        for await (const chunk of response.body) chunks.push(Buffer.from(chunk).toString());
      })(),
    );
    expect(failure).toMatchObject({ stage: 'after-send', reason: 'aborted' });
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'before-send', reason: 'other' });
  });

  it('lets an in-flight body finish on close, then refuses new requests before sending', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200);
      response.write('a');
      setTimeout(() => response.end('b'), 50);
    });
    const transport = loopbackTransport(server);
    const response = await transport.send(getRequest());
    const closing = transport.close();
    expect((await readAll(response.body)).toString()).toBe('ab');
    await closing;
    expect(await rejectionOf(transport.send(getRequest()))).toMatchObject({ stage: 'before-send', reason: 'other' });
    expect(server.sockets.every((socket) => socket.destroyed)).toBe(true);
  });
});
