import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** An `invalid-request` codec error at a JSON path of the client request. */
export function invalidClientRequest(message: string, path: string): CodecErrorV1 {
  return new CodecErrorV1('invalid-request', message, { path });
}

/** An `unsupported-feature` codec error at a JSON path of the client request. */
export function unsupportedClientFeature(message: string, path: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', message, { path });
}

/** A finite number, or `undefined` for an absent or null field. */
export function optionalClientNumber(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidClientRequest('field is not a number', path);
  return value;
}
