import { decodeBase64Float32, ProtocolViolationError } from '../../codec-kit/index.js';

/**
 * Decodes one `embedding` value into a fresh `Float32Array` of exactly `dimensions` values.
 *
 * - A string is base64 of little-endian float32 values: decoded by the kit straight into the array (no
 *   intermediate number array), refusing bad base64, a byte length that is not whole floats, another length than
 *   `dimensions`, and NaN or infinities.
 * - An array is copied straight into the `Float32Array` in one pass; every element must be a JSON number whose
 *   float32 value is finite (a number past the float32 range would become an infinity and is refused).
 *
 * @throws {ProtocolViolationError} (`invalid-event`) for a wrong length or a bad array element;
 * {@link CodecErrorV1} from the kit for bad base64. Messages name the path, never the values.
 */
export function decodeOpenAiEmbeddingsVector(value: string | readonly unknown[], dimensions: number, path: string): Float32Array {
  if (typeof value === 'string') return decodeBase64Float32(value, { expectedDimension: dimensions });
  if (value.length !== dimensions) {
    throw new ProtocolViolationError('invalid-event', `openai-embeddings ${path} has ${value.length} values where ${dimensions} were expected`);
  }
  const vector = new Float32Array(dimensions);
  for (let position = 0; position < dimensions; position += 1) {
    const element = value[position];
    if (typeof element !== 'number') throw new ProtocolViolationError('invalid-event', `openai-embeddings ${path}.${position} must be a number`);
    vector[position] = element;
    // Float32 overflow of a finite JSON number shows up here as an infinity.
    if (!Number.isFinite(vector[position])) {
      throw new ProtocolViolationError('invalid-event', `openai-embeddings ${path}.${position} is not a finite float32`);
    }
  }
  return vector;
}
