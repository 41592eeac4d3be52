import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getRequest, loopbackTransport, readAll, rejectionOf } from './test-support/local-servers.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A raw TCP server that answers every request with exactly `bytes` and then closes the socket. */
async function rawServer(bytes: string): Promise<{ readonly port: number }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.once('data', () => socket.end(bytes));
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port };
}

describe('malformed HTTP responses', () => {
  it.each([
    ['a status line without a version', 'HTTX/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'],
    ['a non-numeric status code', 'HTTP/1.1 2x0 OK\r\ncontent-length: 2\r\n\r\n{}'],
    ['garbage instead of a status line', 'hello world\r\n\r\n'],
    ['a header without a colon', 'HTTP/1.1 200 OK\r\nx-broken header\r\ncontent-length: 2\r\n\r\n{}'],
    ['a header name with a space', 'HTTP/1.1 200 OK\r\nx bad: 1\r\ncontent-length: 2\r\n\r\n{}'],
    ['a header value with a NUL', 'HTTP/1.1 200 OK\r\nx-bad: a\u0000b\r\ncontent-length: 2\r\n\r\n{}'],
    ['two content lengths that disagree', 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}'],
    ['an invalid chunk size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
  ])('reports %s as protocol-error after-send', async (_label, bytes) => {
    const server = await rawServer(bytes);
    const transport = loopbackTransport({ port: server.port, sockets: [], requests: [] });
    let failure: unknown;
    try {
      const response = await transport.send(getRequest());
      await readAll(response.body);
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ stage: 'after-send', reason: 'protocol-error' });
    expect(JSON.stringify((failure as { cause?: unknown }).cause ?? {})).not.toContain('x-broken');
  });

  it('keeps an ordinary connection loss as connection-lost', async () => {
    const server = await rawServer('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{}');
    const transport = loopbackTransport({ port: server.port, sockets: [], requests: [] });
    const response = await transport.send(getRequest());
    expect(await rejectionOf(readAll(response.body))).toMatchObject({ stage: 'after-send', reason: 'connection-lost' });
  });
});
