import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createSseParser, decodeSseStream, type SseDecoderOptions, type SseItem } from './sse-decoder.js';
import { bytesOf, collect, readFixture, splitAt, trackedBody } from './test-support/byte-streams.js';

async function decode(text: string | Uint8Array, options?: SseDecoderOptions, cuts: number[] = []): Promise<SseItem[]> {
  const bytes = typeof text === 'string' ? bytesOf(text) : text;
  return collect(decodeSseStream(trackedBody(splitAt(bytes, cuts)), options));
}

async function decodeError(text: string | Uint8Array, options?: SseDecoderOptions): Promise<string> {
  try {
    await decode(text, options);
  } catch (error) {
    if (isCodecErrorV1(error)) return error.code;
    throw error;
  }
  throw new Error('expected a codec error');
}

const event = (data: string, name?: string, id?: string): SseItem => ({ kind: 'event', event: name, id, data });

describe('decodeSseStream framing', () => {
  it.each([
    ['LF', 'data: a\n\ndata: b\n\n'],
    ['CRLF', 'data: a\r\n\r\ndata: b\r\n\r\n'],
    ['CR', 'data: a\r\rdata: b\r\r'],
    ['mixed', 'data: a\r\n\ndata: b\r\r\n'],
  ])('splits events on blank lines with %s line endings', async (_name, text) => {
    expect(await decode(text)).toEqual([event('a'), event('b')]);
  });

  it('joins several data lines with a line feed', async () => {
    expect(await decode('data: one\ndata: two\r\ndata:three\n\n')).toEqual([event('one\ntwo\nthree')]);
  });

  it('drops exactly one space after the colon', async () => {
    expect(await decode('data:x\n\ndata: x\n\ndata:  x\n\n')).toEqual([event('x'), event('x'), event(' x')]);
  });

  it('reads event and id per event without carrying them over', async () => {
    expect(await decode('event: delta\nid: 7\ndata: {}\n\ndata: {}\n\n')).toEqual([event('{}', 'delta', '7'), event('{}')]);
  });

  it('ignores retry and unknown fields, and dispatches nothing for an event without data', async () => {
    expect(await decode('retry: 100\nfoo: bar\n\nevent: ping\n\ndata: a\nretry: 5\n\n')).toEqual([event('a')]);
  });

  it('treats a field line without a colon as a field with an empty value', async () => {
    expect(await decode('data\n\ndata\ndata\n\n')).toEqual([event(''), event('\n')]);
  });

  it('skips comments by default and reports them on request', async () => {
    const text = ': keep-alive\ndata: a\n:x\n\n';
    expect(await decode(text)).toEqual([event('a')]);
    expect(await decode(text, { comments: 'report' })).toEqual([
      { kind: 'comment', text: 'keep-alive' },
      { kind: 'comment', text: 'x' },
      event('a'),
    ]);
  });

  it.each([
    ['no line break', 'data: last'],
    ['one line break', 'data: last\n'],
    ['a CR', 'data: last\r'],
  ])('flushes a final event with %s at the end of the body', async (_name, text) => {
    expect(await decode(`data: first\n\n${text}`)).toEqual([event('first'), event('last')]);
  });

  it('treats CR at the end of a read and LF at the start of the next as one line break', async () => {
    const text = 'data: a\r\ndata: b\r\n\r\ndata: c\n\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(await decode(text, undefined, [cut])).toEqual([event('a\nb'), event('c')]);
    }
  });

  it('assembles a 6 MiB event delivered in 64 KiB reads, with multi-byte text across every read boundary', async () => {
    const payload = '你好😀'.repeat(6 * 1024 * 1024 / 10);
    const bytes = bytesOf(`data: ${payload}\n\n`);
    const cuts = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, index) => index * 65536);
    const items = await decode(bytes, undefined, cuts);
    expect(items).toHaveLength(1);
    expect((items[0] as { data: string }).data === payload).toBe(true);
  });

  it('drops a byte-order mark at the start, even split across reads, and keeps U+FEFF elsewhere', async () => {
    const text = '\ufeffdata: a\n\ndata: \ufeffb\n\n';
    expect(await decode(text, undefined, [1, 2])).toEqual([event('a'), event('\ufeffb')]);
    expect(await decode(text)).toEqual([event('a'), event('\ufeffb')]);
    // At the start of a later line it is text: the line is a field named "\ufeffdata", which SSE ignores.
    expect(await decode('data: a\n\n\ufeffdata: b\n\n')).toEqual([event('a')]);
    expect(await decode('data: a\n\n\ufeffdata: b\n\n', undefined, [10, 11])).toEqual([event('a')]);
  });

  it('decodes multi-byte characters split across reads', async () => {
    const text = 'data: 你好 😀 é\n\n';
    const bytes = bytesOf(text);
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(await decode(bytes, undefined, [cut])).toEqual([event('你好 😀 é')]);
    }
  });

  it('decodes the recorded DashScope body: byte-order mark, comment, id, event and no trailing blank line', async () => {
    const items = await decode(readFixture('cnblogs-dashscope-sdk__parameter-error-sse.response.body.txt'), {
      comments: 'report',
    });
    expect(items).toHaveLength(2);
    expect(items[0]).toEqual({ kind: 'comment', text: 'HTTP_STATUS/400' });
    expect(items[1]).toMatchObject({ kind: 'event', event: 'error', id: '1' });
    expect(JSON.parse((items[1] as { data: string }).data)).toMatchObject({ code: 'InvalidParameter' });
  });
});

describe('decodeSseStream limits and invalid text', () => {
  it('fails with frame-too-large for one line past the event cap', async () => {
    expect(await decodeError(`data: ${'a'.repeat(100)}\n\n`, { maxEventBytes: 64 })).toBe('frame-too-large');
  });

  it('counts every line of an event against the cap, not each line alone', async () => {
    const lines = 'data: 0123456789\n'.repeat(10);
    expect(await decodeError(`${lines}\n`, { maxEventBytes: 100 })).toBe('frame-too-large');
    expect(await decode(`${lines}\n${lines}\n`, { maxEventBytes: 170 })).toHaveLength(2);
  });

  it('stops reading as soon as a line without a break passes the cap', async () => {
    const body = trackedBody([bytesOf('data: ')], { repeatForever: new Uint8Array(1024).fill(0x61) });
    await expect(collect(decodeSseStream(body, { maxEventBytes: 16 * 1024 }))).rejects.toMatchObject({ code: 'frame-too-large' });
    expect(body.bytesServed).toBeLessThanOrEqual(16 * 1024 + 1024 + 6);
    expect(body.released).toBe(true);
  });

  it('fails on NUL bytes and on invalid UTF-8 by default', async () => {
    expect(await decodeError('data: a\u0000b\n\n')).toBe('invalid-encoding');
    expect(await decodeError(new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a]))).toBe('invalid-encoding');
    // A multi-byte character cut off by a line break, and by the end of the body.
    expect(await decodeError(new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xe4, 0xbd, 0x0a, 0x0a]))).toBe('invalid-encoding');
    expect(await decodeError(new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xe4, 0xbd]))).toBe('invalid-encoding');
  });

  it('accepts a real U+FFFD in the input, whole or split, while refusing invalid bytes', async () => {
    const text = 'data: a\ufffdb\n\n';
    expect(await decode(text)).toEqual([event('a\ufffdb')]);
    for (let cut = 1; cut < bytesOf(text).length; cut += 1) expect(await decode(text, undefined, [cut])).toEqual([event('a\ufffdb')]);
    expect(await decodeError(new Uint8Array([...bytesOf('data: a\ufffd'), 0xc0, 0x80, 0x0a, 0x0a]))).toBe('invalid-encoding');
  });

  it('replaces NUL bytes and invalid UTF-8 with U+FFFD on request', async () => {
    const bytes = new Uint8Array([...bytesOf('data: a'), 0x00, 0xff, ...bytesOf('b\n\n')]);
    expect(await decode(bytes, { invalidText: 'replace' })).toEqual([event('a\ufffd\ufffdb')]);
  });

  it('releases the body when decoding fails and when the consumer stops early', async () => {
    const failing = trackedBody([bytesOf('data: a\n\n'), bytesOf('data: \u0000\n\n'), bytesOf('data: c\n\n')]);
    await expect(collect(decodeSseStream(failing))).rejects.toMatchObject({ code: 'invalid-encoding' });
    expect(failing.returnCalls).toBe(1);

    const early = trackedBody([bytesOf('data: a\n\n'), bytesOf('data: b\n\n')]);
    for await (const item of decodeSseStream(early)) {
      expect(item).toEqual(event('a'));
      break;
    }
    expect(early.returnCalls).toBe(1);
    expect(early.pulls).toBe(1);
  });
});

describe('decodeSseStream bare JSON values', () => {
  const errorObject = '{"error":{"code":503,"message":"a } and a \\" inside","status":"UNAVAILABLE"}}';

  it('reports a one-line bare JSON object between events as its own item kind', async () => {
    const items = await decode(`data: {"a":1}\n\n${errorObject}\n\ndata: {"b":2}\n\n`, { bareJson: true });
    expect(items).toEqual([event('{"a":1}'), { kind: 'bare-json', text: errorObject }, event('{"b":2}')]);
  });

  it('reads a pretty-printed bare JSON object across lines, with no blank line after it', async () => {
    const pretty = '{\n  "error": {\n    "code": 500,\n    "details": [ {"x": "]"} ]\n  }\n}';
    const items = await decode(`data: {"a":1}\n\n${pretty}\ndata: {"b":2}\n\n`, { bareJson: true });
    expect(items).toEqual([event('{"a":1}'), { kind: 'bare-json', text: pretty }, event('{"b":2}')]);
    expect(JSON.parse((items[1] as { text: string }).text)).toMatchObject({ error: { code: 500 } });
  });

  it('ignores such a line as an unknown field unless bare JSON is enabled', async () => {
    expect(await decode(`${errorObject}\n\ndata: x\n\n`)).toEqual([event('x')]);
  });

  it('fails with malformed-json when the body ends inside a bare JSON value', async () => {
    expect(await decodeError('{"error": {"code": 500', { bareJson: true })).toBe('malformed-json');
  });

  it('applies the event cap to bare JSON values', async () => {
    expect(await decodeError(`{"error":"${'x'.repeat(200)}"}\n\n`, { bareJson: true, maxEventBytes: 100 })).toBe('frame-too-large');
  });
});

describe('createSseParser', () => {
  it('returns the items each push completes and flushes the rest on finish', () => {
    const parser = createSseParser();
    expect(parser.push(bytesOf('data: a\n\ndata: b'))).toEqual([event('a')]);
    expect(parser.push(bytesOf('c\n'))).toEqual([]);
    expect(parser.finish()).toEqual([event('bc')]);
  });
});
