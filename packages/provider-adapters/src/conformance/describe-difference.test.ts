import { describe, expect, it } from 'vitest';
import { describeDifference } from './describe-difference.js';

describe('describeDifference', () => {
  it('returns undefined for structurally equal facts, treating undefined-valued keys as absent', () => {
    expect(describeDifference({ a: [1, { b: 'x' }], c: undefined }, { a: [1, { b: 'x' }] })).toBeUndefined();
    expect(describeDifference(new Float32Array([0.5, 1]), new Float32Array([0.5, 1]))).toBeUndefined();
    expect(describeDifference(Number.NaN, Number.NaN)).toBeUndefined();
  });

  it('names the path of the first difference', () => {
    expect(describeDifference({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe('$.a[1].b: expected "x", got "y"');
    expect(describeDifference([1, 2], [1])).toBe('$: expected length 2, got 1');
    expect(describeDifference({ a: 1 }, { a: 1, extra: true })).toBe('$.extra: unexpected field true');
    expect(describeDifference({ a: 1, b: 2 }, { a: 1 })).toBe('$.b: missing, expected 2');
    expect(describeDifference(new Float32Array([1]), [1])).toBe('$: expected Float32Array Float32Array(1), got array [1]');
    expect(describeDifference(new Float32Array([1, 2]), new Float32Array([1, 3]))).toBe('$[1]: expected 2, got 3');
    expect(describeDifference(0, -0)).toBe('$: expected 0, got -0');
  });

  it('reports a differing discriminant before the fields that depend on it', () => {
    expect(describeDifference({ status: 'cancelled' }, { status: 'completed', result: {}, finishReason: {} })).toBe(
      '$.status: expected "cancelled", got "completed"',
    );
  });
});
