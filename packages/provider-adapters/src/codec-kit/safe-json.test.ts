import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SAFE_JSON_MAX_DEPTH, parseSafeJson, parseSafeJsonBytes } from './safe-json.js';
import { bytesOf } from './test-support/byte-streams.js';

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isCodecErrorV1(error)) return error.code;
    throw error;
  }
  throw new Error('expected a codec error');
}

const nested = (depth: number, open: string, close: string, inner = '1'): string => open.repeat(depth) + inner + close.repeat(depth);

describe('parseSafeJson', () => {
  it('parses JSON and ignores a leading byte-order mark', () => {
    expect(parseSafeJson('{"a":[1,"x",null,true,{"b":2.5}]}')).toEqual({ a: [1, 'x', null, true, { b: 2.5 }] });
    expect(parseSafeJson('\ufeff {"a":1} ')).toEqual({ a: 1 });
  });

  it('refuses input past the byte limit, counting UTF-8 bytes rather than characters', () => {
    expect(codeOf(() => parseSafeJson('"abcdefgh"', { maxBytes: 9 }))).toBe('body-too-large');
    expect(parseSafeJson('"abcdefg"', { maxBytes: 9 })).toBe('abcdefg');
    // 5 characters, 11 bytes.
    expect(codeOf(() => parseSafeJson('"你好你"', { maxBytes: 10 }))).toBe('body-too-large');
    expect(parseSafeJson('"你好你"', { maxBytes: 11 })).toBe('你好你');
    expect(parseSafeJson('"😀"', { maxBytes: 6 })).toBe('😀');
    expect(codeOf(() => parseSafeJson('"😀"', { maxBytes: 5 }))).toBe('body-too-large');
  });

  it(`accepts nesting up to the limit (${DEFAULT_SAFE_JSON_MAX_DEPTH} by default) and refuses one level more`, () => {
    expect(() => parseSafeJson(nested(64, '[', ']'))).not.toThrow();
    expect(codeOf(() => parseSafeJson(nested(65, '[', ']')))).toBe('nesting-too-deep');
    expect(codeOf(() => parseSafeJson(nested(4, '{"a":', '}'), { maxDepth: 3 }))).toBe('nesting-too-deep');
    expect(parseSafeJson(nested(3, '{"a":', '}'), { maxDepth: 3 })).toEqual({ a: { a: { a: 1 } } });
  });

  it('ends input nested 10,000 deep in nesting-too-deep, never a RangeError', () => {
    expect(codeOf(() => parseSafeJson(nested(10_000, '[', ']')))).toBe('nesting-too-deep');
    expect(codeOf(() => parseSafeJson(nested(10_000, '{"a":', '}')))).toBe('nesting-too-deep');
    expect(codeOf(() => parseSafeJson('['.repeat(1_000_000)))).toBe('nesting-too-deep');
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(parseSafeJson('["[[[[", "\\"[[[[", "\\\\", "{{{{"]', { maxDepth: 1 })).toEqual(['[[[[', '"[[[[', '\\', '{{{{']);
  });

  it('refuses the key __proto__ at any depth, escaped or not', () => {
    expect(codeOf(() => parseSafeJson('{"__proto__":1}'))).toBe('forbidden-key');
    expect(codeOf(() => parseSafeJson('{"a":[{"b":{"__proto__" : {}}}]}'))).toBe('forbidden-key');
    expect(codeOf(() => parseSafeJson('{"\\u005f_proto__":1}'))).toBe('forbidden-key');
    expect(codeOf(() => parseSafeJson('{"__pr\\u006fto__":{"polluted":true}}'))).toBe('forbidden-key');
  });

  it('refuses a prototype key directly inside the object that is the value of a constructor key', () => {
    expect(codeOf(() => parseSafeJson('{"constructor":{"prototype":{"polluted":true}}}'))).toBe('forbidden-key');
    expect(codeOf(() => parseSafeJson('[{"a":{"constructor" : { "x":1, "prototype" :1}}}]'))).toBe('forbidden-key');
    expect(codeOf(() => parseSafeJson('{"\\u0063onstructor":{"prototyp\\u0065":1}}'))).toBe('forbidden-key');
    // A repeated key is refused even when a later duplicate would win in JSON.parse.
    expect(codeOf(() => parseSafeJson('{"constructor":{"prototype":1},"constructor":"x"}'))).toBe('forbidden-key');
  });

  it('accepts constructor and prototype keys everywhere else (the old rule refused them all)', () => {
    expect(parseSafeJson('{"constructor":"Ada"}')).toEqual({ constructor: 'Ada' });
    expect(parseSafeJson('{"prototype":1,"x":{"prototype":[]}}')).toEqual({ prototype: 1, x: { prototype: [] } });
    expect(parseSafeJson('{"constructor":{"name":"Ada","prototypes":2}}')).toEqual({ constructor: { name: 'Ada', prototypes: 2 } });
    expect(parseSafeJson('{"constructor":[{"prototype":1}]}')).toEqual({ constructor: [{ prototype: 1 }] });
    expect(parseSafeJson('{"constructor":{"a":{"prototype":1}}}')).toEqual({ constructor: { a: { prototype: 1 } } });
    expect(parseSafeJson('{"prototype":{},"constructor":{}}')).toEqual({ prototype: {}, constructor: {} });
    expect(parseSafeJson('{"\\u0063onstructor":"Ada"}')).toEqual({ constructor: 'Ada' });
  });

  it('allows forbidden names as values and as parts of longer keys', () => {
    expect(parseSafeJson('{"a":"__proto__","constructors":1,"x_prototype":2,"b":["constructor"]}')).toEqual({
      a: '__proto__',
      constructors: 1,
      x_prototype: 2,
      b: ['constructor'],
    });
    expect(parseSafeJson('{"\\u0061bcdefghijk":1}')).toEqual({ abcdefghijk: 1 });
  });

  it('refuses malformed JSON without quoting the input in the message', () => {
    for (const text of ['{"secret-token":', '"unterminated secret-token', '{"secret-token" 1}', '', 'secret-token', '{"a":1}x']) {
      try {
        parseSafeJson(text);
        throw new Error('expected a failure');
      } catch (error) {
        expect(isCodecErrorV1(error) && error.code).toBe('malformed-json');
        expect((error as Error).message).not.toContain('secret');
        expect((error as Error).cause).toBeUndefined();
      }
    }
  });

  it('agrees with JSON.parse on every JSON value within the limits', () => {
    const value = fc.jsonValue({ maxDepth: 8 });
    fc.assert(
      fc.property(value, (json) => {
        const text = JSON.stringify(json);
        if (text.includes('"__proto__":')) return;
        expect(parseSafeJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('either agrees with JSON.parse or throws a codec error, on arbitrary text', () => {
    const text = fc.oneof(
      fc.string(),
      fc.array(fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', '1', 'a', ' ', '"__proto__"'), { maxLength: 40 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (candidate) => {
        let expected: unknown;
        let valid = true;
        try {
          expected = JSON.parse(candidate.replace(/^\ufeff/, ''));
        } catch {
          valid = false;
        }
        try {
          const actual = parseSafeJson(candidate);
          expect(valid).toBe(true);
          expect(actual).toEqual(expected);
        } catch (error) {
          expect(isCodecErrorV1(error)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseSafeJsonBytes', () => {
  it('parses UTF-8 bytes and drops a byte-order mark', () => {
    expect(parseSafeJsonBytes(bytesOf('\ufeff{"text":"héllo 你好"}'))).toEqual({ text: 'héllo 你好' });
  });

  it('checks the byte limit before decoding', () => {
    expect(codeOf(() => parseSafeJsonBytes(new Uint8Array(11).fill(0xff), { maxBytes: 10 }))).toBe('body-too-large');
  });

  it('refuses invalid UTF-8 instead of replacing it', () => {
    expect(codeOf(() => parseSafeJsonBytes(new Uint8Array([0x22, 0xc3, 0x22])))).toBe('invalid-encoding');
    expect(codeOf(() => parseSafeJsonBytes(new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])))).toBe('invalid-encoding');
  });

  it('applies the depth and key rules to bytes too', () => {
    expect(codeOf(() => parseSafeJsonBytes(bytesOf(nested(10_000, '[', ']'))))).toBe('nesting-too-deep');
    expect(codeOf(() => parseSafeJsonBytes(bytesOf('{"__proto__":{"polluted":true}}')))).toBe('forbidden-key');
  });
});
