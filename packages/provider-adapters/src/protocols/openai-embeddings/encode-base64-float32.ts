const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Characters passed to `String.fromCharCode` at once: well below every engine's argument limit. */
const CHUNK = 0x8000;

/**
 * Encodes float32 values as standard padded base64 of their little-endian bytes: the inverse of the kit's
 * `decodeBase64Float32` and the form of OpenAI's `encoding_format: "base64"`. Pure; web-standard `btoa`.
 */
export function encodeFloat32Base64(vector: Float32Array): string {
  let bytes: Uint8Array;
  if (LITTLE_ENDIAN) {
    bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  } else {
    bytes = new Uint8Array(vector.length * 4);
    const view = new DataView(bytes.buffer);
    for (let index = 0; index < vector.length; index += 1) view.setFloat32(index * 4, vector[index] as number, true);
  }
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  }
  return btoa(binary);
}
