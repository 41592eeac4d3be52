import { ProtocolViolationError } from './protocol-violation-error.js';

/** A parsed JSON object from a provider body or event. */
export type WireRecord = Record<string, unknown>;

/** Whether a value is a JSON object (not an array, not null). */
export function isWireRecord(value: unknown): value is WireRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value is an integer from 0 to `max`. */
export function isWireCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/** Options of {@link createWireReaders}. */
export interface WireReadersOptions {
  /** The family label every violation message starts with (e.g. `openai-chat`). */
  readonly family: string;
  /** Largest count `optionalCount` / `requiredCount` accept by default (default `Number.MAX_SAFE_INTEGER`). */
  readonly maxCount?: number;
}

/**
 * The readers of one family's wire JSON. Each takes the value already read (a named property read at the call
 * site stays monomorphic) and the field's path in two pieces, `path` and `key`, joined only when the check fails:
 * a well-formed value allocates nothing. `null` counts as absent for the optional readers. Every failure is a
 * `ProtocolViolationError('invalid-event')` whose message is `<family> <path>.<key> <rule>`, never the value.
 */
export interface WireReaders {
  /** The family label of the messages. */
  readonly family: string;
  /** A violation naming the full path and the rule (or, with one argument, only the rule). */
  violation(path: string, rule?: string): ProtocolViolationError;
  /** A JSON object at `path.key`, or a violation. */
  requiredRecord(value: unknown, path: string, key: string): WireRecord;
  /** A JSON object, `undefined` for absent or `null`, or a violation. */
  optionalRecord(value: unknown, path: string, key: string): WireRecord | undefined;
  /** An array, `undefined` for absent or `null`, or a violation. */
  optionalArray(value: unknown, path: string, key: string): readonly unknown[] | undefined;
  /** A string, or a violation (`is required` when absent or `null`, `must be a string` otherwise). */
  requiredString(value: unknown, path: string, key: string): string;
  /** A string, or a violation (`must be a string`, whatever the value). */
  stringValue(value: unknown, path: string, key: string): string;
  /** A string, `undefined` for absent or `null`, or a violation. */
  optionalString(value: unknown, path: string, key: string): string | undefined;
  /** A string of 1 to `maxLength` characters, or a violation. */
  boundedString(value: unknown, path: string, key: string, maxLength: number): string;
  /** An integer from 0 to `max`, or a violation. */
  requiredCount(value: unknown, path: string, key: string, max?: number): number;
  /** An integer from 0 to `max`, `undefined` for absent or `null`, or a violation. */
  optionalCount(value: unknown, path: string, key: string, max?: number): number | undefined;
  /** One of `allowed`, or a violation (`must be one of the known values`). */
  requiredEnum<T extends string>(value: unknown, path: string, key: string, allowed: ReadonlySet<T>): T;
}

/** Creates the {@link WireReaders} of one family (call once per module, at load time). */
export function createWireReaders(options: WireReadersOptions): WireReaders {
  const family = options.family;
  const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
  const violation = (path: string, rule?: string): ProtocolViolationError =>
    new ProtocolViolationError('invalid-event', rule === undefined ? `${family} ${path}` : `${family} ${path} ${rule}`);
  const optionalCount = (value: unknown, path: string, key: string, max = maxCount): number | undefined => {
    if (value === undefined || value === null) return undefined;
    if (!isWireCount(value, max)) throw violation(`${path}.${key}`, 'must be a non-negative integer in range');
    return value;
  };
  return Object.freeze({
    family,
    violation,
    requiredRecord(value: unknown, path: string, key: string): WireRecord {
      if (!isWireRecord(value)) throw violation(`${path}.${key}`, 'must be an object');
      return value;
    },
    optionalRecord(value: unknown, path: string, key: string): WireRecord | undefined {
      if (value === undefined || value === null) return undefined;
      if (!isWireRecord(value)) throw violation(`${path}.${key}`, 'must be an object');
      return value;
    },
    optionalArray(value: unknown, path: string, key: string): readonly unknown[] | undefined {
      if (value === undefined || value === null) return undefined;
      if (!Array.isArray(value)) throw violation(`${path}.${key}`, 'must be an array');
      return value;
    },
    requiredString(value: unknown, path: string, key: string): string {
      if (typeof value === 'string') return value;
      throw violation(`${path}.${key}`, value === undefined || value === null ? 'is required' : 'must be a string');
    },
    stringValue(value: unknown, path: string, key: string): string {
      if (typeof value !== 'string') throw violation(`${path}.${key}`, 'must be a string');
      return value;
    },
    optionalString(value: unknown, path: string, key: string): string | undefined {
      if (value === undefined || value === null) return undefined;
      if (typeof value !== 'string') throw violation(`${path}.${key}`, 'must be a string');
      return value;
    },
    boundedString(value: unknown, path: string, key: string, maxLength: number): string {
      if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
        throw violation(`${path}.${key}`, `must be a string of 1 to ${maxLength} characters`);
      }
      return value;
    },
    requiredCount(value: unknown, path: string, key: string, max = maxCount): number {
      if (!isWireCount(value, max)) throw violation(`${path}.${key}`, 'must be a non-negative integer in range');
      return value;
    },
    optionalCount,
    requiredEnum<T extends string>(value: unknown, path: string, key: string, allowed: ReadonlySet<T>): T {
      if (typeof value !== 'string' || !allowed.has(value as T)) throw violation(`${path}.${key}`, 'must be one of the known values');
      return value as T;
    },
  });
}
