/*
 * Building blocks of the engine's hand-written checks: the fast parsers (fast-parse-*.ts) and, for its primitives,
 * check-stream-event.ts. They accept plain data only (objects whose prototype is Object.prototype or null, arrays,
 * primitives) and answer with the value a check produced, or `undefined` when they cannot decide; a fast parser's
 * caller then hands the whole input to the zod schema, which decides and words the error. So a fast parser never
 * rejects anything itself.
 */

/** A plain object, read by key. */
export type Loose = Record<string, unknown>;

const OBJECT_PROTOTYPE = Object.prototype;

/** The value as a plain object (prototype Object.prototype or null), else `undefined`. Symbol keys are not read (nor does zod read them for an object schema). */
export function plainObject(value: unknown): Loose | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== OBJECT_PROTOTYPE && prototype !== null) return undefined;
  return value as Loose;
}

/** Whether every key `for...in` yields (as a strict zod object checks) is one of `keys`. */
export function hasOnlyKeys(value: Loose, keys: ReadonlySet<string>): boolean {
  return countKnownKeys(value, keys) >= 0;
}

/**
 * How many keys `for...in` yields when each is one of `keys`, else -1. The fast parsers use the count to stop
 * looking for optional keys once every present key has been copied.
 */
export function countKnownKeys(value: Loose, keys: ReadonlySet<string>): number {
  let count = 0;
  for (const key in value) {
    if (!keys.has(key)) return -1;
    count += 1;
  }
  return count;
}

/** A string of `min` to `max` UTF-16 code units (zod's `.min()` / `.max()` on strings). */
export function isString(value: unknown, min: number, max: number): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

/** A finite number in `[min, max]` (zod 4's `z.number()` refuses NaN and infinities). */
export function isNumberIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

/** A safe integer in `[min, max]` (zod 4's `.int()`). */
export function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}

/**
 * Copies an optional key the way a zod object does: absent stays absent, present with `undefined` stays
 * present with `undefined`, anything else goes through `check`. False when `check` cannot decide.
 */
export function copyOptional(source: Loose, key: string, out: Loose, check: Check): boolean {
  if (!(key in source)) return true;
  const value = source[key];
  if (value === undefined) {
    out[key] = undefined;
    return true;
  }
  const checked = check(value);
  if (checked === undefined) return false;
  out[key] = checked;
  return true;
}

/** A check as `copyOptional` and the fast parsers take it: the checked value, or `undefined` when undecided. */
export type Check = (value: unknown) => unknown;

/**
 * A check of a strict object whose fields are all optional (`fields` in schema order): the output has the
 * fields present in the input, each checked.
 */
export function optionalFieldsCheck(fields: readonly (readonly [string, Check])[]): (value: unknown) => Loose | undefined {
  const keys = new Set(fields.map(([key]) => key));
  return (value) => {
    const source = plainObject(value);
    if (source === undefined) return undefined;
    let present = countKnownKeys(source, keys);
    if (present < 0) return undefined;
    const out: Loose = {};
    // Schema order, stopping once every present key is copied (a usage object has 3 of its 9 keys, say).
    for (let index = 0; present > 0 && index < fields.length; index += 1) {
      const [key, check] = fields[index] as readonly [string, Check];
      if (!(key in source)) continue;
      present -= 1;
      if (!copyOptional(source, key, out, check)) return undefined;
    }
    return out;
  };
}

/** A string check as a `copyOptional` callback. */
export function stringCheck(min: number, max: number, pattern?: RegExp): (value: unknown) => string | undefined {
  return (value) => (isString(value, min, max) && (pattern === undefined || pattern.test(value)) ? value : undefined);
}

/** A check of one of `values`. */
export function enumCheck(values: ReadonlySet<string>): Check {
  return (value) => (typeof value === 'string' && values.has(value) ? value : undefined);
}

/** A check of a finite number in `[min, max]`. */
export function numberCheck(min: number, max: number): Check {
  return (value) => (isNumberIn(value, min, max) ? value : undefined);
}

/** A check of a safe integer in `[min, max]`. */
export function integerCheck(min: number, max: number): Check {
  return (value) => (isIntegerIn(value, min, max) ? value : undefined);
}

/** A non-empty string of any length. */
export const nonEmptyString = stringCheck(1, Number.MAX_SAFE_INTEGER);

/** A boolean check as a `copyOptional` callback. */
export function booleanCheck(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** Copies an array whose every element `check` accepts; `undefined` otherwise (holes included). */
export function checkArray<T>(value: unknown, min: number, max: number, check: (element: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(value) || value.length < min || value.length > max) return undefined;
  const out: T[] = new Array<T>(value.length);
  for (let index = 0; index < value.length; index += 1) {
    const element = check(value[index]);
    if (element === undefined) return undefined;
    out[index] = element;
  }
  return out;
}

/**
 * `z.record(z.string(), z.unknown())`: a fresh plain object with the same enumerable string keys and the same
 * values. A `__proto__` own key is left to the schema.
 */
export function checkRecord(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined || Object.getOwnPropertySymbols(source).length > 0) return undefined;
  const out: Loose = {};
  for (const key in source) {
    if (key === '__proto__' || !Object.hasOwn(source, key)) return undefined;
    out[key] = source[key];
  }
  return out;
}
