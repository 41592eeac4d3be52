import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyReadTimeoutError, readLimitedBody, type BodyDeadlines } from './read-limited-body.js';
import { readLimitedIncomingBody } from './read-limited-incoming-body.js';

/** What a reader made of one body, as the test server answers it. */
type Outcome = { kind: 'body'; bytes: number; sha256: string; ownBuffer: boolean } | { kind: 'too-large' } | { kind: 'timeout'; deadline: string } | { kind: 'aborted' } | { kind: 'failed' };

const shutdown = new AbortController();
const SHUTDOWN_REASON = new Error('shutting down');
/** Outcomes of requests whose client went away (no answer reaches it), by the request's `x-case`. */
const unanswered = new Map<string, Outcome>();
let server: Server;
let port: number;

async function outcomeOf(read: Promise<Uint8Array | undefined>): Promise<Outcome> {
  try {
    const body = await read;
    if (body === undefined) return { kind: 'too-large' };
    return { kind: 'body', bytes: body.byteLength, sha256: createHash('sha256').update(body).digest('hex'), ownBuffer: body.byteOffset === 0 && body.buffer.byteLength === body.byteLength };
  } catch (error) {
    if (error instanceof BodyReadTimeoutError) return { kind: 'timeout', deadline: error.deadline };
    if (error === SHUTDOWN_REASON) return { kind: 'aborted' };
    return { kind: 'failed' };
  }
}

beforeAll(async () => {
  // `/web`: the general reader over @hono/node-server's Request; `/node`: the node request read directly.
  server = createServer(
    getRequestListener(async (request, env) => {
      const max = Number(request.headers.get('x-max'));
      // `x-parsed`: the read starts once the server has parsed all it holds (a request sent whole is then complete).
      await (request.headers.get('x-parsed') === null ? Promise.resolve() : new Promise((resolve) => setImmediate(resolve)));
      const deadlines: BodyDeadlines = { idleMs: Number(request.headers.get('x-idle-ms')), totalMs: Number(request.headers.get('x-total-ms')), signal: shutdown.signal };
      const read = new URL(request.url).pathname === '/node' ? readLimitedIncomingBody(env.incoming as IncomingMessage, max, deadlines) : readLimitedBody(request, max, deadlines);
      const outcome = await outcomeOf(read);
      const name = request.headers.get('x-case');
      if (name !== null) unanswered.set(name, outcome);
      return Response.json(outcome);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Sent {
  readonly chunks: readonly Uint8Array[];
  /** Declared with `content-length` (its true length), else chunked. */
  readonly declared: boolean;
  readonly max: number;
  /** The whole request in one write, read once parsed (the body is complete when the read starts), else a write per part. */
  readonly atOnce?: boolean;
}

/** Sends the request over a raw connection (each chunk written after the previous one left) and answers the reader's outcome. */
function send(path: '/web' | '/node', sent: Sent): Promise<Outcome> {
  const length = sent.chunks.reduce((total, chunk) => total + chunk.byteLength, 0);
  const head = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', `x-max: ${sent.max}`, 'x-idle-ms: 5000', 'x-total-ms: 10000', ...(sent.atOnce === true ? ['x-parsed: 1'] : []), sent.declared ? `Content-Length: ${length}` : 'Transfer-Encoding: chunked'];
  const parts: Buffer[] = [Buffer.from(`${head.join('\r\n')}\r\n\r\n`)];
  for (const chunk of sent.chunks) {
    if (sent.declared) parts.push(Buffer.from(chunk));
    else if (chunk.byteLength > 0) parts.push(Buffer.concat([Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
  }
  if (!sent.declared) parts.push(Buffer.from('0\r\n\r\n'));
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(outcomeIn(text)));
    void (async () => {
      if (sent.atOnce === true) return void socket.write(Buffer.concat(parts));
      for (const part of parts) {
        socket.write(part);
        await new Promise((next) => setTimeout(next, 1));
      }
    })();
  });
}

/** A raw connection to `path`: a head declaring `content-length: 100`, then `drip` bytes; closed by the test. */
function rawClient(path: string, headers: Record<string, string>): { write: (text: string) => void; close: () => void; answer: Promise<string> } {
  const socket = connect({ host: '127.0.0.1', port });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => {});
  const head = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Length: 100', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  return { write: (part) => socket.write(part), close: () => socket.destroy(), answer: new Promise((resolve) => socket.once('close', () => resolve(text))) };
}
const outcomeIn = (answer: string): Outcome => JSON.parse(answer.slice(answer.indexOf('{'), answer.lastIndexOf('}') + 1)) as Outcome;

describe('readLimitedIncomingBody', () => {
  it('answers what the web reader answers for any body, limit and split (declared or chunked)', async () => {
    let tooLarge = 0;
    let read = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 3000 }), { minLength: 0, maxLength: 4 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 6000 }),
        fc.boolean(),
        async (chunks, declared, max, atOnce) => {
          const sent = { chunks, declared, max, atOnce };
          const [web, node] = [await send('/web', sent), await send('/node', sent)];
          expect(node).toEqual(web);
          if (node.kind === 'too-large') tooLarge += 1;
          if (node.kind === 'body') read += 1;
        },
      ),
      { numRuns: 80 },
    );
    // Both sides of the limit were generated.
    expect(Math.min(tooLarge, read)).toBeGreaterThan(5);
  });

  it('takes a body of exactly the limit and refuses one byte more, declared or chunked, whole or in parts', async () => {
    for (const declared of [true, false]) {
      for (const atOnce of [true, false]) {
        const at = await send('/node', { chunks: [new Uint8Array(700), new Uint8Array(300)], declared, max: 1000, atOnce });
        expect(at).toMatchObject({ kind: 'body', bytes: 1000, ownBuffer: true });
        expect(await send('/node', { chunks: [new Uint8Array(700), new Uint8Array(301)], declared, max: 1000, atOnce })).toEqual({ kind: 'too-large' });
      }
    }
  });

  it('times out a body that stalls (idle) or keeps dripping (total), as the web reader does', async () => {
    for (const path of ['/web', '/node']) {
      const stalled = rawClient(path, { 'x-max': '1000', 'x-idle-ms': '150', 'x-total-ms': '5000' });
      stalled.write('{');
      const started = performance.now();
      expect(outcomeIn(await Promise.race([stalled.answer, new Promise<string>((resolve) => setTimeout(() => resolve(''), 300)).then(() => (stalled.close(), stalled.answer))]))).toEqual({
        kind: 'timeout',
        deadline: 'idle',
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);

      const dripping = rawClient(path, { 'x-max': '1000', 'x-idle-ms': '150', 'x-total-ms': '400' });
      const drip = setInterval(() => dripping.write('a'), 20);
      const dripStarted = performance.now();
      const answer = await new Promise<string>((resolve) => setTimeout(() => resolve(dripping.answer), 700)).then(async () => (clearInterval(drip), dripping.close(), dripping.answer));
      expect(outcomeIn(answer)).toEqual({ kind: 'timeout', deadline: 'total' });
      expect(performance.now() - dripStarted).toBeGreaterThanOrEqual(390);
    }
  });

  it('fails when the client goes away mid-body, as the web reader does', async () => {
    for (const path of ['/web', '/node']) {
      const client = rawClient(path, { 'x-max': '1000', 'x-idle-ms': '5000', 'x-total-ms': '5000', 'x-case': `gone${path}` });
      client.write('{"partial":');
      await new Promise((resolve) => setTimeout(resolve, 50));
      client.close();
      await client.answer;
      for (let waited = 0; !unanswered.has(`gone${path}`) && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unanswered.get(`gone${path}`)).toEqual({ kind: 'failed' });
    }
  });

  it('stops with the signal’s reason when the signal aborts mid-body, and at once when it already has', async () => {
    const clients = ['/web', '/node'].map((path) => rawClient(path, { 'x-max': '1000', 'x-idle-ms': '5000', 'x-total-ms': '5000' }));
    for (const client of clients) client.write('{');
    await new Promise((resolve) => setTimeout(resolve, 100));
    shutdown.abort(SHUTDOWN_REASON);
    const answers = await Promise.all(clients.map((client) => new Promise<string>((resolve) => setTimeout(resolve, 300)).then(() => (client.close(), client.answer))));
    expect(answers.map(outcomeIn)).toEqual([{ kind: 'aborted' }, { kind: 'aborted' }]);
    expect(await send('/node', { chunks: [new Uint8Array(10)], declared: true, max: 100 })).toEqual({ kind: 'aborted' });
  });
});
