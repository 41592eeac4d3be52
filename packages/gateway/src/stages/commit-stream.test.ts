import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADAPTER_STREAM_TAKE_BUFFERED_V1, EGRESS_STREAM_EVENT_TEXT_V1, type AdapterTerminalOutcomeV3, type EgressCodecV1, type NormalizedStreamEventV3 } from '@tokenforge/model-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { sendDirectStream } from '../pipeline/direct-stream-writer.js';
import type { RequestScope } from '../pipeline/request-scope.js';
import type { RequestTelemetry } from '../telemetry/gateway-telemetry.js';
import { commitStream, type StreamExecution } from './commit-stream.js';

const COMPLETED: AdapterTerminalOutcomeV3 = { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } };
const text = new TextEncoder();

/** An engine stream as the engine serves it: the first event of each read after a wait, the rest of that read by the synchronous take. */
function execution(reads: readonly (readonly string[])[], stallAfter = Number.POSITIVE_INFINITY) {
  let read = -1;
  let held: NormalizedStreamEventV3[] = [];
  let settle: (outcome: AdapterTerminalOutcomeV3) => void = () => undefined;
  let wake: (() => void) | undefined;
  const aborts: unknown[] = [];
  const terminal = new Promise<AdapterTerminalOutcomeV3>((resolve) => (settle = resolve));
  const toEvents = (deltas: readonly string[]): NormalizedStreamEventV3[] => deltas.map((delta) => ({ type: 'text-delta', index: 0, delta }));
  const iterator = {
    async next(): Promise<IteratorResult<NormalizedStreamEventV3>> {
      const ready = held.shift();
      if (ready !== undefined) return { done: false, value: ready };
      read += 1;
      if (read >= stallAfter && aborts.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      else await new Promise((resolve) => setImmediate(resolve));
      if (aborts.length > 0 || read >= reads.length) {
        settle(aborts.length > 0 ? { status: 'cancelled' } : COMPLETED);
        return { done: true, value: undefined };
      }
      held = toEvents(reads[read] as readonly string[]);
      return { done: false, value: held.shift() as NormalizedStreamEventV3 };
    },
    async return(): Promise<IteratorResult<NormalizedStreamEventV3>> {
      return { done: true, value: undefined };
    },
    [ADAPTER_STREAM_TAKE_BUFFERED_V1]: (): NormalizedStreamEventV3 | undefined => held.shift(),
  };
  const stream = {
    kind: 'stream',
    acceptance: { state: 'accepted' },
    responseMetadata: {},
    events: { [Symbol.asyncIterator]: () => iterator },
    terminal,
    // As the engine's: an abort settles the terminal as cancelled at once.
    abort: (reason: unknown) => {
      aborts.push(reason);
      settle({ status: 'cancelled' });
      wake?.();
    },
  } as unknown as StreamExecution;
  return { stream, aborts };
}

const egress = {
  createStreamEncoder: () => ({
    contentType: 'text/event-stream',
    encodeEvent: (event: NormalizedStreamEventV3) => (event.type === 'text-delta' ? text.encode(`data: ${event.delta}\n\n`) : new Uint8Array(0)),
    encodeTerminal: (outcome: AdapterTerminalOutcomeV3) => text.encode(`data: [${outcome.status}]\n\n`),
  }),
} as unknown as EgressCodecV1;

/** The same wire, from an encoder that offers its events as text (its byte method must then go unused). */
const textEgress = {
  createStreamEncoder: () => ({
    contentType: 'text/event-stream',
    encodeEvent: () => {
      throw new Error('encodeEvent called although the encoder offers text');
    },
    [EGRESS_STREAM_EVENT_TEXT_V1]: (event: NormalizedStreamEventV3) => (event.type === 'text-delta' ? `data: ${event.delta}\n\n` : ''),
    encodeTerminal: (outcome: AdapterTerminalOutcomeV3) => text.encode(`data: [${outcome.status}]\n\n`),
  }),
} as unknown as EgressCodecV1;

function scope(): RequestScope {
  return { requestId: 'req-1', route: 'POST /v1/chat/completions', started: performance.now(), telemetry: {} as RequestTelemetry, facts: { attempts: [] } };
}

async function commit(reads: readonly (readonly string[])[], stallAfter?: number, codec: EgressCodecV1 = egress) {
  const { stream, aborts } = execution(reads, stallAfter);
  const ended: string[] = [];
  const attempted = await commitStream(
    { execution: stream, egress: codec, context: { responseId: 'r', modelLabel: 'm', createdAtMs: 0 }, logAttempt: () => undefined, settle: () => undefined, signal: new AbortController().signal, release: () => undefined, end: (_status, outcome) => ended.push(outcome) },
    scope(),
  );
  if (attempted.kind !== 'answer') throw new Error('no answer');
  return { response: attempted.response, ended, aborts };
}

const READS = [['a', 'b', 'c'], ['d'], ['e', 'f', 'g', 'h']];
const WIRE = 'data: a\n\ndata: b\n\ndata: c\n\ndata: d\n\ndata: e\n\ndata: f\n\ndata: g\n\ndata: h\n\ndata: [completed]\n\n';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

/** A real node server answering each request with `serve`'s stream, written straight to the socket. */
async function serving(serve: (outgoing: ServerResponse) => Promise<void>): Promise<string> {
  server = createServer((_incoming, outgoing) => void serve(outgoing));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('commitStream', () => {
  it('writes the events of one upstream read in one socket write, straight to the node response, and ends with the terminal', async () => {
    const writes: string[] = [];
    const ended: string[][] = [];
    const url = await serving(async (outgoing) => {
      const write = outgoing.write.bind(outgoing) as (chunk: Uint8Array) => boolean;
      outgoing.write = ((chunk: Uint8Array) => {
        writes.push(Buffer.from(chunk).toString('utf8'));
        return write(chunk);
      }) as typeof outgoing.write;
      const committed = await commit(READS);
      ended.push(committed.ended);
      expect(sendDirectStream(committed.response, outgoing)).toBe(true);
    });
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await response.text()).toBe(WIRE);
    expect(writes).toEqual(['data: a\n\ndata: b\n\ndata: c\n\n', 'data: d\n\n', 'data: e\n\ndata: f\n\ndata: g\n\ndata: h\n\n']);
    expect(ended).toEqual([['completed']]);
  });

  it('gives the same bytes, in the same chunks, through the web body', async () => {
    const { response, ended } = await commit(READS);
    const chunks: string[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk).toString('utf8'));
    expect(chunks.join('')).toBe(WIRE);
    expect(chunks.slice(0, 3)).toEqual(['data: a\n\ndata: b\n\ndata: c\n\n', 'data: d\n\n', 'data: e\n\ndata: f\n\ndata: g\n\ndata: h\n\n']);
    expect(ended).toEqual(['completed']);
  });

  it('writes an encoder\'s event text joined per upstream read, as the same UTF-8 bytes, to the socket and through the web body', async () => {
    const reads = [['a', 'é', '文'], ['d'], ['e', '😀']];
    const wire = 'data: a\n\ndata: é\n\ndata: 文\n\ndata: d\n\ndata: e\n\ndata: 😀\n\ndata: [completed]\n\n';
    const writes: unknown[] = [];
    const url = await serving(async (outgoing) => {
      const write = outgoing.write.bind(outgoing) as (chunk: string | Uint8Array) => boolean;
      outgoing.write = ((chunk: string | Uint8Array) => {
        writes.push(chunk);
        return write(chunk);
      }) as typeof outgoing.write;
      expect(sendDirectStream((await commit(reads, undefined, textEgress)).response, outgoing)).toBe(true);
    });
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).toString('utf8')).toBe(wire);
    expect(writes.map((chunk) => Buffer.from(chunk as Uint8Array).toString('utf8'))).toEqual(['data: a\n\ndata: é\n\ndata: 文\n\n', 'data: d\n\n', 'data: e\n\ndata: 😀\n\n']);
    const { response, ended } = await commit(reads, undefined, textEgress);
    const chunks: Buffer[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString('utf8')).toBe(wire);
    expect(chunks.length).toBe(4);
    expect(ended).toEqual(['completed']);
  });

  it('cancels the execution and logs `cancelled` when the client leaves a stream written to the socket', async () => {
    let committed: Awaited<ReturnType<typeof commit>> | undefined;
    const url = await serving(async (outgoing) => {
      committed = await commit(READS, 2);
      sendDirectStream(committed.response, outgoing);
    });
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await expect.poll(() => committed?.ended).toEqual(['cancelled']);
    expect(committed?.aborts).toEqual(['client closed the stream']);
  });

  it('cancels a stream whose client left before its body started', async () => {
    let committed: Awaited<ReturnType<typeof commit>> | undefined;
    const url = await serving(async (outgoing) => {
      await new Promise((resolve) => outgoing.once('close', resolve));
      committed = await commit(READS, 2);
      sendDirectStream(committed.response, outgoing);
    });
    const client = request(url, { method: 'POST' });
    client.on('error', () => undefined);
    client.end();
    setTimeout(() => client.destroy(), 50);
    await expect.poll(() => committed?.ended).toEqual(['cancelled']);
    expect(committed?.aborts).toEqual(['client closed the stream']);
  });

  it('leaves any other response to the caller', () => {
    expect(sendDirectStream(new Response('x'), {} as ServerResponse)).toBe(false);
  });
});
