import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** Default byte cap of {@link decodeBase64Float32}: 16 MiB of decoded floats (4 Mi dimensions). */
export const DEFAULT_MAX_FLOAT32_BYTES = 16 * 1024 * 1024;

/** Options of {@link decodeBase64Float32}. */
export interface DecodeBase64Float32Options {
  /** The dimension the vector must have (from the request or the declared capability). */
  readonly expectedDimension?: number;
  /** Largest accepted decoded size in bytes (default {@link DEFAULT_MAX_FLOAT32_BYTES}). */
  readonly maxBytes?: number;
  /** Refuse NaN and infinities (default true): no embedding model produces them. */
  readonly rejectNonFinite?: boolean;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Decodes standard base64 (RFC 4648 §4, padded, no whitespace) into little-endian float32 values, straight
 * into a `Float32Array` without an intermediate number array. The text is validated first: alphabet, length
 * a multiple of 4, padding only at the end and with zero trailing bits, decoded length a non-zero multiple
 * of 4 bytes.
 *
 * @throws {CodecErrorV1} `invalid-encoding` for invalid base64, a byte length that is not whole floats, a
 * dimension other than `expectedDimension`, or a non-finite value; `body-too-large` past `maxBytes`.
 */
export function decodeBase64Float32(base64: string, options?: DecodeBase64Float32Options): Float32Array {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_FLOAT32_BYTES;
  if (base64.length === 0 || base64.length % 4 !== 0) {
    throw new CodecErrorV1('invalid-encoding', 'base64 length is not a non-zero multiple of 4');
  }
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const byteLength = (base64.length / 4) * 3 - padding;
  if (byteLength > maxBytes) throw new CodecErrorV1('body-too-large', `decoded vector exceeds ${maxBytes} bytes`);
  if (!hasZeroTrailingBits(base64, padding)) {
    throw new CodecErrorV1('invalid-encoding', 'text is not canonical standard base64');
  }
  if (byteLength % 4 !== 0) throw new CodecErrorV1('invalid-encoding', 'decoded length is not a multiple of 4 bytes');
  const dimension = byteLength / 4;
  if (options?.expectedDimension !== undefined && dimension !== options.expectedDimension) {
    throw new CodecErrorV1(
      'invalid-encoding',
      `vector has ${dimension} dimensions where ${options.expectedDimension} were expected`,
    );
  }
  // atob refuses characters outside the alphabet and misplaced padding; it silently drops ASCII whitespace, which
  // the exact decoded length below catches. That validates the text without a second pass over it.
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    throw new CodecErrorV1('invalid-encoding', 'text is not canonical standard base64');
  }
  if (binary.length !== byteLength) throw new CodecErrorV1('invalid-encoding', 'text is not canonical standard base64');
  const bytes = new Uint8Array(byteLength);
  for (let index = 0; index < byteLength; index += 1) bytes[index] = binary.charCodeAt(index);
  let vector: Float32Array;
  if (LITTLE_ENDIAN) {
    vector = new Float32Array(bytes.buffer);
  } else {
    vector = new Float32Array(dimension);
    const view = new DataView(bytes.buffer);
    for (let index = 0; index < dimension; index += 1) vector[index] = view.getFloat32(index * 4, true);
  }
  if (options?.rejectNonFinite ?? true) {
    for (let index = 0; index < dimension; index += 1) {
      if (!Number.isFinite(vector[index])) {
        throw new CodecErrorV1('invalid-encoding', `vector value ${index} is not finite`);
      }
    }
  }
  return vector;
}

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Padding hides 2 or 4 bits of the last digit; canonical base64 leaves them zero. */
function hasZeroTrailingBits(base64: string, padding: number): boolean {
  if (padding === 0) return true;
  const digit = BASE64_DIGITS.indexOf(base64.charAt(base64.length - padding - 1));
  return (digit & (padding === 2 ? 0x0f : 0x03)) === 0;
}
