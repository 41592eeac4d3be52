import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, decodeSseStream, type SseDecoderOptions, type SseItem } from './sse-decoder.js';
import { formatSseEvent } from './sse-encoder.js';
import { bytesOf, collect, readFixture, recordedStreams, splitAt, trackedBody } from './test-support/byte-streams.js';

/** Decodes with the push parser directly (no async overhead), so exhaustive splits stay fast. */
function decodeSync(pieces: readonly Uint8Array[], options?: SseDecoderOptions): SseItem[] {
  const parser = createSseParser(options);
  const items: SseItem[] = [];
  for (const piece of pieces) items.push(...parser.push(piece));
  items.push(...parser.finish());
  return items;
}

function multiWaySplits(length: number): fc.Arbitrary<number[]> {
  return fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { minLength: 1, maxLength: 64 });
}

const SMALL = 4096;

describe('SSE decoding of recorded streams', () => {
  const streams = recordedStreams();

  it.each(streams.map((stream) => [stream.name, stream] as const))('decodes %s whole into its recorded events', async (_name, stream) => {
    expect(await collect(decodeSseStream(trackedBody([stream.bytes])))).toEqual(stream.expected);
  });

  const small = streams.filter((stream) => stream.bytes.length < SMALL);
  const large = streams.filter((stream) => stream.bytes.length >= SMALL);

  it('covers recorded streams on both sides of the exhaustive-split size', () => {
    expect(small.length).toBeGreaterThanOrEqual(3);
    expect(large.length).toBeGreaterThanOrEqual(3);
  });

  it.each(small.map((stream) => [stream.name, stream] as const))('yields the same events for every two-way split of %s', (_name, stream) => {
    for (let cut = 1; cut < stream.bytes.length; cut += 1) {
      expect(decodeSync(splitAt(stream.bytes, [cut]))).toEqual(stream.expected);
    }
  });

  it.each(large.map((stream) => [stream.name, stream] as const))('yields the same events for 200 random multi-way splits of %s', (_name, stream) => {
    fc.assert(
      fc.property(multiWaySplits(stream.bytes.length), (cuts) => {
        expect(decodeSync(splitAt(stream.bytes, cuts))).toEqual(stream.expected);
      }),
      { numRuns: 200 },
    );
  });

  it('yields the same items for every two-way split of the recorded DashScope body', () => {
    const bytes = readFixture('cnblogs-dashscope-sdk__parameter-error-sse.response.body.txt');
    const whole = decodeSync([bytes], { comments: 'report' });
    expect(whole).toHaveLength(2);
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(decodeSync(splitAt(bytes, [cut]), { comments: 'report' })).toEqual(whole);
    }
  });
});

describe('SSE decoding of constructed streams with multi-byte text', () => {
  // BOM, CRLF, lone CR, multi-line data, comments, an id, and 2-, 3- and 4-byte characters.
  const constructed =
    '\ufeff: hello 注释\r\n' +
    'event: message_delta\r\nid: ü-1\r\ndata: {"text":"héllo 你好"}\r\n\r\n' +
    'data: 😀 first\rdata: ∑ second\r\r' +
    ': keep-alive\n\n' +
    'data:{"emoji":"👩‍💻","cjk":"漢字かな"}\n\n' +
    'event: end\ndata: Ω';
  const bytes = bytesOf(constructed);
  const expected: SseItem[] = [
    { kind: 'comment', text: 'hello 注释' },
    { kind: 'event', event: 'message_delta', id: 'ü-1', data: '{"text":"héllo 你好"}' },
    { kind: 'event', event: undefined, id: undefined, data: '😀 first\n∑ second' },
    { kind: 'comment', text: 'keep-alive' },
    { kind: 'event', event: undefined, id: undefined, data: '{"emoji":"👩‍💻","cjk":"漢字かな"}' },
    { kind: 'event', event: 'end', id: undefined, data: 'Ω' },
  ];

  it('decodes the whole stream', () => {
    expect(decodeSync([bytes], { comments: 'report' })).toEqual(expected);
  });

  it('yields the same items for every two-way split, including splits inside characters', () => {
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(decodeSync(splitAt(bytes, [cut]), { comments: 'report' })).toEqual(expected);
    }
  });

  it('yields the same items for 200 random multi-way splits and for one byte per read', () => {
    fc.assert(
      fc.property(multiWaySplits(bytes.length), (cuts) => {
        expect(decodeSync(splitAt(bytes, cuts), { comments: 'report' })).toEqual(expected);
      }),
      { numRuns: 200 },
    );
    const everyByte = Array.from({ length: bytes.length }, (_, index) => index);
    expect(decodeSync(splitAt(bytes, everyByte), { comments: 'report' })).toEqual(expected);
  });

  it('round-trips random events written by the encoder, under random line endings and splits', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((value) => !value.includes('\u0000'));
    const name = fc.stringMatching(/^[a-z_.]{1,20}$/);
    const events = fc.array(fc.record({ event: fc.option(name, { nil: undefined }), data: text }), { minLength: 1, maxLength: 8 });
    const lineEnding = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(events, lineEnding, fc.array(fc.nat(), { maxLength: 20 }), (list, ending, cuts) => {
        const wire = list.map((item) => formatSseEvent(item)).join('').replace(/\n/g, ending);
        const wireBytes = bytesOf(wire);
        const items = decodeSync(splitAt(wireBytes, cuts.map((cut) => cut % (wireBytes.length + 1))));
        const normalized = (value: string): string => value.replace(/\r\n|\r/g, '\n');
        expect(items).toEqual(
          list.map((item) => ({ kind: 'event', event: item.event, id: undefined, data: normalized(item.data) })),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('SSE decoding of hostile input', () => {
  it('ends megabytes without a blank line in frame-too-large after reading at most the cap', async () => {
    for (const filler of ['a', 'data: x\n']) {
      const chunk = bytesOf(filler.repeat(Math.ceil(65536 / filler.length)));
      const body = trackedBody([bytesOf('data: ')], { repeatForever: chunk });
      await expect(collect(decodeSseStream(body, { maxEventBytes: 1024 * 1024 }))).rejects.toMatchObject({ code: 'frame-too-large' });
      expect(body.bytesServed).toBeLessThanOrEqual(1024 * 1024 + 2 * chunk.length);
      expect(body.released).toBe(true);
    }
  });

  it('ends 9 MiB in one read without a line break in frame-too-large under the default 8 MiB cap', () => {
    const parser = createSseParser();
    const huge = new Uint8Array(9 * 1024 * 1024).fill(0x61);
    expect(() => parser.push(huge)).toThrowError(expect.objectContaining({ code: 'frame-too-large' }) as Error);
  });

  it('never throws anything but a codec error, and never hangs, on arbitrary bytes', () => {
    const hostileByte = fc.oneof(
      fc.constantFrom(0x00, 0x0a, 0x0d, 0x3a, 0x7b, 0x7d, 0x22, 0x5c, 0x80, 0xbf, 0xc3, 0xe4, 0xf0, 0xff),
      fc.integer({ min: 0, max: 255 }),
    );
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 512 }).chain((base) =>
          fc.array(hostileByte, { maxLength: 64 }).map((extra) => new Uint8Array([...base, ...extra])),
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        (bytes, cuts, bareJson) => {
          try {
            decodeSync(splitAt(bytes, cuts), { bareJson, comments: 'report', maxEventBytes: 256 });
          } catch (error) {
            expect(isCodecErrorV1(error)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('decodes arbitrary bytes in replace mode without failing on encoding', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        const items = decodeSync([bytes], { invalidText: 'replace' });
        for (const item of items) expect(item.kind === 'event' && item.data.includes('\u0000')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
