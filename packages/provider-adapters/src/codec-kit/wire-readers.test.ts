import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from './protocol-violation-error.js';
import { createWireReaders, isWireCount, isWireRecord } from './wire-readers.js';

const wire = createWireReaders({ family: 'test-family', maxCount: 100 });

function failureOf(run: () => unknown): { reason: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!isProtocolViolationError(error)) throw error;
    return { reason: error.reason, message: error.message };
  }
  throw new Error('expected a protocol violation');
}

describe('createWireReaders', () => {
  it('records: objects only, arrays and null refused', () => {
    expect(isWireRecord({})).toBe(true);
    expect(isWireRecord([])).toBe(false);
    expect(isWireRecord(null)).toBe(false);
    expect(wire.optionalRecord(null, 'body', 'usage')).toBeUndefined();
    expect(failureOf(() => wire.requiredRecord([], 'body', 'usage'))).toEqual({
      reason: 'invalid-event',
      message: 'test-family body.usage must be an object',
    });
  });

  it('strings: null is absent for the optional reader, required names the missing field', () => {
    expect(wire.optionalString(null, 'a', 'b')).toBeUndefined();
    expect(wire.optionalString('x', 'a', 'b')).toBe('x');
    expect(failureOf(() => wire.requiredString(undefined, 'a', 'b')).message).toBe('test-family a.b is required');
    expect(failureOf(() => wire.requiredString(1, 'a', 'b')).message).toBe('test-family a.b must be a string');
    expect(failureOf(() => wire.stringValue(undefined, 'a', 'b')).message).toBe('test-family a.b must be a string');
    expect(failureOf(() => wire.boundedString('', 'a', 'id', 3)).message).toBe('test-family a.id must be a string of 1 to 3 characters');
    expect(wire.boundedString('abc', 'a', 'id', 3)).toBe('abc');
    expect(() => wire.boundedString('abcd', 'a', 'id', 3)).toThrow();
  });

  it('counts: integers from 0 to the family maximum (or the one given), on both sides of the bound', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -5, max: 205 }), fc.double(), fc.constant(null), fc.string()), (value) => {
        const inRange = typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100;
        if (value === null) expect(wire.optionalCount(value, 'u', 'k')).toBeUndefined();
        else if (inRange) expect(wire.optionalCount(value, 'u', 'k')).toBe(value);
        else expect(failureOf(() => wire.optionalCount(value, 'u', 'k')).message).toBe('test-family u.k must be a non-negative integer in range');
        expect(isWireCount(value, 100)).toBe(inRange);
      }),
    );
    expect(wire.requiredCount(200, 'u', 'k', 200)).toBe(200);
    expect(() => wire.requiredCount(201, 'u', 'k', 200)).toThrow();
    expect(createWireReaders({ family: 'f' }).optionalCount(Number.MAX_SAFE_INTEGER, 'u', 'k')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('arrays, enums and one-piece violations', () => {
    expect(wire.optionalArray(undefined, 'body', 'data')).toBeUndefined();
    expect(failureOf(() => wire.optionalArray({}, 'body', 'data')).message).toBe('test-family body.data must be an array');
    const kinds: ReadonlySet<'a' | 'b'> = new Set(['a', 'b']);
    expect(wire.requiredEnum('a', 'e', 'kind', kinds)).toBe('a');
    expect(failureOf(() => wire.requiredEnum('c', 'e', 'kind', kinds)).message).toBe('test-family e.kind must be one of the known values');
    expect(wire.violation('body has no choice').message).toBe('test-family body has no choice');
  });
});
