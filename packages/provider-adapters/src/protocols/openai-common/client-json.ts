import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** A parsed JSON object from a client body. */
export type ClientJsonObject = Readonly<Record<string, unknown>>;

/** A `CodecErrorV1('invalid-request')` naming the rule and the JSON path, never the value. */
export function invalidClientField(path: string, rule: string): CodecErrorV1 {
  return new CodecErrorV1('invalid-request', `${path} ${rule}`, { path });
}

/** A `CodecErrorV1('unsupported-feature')` for a request feature the task cannot represent faithfully. */
export function unsupportedClientField(path: string, rule: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', `${path} ${rule}`, { path });
}

/** Whether a value is a JSON object (not an array, not null). */
export function isClientObject(value: unknown): value is ClientJsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `null` and absent both mean "not set" in OpenAI requests (Chat Completions and Responses alike). */
export function isUnset(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/** Reads an optional string (`null` is unset). */
export function optionalClientString(object: ClientJsonObject, key: string, path: string): string | undefined {
  const value = object[key];
  if (isUnset(value)) return undefined;
  if (typeof value !== 'string') throw invalidClientField(`${path}${key}`, 'must be a string');
  return value;
}

/** Reads a required string. */
export function requiredClientString(object: ClientJsonObject, key: string, path: string): string {
  const value = optionalClientString(object, key, path);
  if (value === undefined) throw invalidClientField(`${path}${key}`, 'is required');
  return value;
}

/** Reads an optional finite number (`null` is unset). */
export function optionalClientNumber(object: ClientJsonObject, key: string, path: string): number | undefined {
  const value = object[key];
  if (isUnset(value)) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidClientField(`${path}${key}`, 'must be a number');
  return value;
}

/** Reads an optional boolean (`null` is unset). */
export function optionalClientBoolean(object: ClientJsonObject, key: string, path: string): boolean | undefined {
  const value = object[key];
  if (isUnset(value)) return undefined;
  if (typeof value !== 'boolean') throw invalidClientField(`${path}${key}`, 'must be a boolean');
  return value;
}

/** Reads an optional object (`null` is unset). */
export function optionalClientObject(object: ClientJsonObject, key: string, path: string): ClientJsonObject | undefined {
  const value = object[key];
  if (isUnset(value)) return undefined;
  if (!isClientObject(value)) throw invalidClientField(`${path}${key}`, 'must be an object');
  return value;
}

/** Reads an optional array (`null` is unset). */
export function optionalClientArray(object: ClientJsonObject, key: string, path: string): readonly unknown[] | undefined {
  const value = object[key];
  if (isUnset(value)) return undefined;
  if (!Array.isArray(value)) throw invalidClientField(`${path}${key}`, 'must be an array');
  return value;
}
