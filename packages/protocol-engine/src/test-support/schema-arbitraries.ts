import fc from 'fast-check';
import { expect } from 'vitest';

/*
 * Arbitraries for proving a hand-written check agrees with a zod schema: strict objects whose fields are valid
 * except with odds `1 / noise`, so a low noise builds mostly invalid input and a high noise mostly valid input.
 */

export type Loose = Record<string, unknown>;

/** Any value a wrong field could hold, including the numbers zod refuses. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 53, 1e300),
  fc.string({ maxLength: 8 }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

const ABSENT = Symbol('absent');

/** Builders of schema-shaped input at one noise level. */
export interface NoisyBuilders {
  /** The valid value, or rarely the invalid one. */
  rarely<T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>): fc.Arbitrary<T | U>;
  /** The valid value, or rarely {@link junk}. */
  mostly<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown>;
  /**
   * A strict object: required keys present (rarely absent), optional keys absent, present with `undefined` or
   * present with a value, each value mostly valid, and rarely an undeclared key (`extra`, an own `__proto__`, or
   * `toString`).
   */
  object(required: Record<string, fc.Arbitrary<unknown>>, optional?: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Loose>;
  /**
   * Strings within the bounds (often exactly at one), rarely one just outside (only bounds below 100,000
   * characters are tried at the top).
   */
  bounded(min: number, max: number): fc.Arbitrary<string>;
}

export function noisyBuilders(noise: number): NoisyBuilders {
  const rarely = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>): fc.Arbitrary<T | U> =>
    fc.oneof({ arbitrary: valid, weight: noise }, { arbitrary: invalid, weight: 1 });
  const mostly = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> => rarely(valid, junk);
  const object = (required: Record<string, fc.Arbitrary<unknown>>, optional: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<Loose> => {
    const optionalValue = (arbitrary: fc.Arbitrary<unknown>) =>
      fc.oneof({ arbitrary: fc.constant(ABSENT), weight: 4 }, { arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: mostly(arbitrary), weight: 4 });
    const fields = {
      ...Object.fromEntries(Object.entries(required).map(([key, arbitrary]) => [key, rarely(mostly(arbitrary), fc.constant(ABSENT))])),
      ...Object.fromEntries(Object.entries(optional).map(([key, arbitrary]) => [key, optionalValue(arbitrary)])),
    };
    return fc.tuple(fc.record(fields), rarely(fc.constant(undefined), fc.constantFrom('extra', '__proto__', 'toString'))).map(([record, extra]) => {
      const out: Loose = {};
      for (const [key, value] of Object.entries(record)) if (value !== ABSENT) out[key] = value;
      if (extra !== undefined) Object.defineProperty(out, extra, { value: 1, enumerable: true, configurable: true, writable: true });
      return out;
    });
  };
  const bounded = (min: number, max: number): fc.Arbitrary<string> => {
    // Both sides of each bound: exactly `min` and `max` characters are valid, one fewer and one more are not, so
    // a check or schema that tightens a bound fails as surely as one that loosens it.
    const edges = ['x'.repeat(min), ...(max < 100_000 ? ['x'.repeat(max)] : [])];
    const outside = [...(min > 0 ? ['x'.repeat(min - 1)] : []), ...(max < 100_000 ? ['x'.repeat(max + 1)] : [])];
    const valid = fc.oneof({ arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 24) }), weight: 3 }, { arbitrary: fc.constantFrom(...edges), weight: 1 });
    return outside.length === 0 ? valid : rarely(valid, fc.constantFrom(...outside));
  };
  return { rarely, mostly, object, bounded };
}

/** Keys in the same order at every level (toStrictEqual does not look at order). */
export function keyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keyOrder);
  if (typeof value !== 'object' || value === null) return null;
  return Object.entries(value).map(([key, inner]) => [key, keyOrder(inner)]);
}

/** Sets `key` at `path` of a fresh copy's node (or deletes it for `undefined`): one edit of a valid baseline. */
export function editAt(root: Loose, path: readonly (string | number)[], key: string, value: unknown): void {
  const node = path.reduce<Loose>((at, step) => at[step] as Loose, root);
  if (value === undefined) delete node[key];
  else node[key] = value;
}

/** What {@link assertAgreesWithSchema} checks. */
export interface AgreementCheck<T> {
  readonly inputs: fc.Arbitrary<T>;
  /** The hand-written check: the schema's output, or `undefined` to leave the input to the schema. */
  readonly fast: (input: T) => unknown;
  readonly schema: { safeParse(input: unknown): { readonly success: boolean; readonly data?: unknown } };
  /** Whether the check must decide an input the schema accepts (default: always). */
  readonly covers?: (input: T) => boolean;
  readonly numRuns: number;
  /** The least number of inputs each answer (decided, left to the schema) must get, so both sides ran. */
  readonly leastEach: number;
}

/**
 * The property every fast check must have: it decides exactly the inputs the schema accepts (and covers), with
 * the schema's output, keys in the schema's order.
 */
export function assertAgreesWithSchema<T>(check: AgreementCheck<T>): void {
  let decided = 0;
  let refused = 0;
  fc.assert(
    fc.property(check.inputs, (input) => {
      const fast = check.fast(input);
      const schema = check.schema.safeParse(input);
      expect(fast !== undefined).toBe(schema.success && (check.covers?.(input) ?? true));
      if (fast === undefined) {
        refused += 1;
        return;
      }
      decided += 1;
      expect(fast).toStrictEqual(schema.data);
      expect(keyOrder(fast)).toStrictEqual(keyOrder(schema.data));
    }),
    { numRuns: check.numRuns },
  );
  expect(decided).toBeGreaterThan(check.leastEach);
  expect(refused).toBeGreaterThan(check.leastEach);
}
