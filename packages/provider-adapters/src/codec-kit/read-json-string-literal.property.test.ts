import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonStringLiteral } from './read-json-string-literal.js';

/** Valid literals of every kind (short and long, escaped or not), and text that is not exactly one literal. */
const rawLiteral = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }).map((text) => JSON.stringify(text)), weight: 12 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 10, maxLength: 30 }).map((text) => JSON.stringify(text)), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 6 }).map((text) => JSON.stringify(text)), weight: 3 },
  { arbitrary: fc.string({ unit: fc.constantFrom('a', '"', '\\', 'u', '0', '4', '1', '\n', '\u0001', ' ', ',', ':', '}', 'é', '\ud800'), maxLength: 20 }).map((text) => `"${text}"`), weight: 3 },
  { arbitrary: fc.constantFrom('""', '"a"b"', '"a","role":"user"', '"a"}', '1', 'null', ' "a"', '"a" ', '"\\u00e9\\/"', '"\\x"', '"a', 'a"', '"\\"', '"\\\\"', '"\\ud800"', '"a","text":"b"'), weight: 2 },
);

describe('readJsonStringLiteral', () => {
  it('reads a string literal exactly as JSON.parse does, or declines (property)', () => {
    let read = 0;
    fc.assert(
      fc.property(rawLiteral, (literal) => {
        let expected: unknown;
        try {
          const value: unknown = JSON.parse(literal);
          expected = typeof value === 'string' && literal.startsWith('"') && literal.endsWith('"') ? value : undefined;
        } catch {
          expected = undefined;
        }
        const got = readJsonStringLiteral(`x${literal}y`, 1, literal.length + 1);
        if (got !== undefined) read += 1;
        expect(got).toBe(expected);
      }),
      { numRuns: 5000 },
    );
    expect(read).toBeGreaterThan(2500);
  });
});
