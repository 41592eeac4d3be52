import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyReadTimeoutError, readLimitedBody } from './read-limited-body.js';

const bytes = (length: number, fill = 0x61): Uint8Array<ArrayBuffer> => new Uint8Array(length).fill(fill);

/** A streamed body of `chunks` chunks of `size` bytes; `pulled()` counts the chunks read so far. */
function streamed(chunks: number, size: number): { body: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled += 1;
      controller.enqueue(bytes(size));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, pulled: () => pulled, cancelled: () => cancelled };
}

const post = (body: BodyInit, headers: Record<string, string> = {}): Request =>
  new Request('http://gateway.test/v1/chat/completions', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('readLimitedBody', () => {
  it('reads a body within the limit whole, declared or not', async () => {
    expect(await readLimitedBody(post(bytes(100), { 'content-length': '100' }), 100)).toEqual(bytes(100));
    const chunked = streamed(4, 25);
    expect(await readLimitedBody(post(chunked.body), 100)).toEqual(bytes(100));
    expect(await readLimitedBody(new Request('http://gateway.test/', { method: 'POST' }), 100)).toEqual(new Uint8Array(0));
  });

  it('refuses a declared length over the limit without reading the body', async () => {
    const body = streamed(10, 100);
    expect(await readLimitedBody(post(body.body, { 'content-length': '1000' }), 999)).toBeUndefined();
    expect(body.pulled()).toBeLessThanOrEqual(1);
  });

  it('stops reading a chunked body at the limit and cancels it', async () => {
    const body = streamed(1000, 100);
    expect(await readLimitedBody(post(body.body), 250)).toBeUndefined();
    expect(body.pulled()).toBeLessThan(10);
    expect(body.cancelled()).toBe(true);
  });

  it('refuses a body larger than its declared length when that is over the limit', async () => {
    expect(await readLimitedBody(post(bytes(500), { 'content-length': '10' }), 100)).toBeUndefined();
  });
});

describe('readLimitedBody with deadlines', () => {
  /** A body that enqueues one byte every `everyMs` for `count` times, then ends; `cancelled()` once cancelled. */
  function dripping(everyMs: number, count: number): { body: ReadableStream<Uint8Array>; cancelled: () => boolean } {
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let sent = 0;
        timer = setInterval(() => {
          if (sent === count) {
            clearInterval(timer);
            return controller.close();
          }
          sent += 1;
          controller.enqueue(bytes(1));
        }, everyMs);
      },
      cancel() {
        cancelled = true;
        clearInterval(timer);
      },
    });
    return { body, cancelled: () => cancelled };
  }

  it('reads a body whose reads come within the idle deadline, declared or not', async () => {
    expect(await readLimitedBody(post(dripping(5, 4).body), 100, { idleMs: 200, totalMs: 1000 })).toEqual(bytes(4));
    expect(await readLimitedBody(post(bytes(100), { 'content-length': '100' }), 100, { idleMs: 200, totalMs: 1000 })).toEqual(bytes(100));
  });

  it('cancels a body that stalls longer than the idle deadline', async () => {
    const stalled = dripping(10_000, 1);
    const started = performance.now();
    const error = await readLimitedBody(post(stalled.body), 100, { idleMs: 100, totalMs: 5000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BodyReadTimeoutError);
    expect((error as BodyReadTimeoutError).deadline).toBe('idle');
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(stalled.cancelled()).toBe(true);
  });

  it('cancels a body that keeps dripping past the total deadline', async () => {
    const drip = dripping(20, 1000);
    const started = performance.now();
    const error = await readLimitedBody(post(drip.body), 10_000, { idleMs: 100, totalMs: 300 }).catch((caught: unknown) => caught);
    expect((error as BodyReadTimeoutError).deadline).toBe('total');
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(drip.cancelled()).toBe(true);
  });

  it('stops a read when its signal aborts, cancelling the body and throwing the signal’s reason', async () => {
    const stalled = dripping(10_000, 1);
    const shutdown = new AbortController();
    const reason = new Error('shutting down');
    setTimeout(() => shutdown.abort(reason), 20);
    await expect(readLimitedBody(post(stalled.body), 100, { idleMs: 5000, totalMs: 5000, signal: shutdown.signal })).rejects.toBe(reason);
    expect(stalled.cancelled()).toBe(true);
  });
});

describe('readLimitedBody on @hono/node-server', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer(
      getRequestListener(async (request) => {
        const body = await readLimitedBody(request, 1000);
        return new Response(body === undefined ? 'refused' : `read ${body.byteLength} ${new TextDecoder().decode(body.subarray(0, 3))}`);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends `chunks` (chunked transfer encoding unless `contentLength`) and answers the response text. */
  const send = (chunks: readonly Uint8Array[], contentLength?: number): Promise<string> =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) } }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(text));
      });
      outgoing.on('error', reject);
      for (const chunk of chunks) outgoing.write(chunk);
      outgoing.end();
    });

  it('reads a declared body in one go and a chunked one up to the limit', async () => {
    expect(await send([bytes(400, 0x62), bytes(600, 0x63)], 1000)).toBe('read 1000 bbb');
    expect(await send([bytes(400, 0x62), bytes(600, 0x63)])).toBe('read 1000 bbb');
    expect(await send([bytes(600), bytes(600)])).toBe('refused');
    expect(await send([bytes(1001)], 1001)).toBe('refused');
  });
});
