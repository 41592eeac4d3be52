import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';

/** A parsed JSON object from a provider body or event. */
export type WireRecord = Record<string, unknown>;

/** Largest token count accepted in a usage object. */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;
/** Largest `output_index` / `content_index` / `summary_index` accepted (anything larger is hostile). */
export const OPENAI_RESPONSES_MAX_WIRE_INDEX = 1_000_000;

/** Whether a value is a JSON object (not an array, not null). */
export function isWireRecord(value: unknown): value is WireRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `ProtocolViolationError('invalid-event')` naming the JSON path and the rule, never the value. */
export function wireViolation(path: string, rule: string): ProtocolViolationError {
  return new ProtocolViolationError('invalid-event', `openai-responses ${path} ${rule}`);
}

/** Reads an optional string (`null` is absent). */
export function optionalWireString(record: WireRecord, key: string, path: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wireViolation(`${path}.${key}`, 'must be a string');
  return value;
}

/** Reads a required string. */
export function requiredWireString(record: WireRecord, key: string, path: string): string {
  const value = optionalWireString(record, key, path);
  if (value === undefined) throw wireViolation(`${path}.${key}`, 'is required');
  return value;
}

/** Reads an optional non-negative integer up to `max` (`null` is absent). */
export function optionalWireCount(record: WireRecord, key: string, path: string, max = MAX_COUNT): number | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw wireViolation(`${path}.${key}`, 'must be a non-negative integer in range');
  }
  return value;
}

/** Reads an optional wire index (`output_index`, `content_index`, `summary_index`). */
export function optionalWireIndex(record: WireRecord, key: string, path: string): number | undefined {
  return optionalWireCount(record, key, path, OPENAI_RESPONSES_MAX_WIRE_INDEX);
}

/** Reads an optional object (`null` is absent). */
export function optionalWireRecord(record: WireRecord, key: string, path: string): WireRecord | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (!isWireRecord(value)) throw wireViolation(`${path}.${key}`, 'must be an object');
  return value;
}

/** Reads an optional array (`null` is absent). */
export function optionalWireArray(record: WireRecord, key: string, path: string): readonly unknown[] | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw wireViolation(`${path}.${key}`, 'must be an array');
  return value;
}
