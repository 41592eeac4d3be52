import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64Float32, type DecodeBase64Float32Options } from './base64-float32.js';

const toBase64 = (values: Float32Array): string => Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');
const bytesToBase64 = (bytes: number[]): string => Buffer.from(bytes).toString('base64');

function codeOf(base64: string, options?: DecodeBase64Float32Options): string {
  try {
    decodeBase64Float32(base64, options);
  } catch (error) {
    if (isCodecErrorV1(error)) return error.code;
    throw error;
  }
  throw new Error('expected a codec error');
}

describe('decodeBase64Float32', () => {
  it('decodes little-endian float32 values into a Float32Array', () => {
    // 1.0f is 00 00 80 3f little-endian; -2.5f is 00 00 20 c0.
    const vector = decodeBase64Float32(bytesToBase64([0, 0, 0x80, 0x3f, 0, 0, 0x20, 0xc0]));
    expect(vector).toBeInstanceOf(Float32Array);
    expect([...vector]).toEqual([1, -2.5]);
  });

  it('round-trips every finite vector, for every padding length', () => {
    fc.assert(
      fc.property(fc.float32Array({ minLength: 1, maxLength: 64, noDefaultInfinity: true, noNaN: true }), (values) => {
        const decoded = decodeBase64Float32(toBase64(values), { expectedDimension: values.length });
        expect(decoded.length).toBe(values.length);
        for (let index = 0; index < values.length; index += 1) expect(Object.is(decoded[index], values[index])).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['empty text', ''],
    ['length not a multiple of 4', 'AAAAA'],
    ['URL-safe alphabet', 'AA-_AAAA'],
    ['whitespace', 'AAAA AAA'],
    ['padding in the middle', 'AA==AAAA'],
    ['three padding characters', 'AAAAA==='],
    ['non-zero bits under two padding characters', 'AAAAAB=='],
    ['non-zero bits under one padding character', 'AAAAAAB='],
    ['a byte length that is not whole floats', 'AAAAAA=='.slice(0, 4)],
    ['six bytes', bytesToBase64([0, 0, 0, 0, 0, 0])],
  ])('refuses %s with invalid-encoding', (_name, base64) => {
    expect(codeOf(base64)).toBe('invalid-encoding');
  });

  it('checks the expected dimension', () => {
    const base64 = toBase64(new Float32Array([1, 2, 3]));
    expect(decodeBase64Float32(base64, { expectedDimension: 3 })).toHaveLength(3);
    expect(codeOf(base64, { expectedDimension: 4 })).toBe('invalid-encoding');
  });

  it('refuses NaN and infinities unless asked not to', () => {
    const base64 = toBase64(new Float32Array([1, Number.NaN]));
    expect(codeOf(base64)).toBe('invalid-encoding');
    expect(codeOf(toBase64(new Float32Array([Number.POSITIVE_INFINITY])))).toBe('invalid-encoding');
    expect(Number.isNaN(decodeBase64Float32(base64, { rejectNonFinite: false })[1])).toBe(true);
  });

  it('refuses a vector past the byte cap before decoding it', () => {
    expect(codeOf(toBase64(new Float32Array(5)), { maxBytes: 16 })).toBe('body-too-large');
    expect(decodeBase64Float32(toBase64(new Float32Array(4)), { maxBytes: 16 })).toHaveLength(4);
  });
});

describe('decodeBase64Float32 validation without a regex pass', () => {
  // The previous implementation validated with this pattern; atob plus the exact length must accept exactly the same texts.
  const CANONICAL = /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
  const characters = 'AQgw+/=-_ \n\t.é'.split('');

  it('accepts exactly the texts the canonical pattern accepts (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...characters), { minLength: 8, maxLength: 24 }), (chars) => {
        const text = chars.slice(0, chars.length - (chars.length % 8)).join('');
        let accepted: boolean;
        try {
          decodeBase64Float32(text, { rejectNonFinite: false });
          accepted = true;
        } catch (error) {
          expect(isCodecErrorV1(error)).toBe(true);
          accepted = false;
        }
        if (accepted) expect(CANONICAL.test(text)).toBe(true);
        if (!CANONICAL.test(text)) expect(accepted).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
