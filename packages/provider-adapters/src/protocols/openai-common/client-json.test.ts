import { CodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import {
  invalidClientField,
  isClientObject,
  isUnset,
  optionalClientArray,
  optionalClientBoolean,
  optionalClientNumber,
  optionalClientObject,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
} from './client-json.js';

function codecErrorOf(run: () => unknown): CodecErrorV1 {
  try {
    run();
  } catch (error) {
    if (error instanceof CodecErrorV1) return error;
    throw error;
  }
  throw new Error('expected a CodecErrorV1');
}

describe('client JSON readers', () => {
  it('builds typed errors that name the path and the rule, never the value', () => {
    const invalid = invalidClientField('messages[0].role', 'must be a string');
    expect(invalid.code).toBe('invalid-request');
    expect(invalid.message).toBe('messages[0].role must be a string');
    expect(unsupportedClientField('n', 'must be 1').code).toBe('unsupported-feature');
  });

  it('tells JSON objects from arrays and null, and null from a value', () => {
    expect(isClientObject({})).toBe(true);
    expect(isClientObject([])).toBe(false);
    expect(isClientObject(null)).toBe(false);
    expect(isUnset(null)).toBe(true);
    expect(isUnset(undefined)).toBe(true);
    expect(isUnset(0)).toBe(false);
  });

  it('reads each optional kind, treating null and absence as unset', () => {
    const body = { s: 'x', n: 2, b: false, o: { a: 1 }, a: [1], nothing: null };
    expect(optionalClientString(body, 's', '')).toBe('x');
    expect(optionalClientNumber(body, 'n', '')).toBe(2);
    expect(optionalClientBoolean(body, 'b', '')).toBe(false);
    expect(optionalClientObject(body, 'o', '')).toEqual({ a: 1 });
    expect(optionalClientArray(body, 'a', '')).toEqual([1]);
    for (const read of [optionalClientString, optionalClientNumber, optionalClientBoolean, optionalClientObject, optionalClientArray]) {
      expect(read(body, 'nothing', '')).toBeUndefined();
      expect(read(body, 'absent', '')).toBeUndefined();
    }
  });

  it('refuses a value of the wrong kind with the full path', () => {
    const body = { s: 1, n: Number.NaN, b: 'yes', o: [], a: {} };
    expect(codecErrorOf(() => optionalClientString(body, 's', 'tools[0].')).message).toBe('tools[0].s must be a string');
    expect(codecErrorOf(() => optionalClientNumber(body, 'n', '')).message).toBe('n must be a number');
    expect(codecErrorOf(() => optionalClientBoolean(body, 'b', '')).message).toBe('b must be a boolean');
    expect(codecErrorOf(() => optionalClientObject(body, 'o', '')).message).toBe('o must be an object');
    expect(codecErrorOf(() => optionalClientArray(body, 'a', '')).message).toBe('a must be an array');
  });

  it('requires a string when asked to', () => {
    expect(requiredClientString({ model: 'm' }, 'model', '')).toBe('m');
    const missing = codecErrorOf(() => requiredClientString({ model: null }, 'model', ''));
    expect(missing.code).toBe('invalid-request');
    expect(missing.message).toBe('model is required');
  });
});
