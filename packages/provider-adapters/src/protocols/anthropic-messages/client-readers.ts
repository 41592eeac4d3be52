import { CodecErrorV1 } from '@tokenforge/model-protocol';
import { isWireRecord as isRecord, type WireRecord as JsonRecord } from '../../codec-kit/wire-readers.js';

/*
 * Small readers of a client's Messages request. A field that is missing where the API requires it, or has the
 * wrong type or range, throws CodecErrorV1 `invalid-request` naming the JSON path (never the value).
 */

export { isRecord, type JsonRecord };

export function invalid(path: string, rule: string): CodecErrorV1 {
  return new CodecErrorV1('invalid-request', `${path} ${rule}`, { path });
}

export function unsupported(path: string, what: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', `${what} cannot be represented`, { path });
}

export function requireRecord(value: unknown, path: string): JsonRecord {
  if (!isRecord(value)) throw invalid(path, 'must be an object');
  return value;
}

export function requireString(record: JsonRecord, key: string, path: string): string {
  const value = record[key];
  if (typeof value !== 'string') throw invalid(`${path}.${key}`, 'must be a string');
  return value;
}

export function requireNonEmptyString(record: JsonRecord, key: string, path: string): string {
  const value = requireString(record, key, path);
  if (value.length === 0) throw invalid(`${path}.${key}`, 'must not be empty');
  return value;
}

export function optionalString(record: JsonRecord, key: string, path: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`${path}.${key}`, 'must be a string');
  return value;
}

export function optionalBoolean(record: JsonRecord, key: string, path: string): boolean | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(`${path}.${key}`, 'must be a boolean');
  return value;
}

export function optionalNumber(record: JsonRecord, key: string, path: string, min: number, max: number): number | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw invalid(`${path}.${key}`, `must be a number from ${min} to ${max}`);
  }
  return value;
}

export function optionalInteger(record: JsonRecord, key: string, path: string, min: number): number | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalid(`${path}.${key}`, `must be an integer of at least ${min}`);
  }
  return value;
}

export function requireArray(record: JsonRecord, key: string, path: string): unknown[] {
  const value = record[key];
  if (!Array.isArray(value)) throw invalid(`${path}.${key}`, 'must be an array');
  return value;
}

/** Copies the defined entries only (the contracts use exact optional properties). */
export function compact<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) result[key] = entry;
  return result as T;
}
