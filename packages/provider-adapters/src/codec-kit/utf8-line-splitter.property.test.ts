import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesOf, splitAt } from './test-support/byte-streams.js';
import { Utf8LineSplitter, type LineSink } from './utf8-line-splitter.js';

const LF = 0x0a;
const CR = 0x0d;

interface Mode {
  readonly carriageReturnEndsLine: boolean;
  readonly invalidText: 'fail' | 'replace';
  readonly lineByteLimit: number;
}

type Outcome = { readonly lines: [string, number][] } | { readonly codes: string[] };

/** What the splitter produced: every line with its byte count, or the error code. */
function split(pieces: readonly Uint8Array[], mode: Mode): Outcome {
  const splitter = new Utf8LineSplitter({ ...mode, frameName: 'line' });
  const lines: [string, number][] = [];
  const sink: LineSink = { onLine: (line, byteLength) => lines.push([line, byteLength]) };
  try {
    for (const piece of pieces) splitter.push(piece, sink);
    splitter.finish(sink);
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    return { codes: [error.code] };
  }
  return { lines };
}

/**
 * The reference: the whole input at once, each line's bytes decoded on their own. A `\r\n` cut between two
 * reads counts one break byte (the `\n` is consumed as the rest of the break). Failing inputs list every code
 * that could come first.
 */
function reference(pieces: readonly Uint8Array[], mode: Mode): Outcome {
  const bytes = new Uint8Array(pieces.reduce((total, piece) => total + piece.length, 0));
  const pieceEnds = new Set<number>();
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.length;
    pieceEnds.add(offset);
  }
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  const codes = new Set<string>();
  const lines: [string, number][] = [];
  const emit = (start: number, end: number, breakBytes: number): void => {
    const lineBytes = bytes.subarray(start, end);
    if (lineBytes.length > mode.lineByteLimit) codes.add('frame-too-large');
    let text: string;
    if (mode.invalidText === 'fail') {
      if (lineBytes.includes(0)) codes.add('invalid-encoding');
      try {
        text = strict.decode(lineBytes);
      } catch {
        codes.add('invalid-encoding');
        text = '';
      }
    } else text = lenient.decode(lineBytes).replaceAll('\u0000', '\ufffd');
    if (start === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (!mode.carriageReturnEndsLine && text.endsWith('\r')) text = text.slice(0, -1);
    lines.push([text, end - start + breakBytes]);
  };
  let start = 0;
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index];
    if (byte === LF) {
      emit(start, index, 1);
      start = index + 1;
    } else if (byte === CR && mode.carriageReturnEndsLine) {
      const pairedInRead = bytes[index + 1] === LF && !pieceEnds.has(index + 1);
      const pairedAcrossReads = bytes[index + 1] === LF && pieceEnds.has(index + 1);
      emit(start, index, pairedInRead ? 2 : 1);
      start = index + (pairedInRead || pairedAcrossReads ? 2 : 1);
      index = start;
      continue;
    }
    index += 1;
  }
  if (start < bytes.length) emit(start, bytes.length, 0);
  return codes.size > 0 ? { codes: [...codes] } : { lines };
}

function expectSame(pieces: readonly Uint8Array[], mode: Mode): void {
  const actual = split(pieces, mode);
  const expected = reference(pieces, mode);
  if ('codes' in expected) {
    expect('codes' in actual ? actual.codes[0] : 'no error').toBeOneOf(expected.codes);
  } else expect(actual).toEqual(expected);
}

const hostileByte = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0x61, 0x3a, 0x20, LF, CR, 0x7b) },
  { weight: 2, arbitrary: fc.constantFrom(0xc3, 0xa9, 0xe4, 0xbd, 0xa0, 0xf0, 0x9f, 0x98, 0x80, 0xef, 0xbb, 0xbf) },
  { weight: 1, arbitrary: fc.constantFrom(0x00, 0xff, 0xc0, 0xed) },
);
const text = fc.string({ unit: fc.constantFrom('a', 'é', '你', '😀', '\ufffd', '\ufeff', '\n', '\r', '\r\n', ':', ' '), maxLength: 60 });
const input = fc.oneof(
  text.map((value) => bytesOf(value)),
  fc.array(hostileByte, { maxLength: 80 }).map((values) => new Uint8Array(values)),
  // Long ASCII-only and mixed reads, past the length where the zero-byte search switches to words.
  fc.tuple(text, fc.nat({ max: 300 }), fc.boolean()).map(([value, repeat, zero]) => bytesOf(`${'x'.repeat(repeat)}${value}${zero ? '\u0000' : ''}${'y'.repeat(repeat)}\n`)),
);
const mode = fc.record({
  carriageReturnEndsLine: fc.boolean(),
  invalidText: fc.constantFrom<'fail' | 'replace'>('fail', 'replace'),
  lineByteLimit: fc.oneof(fc.constant(1_000_000), fc.integer({ min: 0, max: 40 })),
});

describe('Utf8LineSplitter against a whole-input reference', () => {
  it('gives the same lines, byte counts and failures for any input, read split and mode', () => {
    fc.assert(
      fc.property(input, fc.array(fc.nat({ max: 700 }), { maxLength: 12 }), mode, (bytes, cuts, options) => {
        expectSame(splitAt(bytes, cuts), options);
      }),
      { numRuns: 3000 },
    );
  });

  it('handles characters cut by reads, a leading byte-order mark and a CRLF cut between reads', () => {
    const bytes = bytesOf('\ufeffhé你😀\r\nnext\r\rlast 你好');
    const options: Mode = { carriageReturnEndsLine: true, invalidText: 'fail', lineByteLimit: 100 };
    for (let first = 1; first < bytes.length; first += 1) {
      for (let second = first + 1; second < bytes.length; second += 1) expectSame(splitAt(bytes, [first, second]), options);
    }
    expect(split([bytes], options)).toEqual({ lines: [['hé你😀', 13 + 2], ['next', 5], ['', 1], ['last 你好', 11]] });
  });

  it('keeps a genuine U+FFFD and refuses the bytes of an invalid sequence, in one read or cut', () => {
    const genuine = bytesOf('a\ufffdb\n');
    const invalid = new Uint8Array([0x61, 0xe4, 0xbd, 0x0a]);
    const options: Mode = { carriageReturnEndsLine: false, invalidText: 'fail', lineByteLimit: 100 };
    for (let cut = 0; cut < genuine.length; cut += 1) expect(split(splitAt(genuine, [cut]), options)).toEqual({ lines: [['a\ufffdb', 6]] });
    for (let cut = 0; cut < invalid.length; cut += 1) expect(split(splitAt(invalid, [cut]), options)).toEqual({ codes: ['invalid-encoding'] });
  });

  it('finds a NUL byte at any position of a long read, aligned or not', () => {
    const options: Mode = { carriageReturnEndsLine: true, invalidText: 'fail', lineByteLimit: 10_000 };
    const buffer = new Uint8Array(600).fill(0x61);
    for (let offset = 0; offset < 4; offset += 1) {
      for (const position of [0, 1, 2, 3, 4, 5, 250, 251, 252, 253, 590, 591, 592, 593]) {
        const view = buffer.subarray(offset, offset + 594);
        view[position] = 0;
        expect(split([view], options)).toEqual({ codes: ['invalid-encoding'] });
        view[position] = 0x61;
      }
      expect(split([buffer.subarray(offset, offset + 594)], options)).toEqual({ lines: [['a'.repeat(594), 594]] });
    }
  });
});
