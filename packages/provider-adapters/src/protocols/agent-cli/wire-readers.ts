import { ProtocolViolationError } from '../../codec-kit/index.js';

/** The document as a record, or a protocol violation. */
export function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ProtocolViolationError('invalid-event', `${what} is not an object`);
  return value as Record<string, unknown>;
}

/** A string field, or undefined. */
export function stringField(record: Record<string, unknown>, name: string): string | undefined {
  const value = record[name];
  return typeof value === 'string' ? value : undefined;
}

/** A non-negative integer count, or undefined (a CLI that omits a figure reports nothing, never zero). */
export function countField(record: Record<string, unknown> | undefined, name: string): number | undefined {
  const value = record?.[name];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** A nested object field, or undefined. */
export function recordField(record: Record<string, unknown> | undefined, name: string): Record<string, unknown> | undefined {
  const value = record?.[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Drops the undefined members, for strict contract objects. */
export function defined<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

/** The frame kind `type` of a document, or a violation. */
export function frameType(document: Record<string, unknown>): string {
  const type = stringField(document, 'type');
  if (type === undefined) throw new ProtocolViolationError('invalid-event', 'a CLI document without a string type');
  return type;
}

/** An unknown frame kind: the run fails, as in every other family. */
export function unknownFrame(cli: string, type: string): never {
  throw new ProtocolViolationError('unexpected-event', `${cli} frame kind ${JSON.stringify(type.slice(0, 40))} is not a known kind`);
}
