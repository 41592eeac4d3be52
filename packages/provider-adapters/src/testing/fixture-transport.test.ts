import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  isProviderTransportFailureV1,
  type ProviderTransportRequest,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFixtureTransportV1, type FixtureResponseV1 } from './fixture-transport.js';
import { isFixtureTransportErrorV1 } from './fixture-transport-error.js';

const fixture = (name: string): string => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const decoder = new TextDecoder();

function request(overrides: Partial<ProviderTransportRequest> = {}): ProviderTransportRequest {
  return {
    method: 'POST',
    path: '/v1/example',
    headers: { 'content-type': 'application/json' },
    body: { type: 'json', value: { hello: 'world' } },
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function readAll(response: ProviderTransportResponse): Promise<Uint8Array[]> {
  const reads: Uint8Array[] = [];
  for await (const chunk of response.body) reads.push(chunk);
  return reads;
}

async function readText(response: ProviderTransportResponse): Promise<string> {
  return (await readAll(response)).map((chunk) => decoder.decode(chunk, { stream: true })).join('') + decoder.decode();
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function* iterate(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.byteLength; start += size) yield bytes.slice(start, start + size);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createFixtureTransportV1: replay', () => {
  it('serves JSON bodies in order with status, lower-cased headers and a default content type', async () => {
    const transport = createFixtureTransportV1({
      responses: [
        { status: 201, headers: { 'X-Request-Id': 'req-1' }, body: { type: 'json', value: { a: 1 } } },
        { status: 429, headers: { 'retry-after': '2', 'content-type': 'application/problem+json' }, body: { type: 'json', value: { e: 2 } } },
      ],
    });
    expect(transport.remaining).toBe(2);
    const first = await transport.send(request());
    expect(first.status).toBe(201);
    expect(first.headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'req-1' });
    expect(await readText(first)).toBe('{"a":1}');
    const second = await transport.send(request());
    expect(second.status).toBe(429);
    expect(second.headers).toEqual({ 'content-type': 'application/problem+json', 'retry-after': '2' });
    expect(await readText(second)).toBe('{"e":2}');
    expect(transport.served).toBe(2);
    expect(transport.remaining).toBe(0);
  });

  it('rejects a request after the script ran out, and still records it', async () => {
    const transport = createFixtureTransportV1({ responses: [] });
    const error = await rejection(transport.send(request()));
    expect(isFixtureTransportErrorV1(error) && error.code).toBe('fixture-exhausted');
    expect(transport.requests).toHaveLength(1);
  });

  it('serves raw text and exact bytes unchanged', async () => {
    const sse = 'id: 1\nevent: result\n:HTTP_STATUS/400\ndata: {"code":"InvalidParameter"}';
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);
    const transport = createFixtureTransportV1({
      responses: [
        { headers: { 'content-type': 'text/event-stream' }, body: { type: 'text', text: sse } },
        { body: { type: 'bytes', bytes: bom } },
        { status: 204 },
      ],
    });
    expect(await readText(await transport.send(request()))).toBe(sse);
    const bytes = await transport.send(request());
    expect(bytes.headers).toEqual({});
    expect(Buffer.concat(await readAll(bytes))).toEqual(Buffer.from(bom));
    const empty = await transport.send(request());
    expect(empty.status).toBe(204);
    expect(await readAll(empty)).toEqual([]);
  });

  it('hands out copies: a reader mutating a chunk does not change the next replay', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'bytes', bytes } }] });
    const [chunk] = await readAll(await transport.send(request()));
    chunk?.fill(9);
    expect(bytes).toEqual(new Uint8Array([1, 2, 3]));
  });
});

describe('createFixtureTransportV1: recorded chunks framing', () => {
  it('frames openai-chat chunks as data lines, one read per frame, then [DONE]', async () => {
    const text = fixture('vercel-ai__openai-text.chunks.txt');
    const lines = text.split('\n').filter((line) => line.length > 0);
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'chunks', text, framing: 'openai-chat' } }] });
    const response = await transport.send(request());
    expect(response.headers['content-type']).toBe('text/event-stream');
    const reads = (await readAll(response)).map((chunk) => decoder.decode(chunk));
    expect(reads).toHaveLength(lines.length + 1);
    expect(reads[0]).toBe(`data: ${lines[0]}\n\n`);
    expect(reads.at(-1)).toBe('data: [DONE]\n\n');
  });

  it('leaves out the openai-chat terminator on request, to replay a truncated stream', async () => {
    const transport = createFixtureTransportV1({
      responses: [{ body: { type: 'chunks', text: '{"a":1}\n', framing: 'openai-chat', omitTerminator: true } }],
    });
    expect(await readText(await transport.send(request()))).toBe('data: {"a":1}\n\n');
  });

  it('frames typed-sse chunks with the event name taken from each payload type (recorded Anthropic stream)', async () => {
    const text = fixture('vercel-ai__anthropic-text.chunks.txt');
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'chunks', text, framing: 'typed-sse' } }] });
    const body = await readText(await transport.send(request()));
    const frames = body.split('\n\n').filter((frame) => frame.length > 0);
    expect(frames).toHaveLength(text.split('\n').filter((line) => line.length > 0).length);
    expect(frames[0]?.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true);
    expect(frames).toContain('event: ping\ndata: {"type":"ping"}');
    expect(frames.at(-1)).toBe('event: message_stop\ndata: {"type":"message_stop"}');
    expect(body).not.toContain('[DONE]');
  });

  it('refuses typed-sse lines that are not JSON objects with a string type', () => {
    for (const text of ['not json', '{"kind":"x"}', '{"type":"a b"}']) {
      let caught: unknown;
      try {
        createFixtureTransportV1({ responses: [{ body: { type: 'chunks', text, framing: 'typed-sse' } }] });
      } catch (error) {
        caught = error;
      }
      expect(isFixtureTransportErrorV1(caught) && caught.code).toBe('fixture-invalid');
    }
  });

  it('frames gemini-sse chunks as data lines without terminator, with CRLF on request', async () => {
    const text = '{"candidates":[]}\n{"usageMetadata":{}}\n';
    const transport = createFixtureTransportV1({
      responses: [
        { body: { type: 'chunks', text, framing: 'gemini-sse' } },
        { body: { type: 'chunks', text, framing: 'gemini-sse', lineEnding: 'crlf' } },
      ],
    });
    expect(await readText(await transport.send(request()))).toBe('data: {"candidates":[]}\n\ndata: {"usageMetadata":{}}\n\n');
    expect(await readText(await transport.send(request()))).toBe(
      'data: {"candidates":[]}\r\n\r\ndata: {"usageMetadata":{}}\r\n\r\n',
    );
  });

  it('sends raw chunks as newline-delimited JSON', async () => {
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'chunks', text: '{"a":1}\r\n\n{"b":2}', framing: 'raw' } }] });
    const response = await transport.send(request());
    expect(response.headers['content-type']).toBe('application/x-ndjson');
    expect(await readText(response)).toBe('{"a":1}\n{"b":2}\n');
  });
});

describe('createFixtureTransportV1: request recording', () => {
  it('records method, path, query, headers and the JSON body as it would go on the wire', async () => {
    const transport = createFixtureTransportV1({ responses: [{}, {}] });
    await transport.send(
      request({
        path: '/v1beta/models/example:streamGenerateContent',
        query: { alt: 'sse' },
        headers: { 'content-type': 'application/json', 'x-custom': 'yes' },
        body: { type: 'json', value: { keep: 1, drop: undefined, nested: [1, { deep: true }] } },
      }),
    );
    await transport.send(request({ method: 'GET', path: '/v1/tasks/abc', headers: {}, body: { type: 'none' } }));
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/v1beta/models/example:streamGenerateContent',
        query: { alt: 'sse' },
        headers: { 'content-type': 'application/json', 'x-custom': 'yes' },
        body: { type: 'json', value: { keep: 1, nested: [1, { deep: true }] } },
      },
      { method: 'GET', path: '/v1/tasks/abc', headers: {}, body: { type: 'none' } },
    ]);
    expect(transport.requests[1]).not.toHaveProperty('query');
  });

  it('records multipart field names and values, and file sizes and digests read from the streams', async () => {
    const image = new Uint8Array(5000).map((_, index) => index % 251);
    const transport = createFixtureTransportV1({ responses: [{}] });
    await transport.send(
      request({
        headers: {},
        body: {
          type: 'multipart',
          parts: [
            { kind: 'field', name: 'prompt', value: 'a cat' },
            { kind: 'file', name: 'image[]', fileName: 'in.png', mediaType: 'image/png', sizeBytes: 5000, open: () => iterate(image, 1024) },
            { kind: 'file', name: 'mask', fileName: 'mask.png', mediaType: 'image/png', sizeBytes: 9, open: async function* () { yield new Uint8Array([1, 2, 3]); } },
          ],
        },
      }),
    );
    expect(transport.requests[0]?.body).toEqual({
      type: 'multipart',
      parts: [
        { kind: 'field', name: 'prompt', value: 'a cat' },
        { kind: 'file', name: 'image[]', fileName: 'in.png', mediaType: 'image/png', sizeBytes: 5000, sha256: createHash('sha256').update(image).digest('hex') },
        {
          kind: 'file',
          name: 'mask',
          fileName: 'mask.png',
          mediaType: 'image/png',
          sizeBytes: 3,
          declaredSizeBytes: 9,
          sha256: createHash('sha256').update(new Uint8Array([1, 2, 3])).digest('hex'),
        },
      ],
    });
  });

  it('refuses a JSON body that does not serialize, without consuming a response', async () => {
    const transport = createFixtureTransportV1({ responses: [{}] });
    const error = await rejection(transport.send(request({ body: { type: 'json', value: { big: 1n } } })));
    expect(isFixtureTransportErrorV1(error) && error.code).toBe('request-invalid');
    expect(transport.remaining).toBe(1);
    expect(transport.bodyStates()).toEqual([]);
  });
});

describe('createFixtureTransportV1: simulated failures', () => {
  it('fails before send with the given reason, consuming the response and recording the request', async () => {
    const transport = createFixtureTransportV1({
      responses: [{ failure: { stage: 'before-send', reason: 'dns-failed' } }, { failure: { stage: 'before-send' } }, { body: { type: 'json', value: 1 } }],
    });
    const first = await rejection(transport.send(request()));
    expect(isProviderTransportFailureV1(first) && [first.stage, first.reason]).toEqual(['before-send', 'dns-failed']);
    const second = await rejection(transport.send(request()));
    expect(isProviderTransportFailureV1(second) && second.reason).toBe('connect-failed');
    expect(await readText(await transport.send(request()))).toBe('1');
    expect(transport.requests).toHaveLength(3);
    expect(transport.bodyStates()).toEqual([undefined, undefined, 'finished']);
  });

  it('fails after send with the given reason', async () => {
    const transport = createFixtureTransportV1({
      responses: [{ failure: { stage: 'after-send', reason: 'timeout' } }, { failure: { stage: 'after-send' } }],
    });
    const first = await rejection(transport.send(request()));
    expect(isProviderTransportFailureV1(first) && [first.stage, first.reason]).toEqual(['after-send', 'timeout']);
    const second = await rejection(transport.send(request()));
    expect(isProviderTransportFailureV1(second) && [second.stage, second.reason]).toEqual(['after-send', 'connection-lost']);
  });

  it('loses the connection after a number of body bytes', async () => {
    const transport = createFixtureTransportV1({
      responses: [{ body: { type: 'text', text: 'abcdefghij' }, readSize: 4, bodyFailure: { afterBytes: 6 } }],
    });
    const response = await transport.send(request());
    const reads: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of response.body) reads.push(decoder.decode(chunk));
      })(),
    );
    expect(reads).toEqual(['abcd', 'ef']);
    expect(isProviderTransportFailureV1(error) && [error.stage, error.reason]).toEqual(['after-send', 'connection-lost']);
    expect(transport.bodyStates()).toEqual(['failed']);
  });
});

describe('createFixtureTransportV1: timing and reads', () => {
  it('delays the response head', async () => {
    vi.useFakeTimers();
    const transport = createFixtureTransportV1({ responses: [{ delayMs: 1000, body: { type: 'json', value: 1 } }] });
    let settled = false;
    const pending = transport.send(request()).then((response) => {
      settled = true;
      return response;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect((await pending).status).toBe(200);
  });

  it('re-chunks the body at the chosen read size', async () => {
    const transport = createFixtureTransportV1({
      responses: [{ body: { type: 'chunks', text: '{"a":1}\n{"b":2}\n', framing: 'openai-chat' }, readSize: 5 }],
    });
    const reads = (await readAll(await transport.send(request()))).map((chunk) => decoder.decode(chunk));
    expect(reads.slice(0, -1).every((read) => read.length === 5)).toBe(true);
    expect(reads.join('')).toBe('data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n');
  });

  it('keeps the bytes for any read size (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 64 }), async (bytes, readSize) => {
        const transport = createFixtureTransportV1({ responses: [{ body: { type: 'bytes', bytes }, readSize }] });
        const reads = await readAll(await transport.send(request()));
        expect(reads.every((read) => read.byteLength <= readSize && read.byteLength > 0)).toBe(true);
        expect(Buffer.concat(reads)).toEqual(Buffer.from(bytes));
      }),
    );
  });

  it('waits before each read when reads are slow', async () => {
    vi.useFakeTimers();
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'text', text: 'abcdef' }, readSize: 2, readDelayMs: 100 }] });
    const response = await transport.send(request());
    const iterator = response.body[Symbol.asyncIterator]();
    let settled = false;
    const read = iterator.next().then((result) => {
      settled = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(decoder.decode((await read).value as Uint8Array)).toBe('ab');
  });
});

describe('createFixtureTransportV1: aborts and release', () => {
  it('rejects before send when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'json', value: 1 } }] });
    const error = await rejection(transport.send(request({ signal: controller.signal })));
    expect(isProviderTransportFailureV1(error) && [error.stage, error.reason]).toEqual(['before-send', 'aborted']);
  });

  it('rejects after send when the signal aborts while waiting for the head', async () => {
    const controller = new AbortController();
    const transport = createFixtureTransportV1({ responses: [{ delayMs: 60_000, body: { type: 'json', value: 1 } }] });
    const pending = rejection(transport.send(request({ signal: controller.signal })));
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending;
    expect(isProviderTransportFailureV1(error) && [error.stage, error.reason]).toEqual(['after-send', 'aborted']);
  });

  it('rejects a pending slow read when the signal aborts, and every later read ends', async () => {
    const controller = new AbortController();
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'text', text: 'abcdef' }, readSize: 2, readDelayMs: 60_000 }] });
    const response = await transport.send(request({ signal: controller.signal }));
    const iterator = response.body[Symbol.asyncIterator]();
    const pending = rejection(iterator.next());
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending;
    expect(isProviderTransportFailureV1(error) && [error.stage, error.reason]).toEqual(['after-send', 'aborted']);
    expect(transport.bodyStates()).toEqual(['failed']);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('rejects the next read when the signal aborted between reads', async () => {
    const controller = new AbortController();
    const transport = createFixtureTransportV1({ responses: [{ body: { type: 'text', text: 'abcdef' }, readSize: 2 }] });
    const response = await transport.send(request({ signal: controller.signal }));
    const iterator = response.body[Symbol.asyncIterator]();
    expect(decoder.decode((await iterator.next()).value as Uint8Array)).toBe('ab');
    controller.abort();
    const error = await rejection(iterator.next());
    expect(isProviderTransportFailureV1(error) && error.reason).toBe('aborted');
  });

  it('tracks whether each body was read, released or left open', async () => {
    const responses: FixtureResponseV1[] = Array.from({ length: 4 }, () => ({ body: { type: 'text', text: 'abcdef' }, readSize: 2 }));
    const transport = createFixtureTransportV1({ responses });
    await readAll(await transport.send(request()));
    const released = await transport.send(request());
    for await (const chunk of released.body) {
      expect(chunk.byteLength).toBe(2);
      break;
    }
    const reading = await transport.send(request());
    await reading.body[Symbol.asyncIterator]().next();
    await transport.send(request());
    expect(transport.bodyStates()).toEqual(['finished', 'released', 'reading', 'unread']);
  });
});

describe('createFixtureTransportV1: script validation', () => {
  it.each([
    ['a status out of range', { status: 99 }],
    ['a zero read size', { readSize: 0 }],
    ['a negative delay', { delayMs: -1 }],
    ['a fractional read delay', { readDelayMs: 1.5 }],
    ['an unknown failure reason', { failure: { stage: 'after-send', reason: 'gremlins' } }],
    ['an unknown failure stage', { failure: { stage: 'during-send' } }],
    ['a negative body failure offset', { bodyFailure: { afterBytes: -1 } }],
  ])('refuses %s', (_label, response) => {
    let caught: unknown;
    try {
      createFixtureTransportV1({ responses: [response as FixtureResponseV1] });
    } catch (error) {
      caught = error;
    }
    expect(isFixtureTransportErrorV1(caught) && caught.code).toBe('fixture-invalid');
  });
});
