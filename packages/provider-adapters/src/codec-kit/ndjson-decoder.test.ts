import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeNdjsonLines, decodeNdjsonValues, type NdjsonDecoderOptions } from './ndjson-decoder.js';
import { bytesOf, collect, splitAt, trackedBody } from './test-support/byte-streams.js';

function lines(text: string | Uint8Array, options?: NdjsonDecoderOptions, cuts: number[] = []): Promise<string[]> {
  const bytes = typeof text === 'string' ? bytesOf(text) : text;
  return collect(decodeNdjsonLines(trackedBody(splitAt(bytes, cuts)), options));
}

describe('decodeNdjsonLines', () => {
  it('splits on LF and CRLF, keeps a final line without a break and skips blank lines', async () => {
    expect(await lines('{"a":1}\r\n\n  \r\n{"b":2}\n\t\n{"c":3}')).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('drops a byte-order mark at the start', async () => {
    expect(await lines('\ufeff{"a":1}\n', undefined, [2])).toEqual(['{"a":1}']);
    expect(await lines('{"a":1}\n\ufeff{"b":2}')).toEqual(['{"a":1}', '\ufeff{"b":2}']);
  });

  it('yields the same lines for every two-way split, including inside multi-byte characters and CRLF', async () => {
    const text = '{"t":"héllo"}\r\n{"t":"你好 😀"}\n\n{"t":"Ω"}\r\n{"t":"∑"}';
    const expected = ['{"t":"héllo"}', '{"t":"你好 😀"}', '{"t":"Ω"}', '{"t":"∑"}'];
    const bytes = bytesOf(text);
    for (let cut = 1; cut < bytes.length; cut += 1) expect(await lines(bytes, undefined, [cut])).toEqual(expected);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 30 }), async (cuts) => {
        expect(await lines(bytes, undefined, cuts)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('fails with frame-too-large for a line past the cap, without reading on', async () => {
    await expect(lines('{"a":"0123456789"}\n', { maxLineBytes: 10 })).rejects.toMatchObject({ code: 'frame-too-large' });
    const body = trackedBody([], { repeatForever: new Uint8Array(1024).fill(0x20) });
    await expect(collect(decodeNdjsonLines(body, { maxLineBytes: 8192 }))).rejects.toMatchObject({ code: 'frame-too-large' });
    expect(body.bytesServed).toBeLessThanOrEqual(8192 + 1024);
    expect(body.released).toBe(true);
  });

  it('fails with invalid-encoding on NUL and invalid UTF-8, or replaces them on request', async () => {
    await expect(lines('{"a":"\u0000"}\n')).rejects.toMatchObject({ code: 'invalid-encoding' });
    await expect(lines(new Uint8Array([0x7b, 0xff, 0x7d]))).rejects.toMatchObject({ code: 'invalid-encoding' });
    expect(await lines(new Uint8Array([0x61, 0xff, 0x00, 0x62]), { invalidText: 'replace' })).toEqual(['a\ufffd\ufffdb']);
  });

  it('releases the body when the consumer stops early', async () => {
    const body = trackedBody([bytesOf('{"a":1}\n{"b":2}\n'), bytesOf('{"c":3}\n')]);
    for await (const line of decodeNdjsonLines(body)) {
      expect(line).toBe('{"a":1}');
      break;
    }
    expect(body.returnCalls).toBe(1);
  });
});

describe('decodeNdjsonValues', () => {
  it('parses each line with the safe parser', async () => {
    expect(await collect(decodeNdjsonValues(trackedBody([bytesOf('{"a":1}\n[2]\n"x"')])))).toEqual([{ a: 1 }, [2], 'x']);
  });

  it('applies the safe parser rules to each line', async () => {
    await expect(collect(decodeNdjsonValues(trackedBody([bytesOf('{"a":1}\n{"__proto__":1}\n')])))).rejects.toMatchObject({
      code: 'forbidden-key',
    });
    await expect(collect(decodeNdjsonValues(trackedBody([bytesOf('[[[1]]]\n')]), { maxDepth: 2 }))).rejects.toMatchObject({
      code: 'nesting-too-deep',
    });
    await expect(collect(decodeNdjsonValues(trackedBody([bytesOf('{"a":\n')])))).rejects.toMatchObject({ code: 'malformed-json' });
  });
});
