import { isProtocolFamily, type ProtocolFamily } from '@tokenforge/model-protocol';
import { hmacSha256 } from './hmac-sha256.js';

const MAGIC = new Uint8Array([0x54, 0x46, 0x4f, 0x31]); // "TFO1"
const MAC_BYTES = 32;
const KEY_LABEL = new TextEncoder().encode('tokenforge opaque reasoning state v1');
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A provider's opaque value (thinking signature, encrypted reasoning, thought signature) with the family that made it. */
export interface OpenedOpaqueState {
  /** The protocol family whose provider produced the value; it is only ever sent back to that family. */
  readonly family: ProtocolFamily;
  /** The value exactly as the provider produced it. */
  readonly value: string;
}

/** Seals and opens the gateway wrapper that carries one family's opaque value through another dialect. */
export interface OpaqueStateSeal {
  /** The wrapper: standard padded base64 (valid in every dialect's opaque field, Gemini's `bytes` included). */
  seal(family: ProtocolFamily, value: string): string;
  /**
   * The family and value of a wrapper this key sealed; `invalid` for a wrapper whose MAC does not verify (another key,
   * or altered); `undefined` for a value that is not a wrapper at all (a provider's own value).
   */
  open(value: string): OpenedOpaqueState | 'invalid' | undefined;
}

function toBase64(bytes: Uint8Array): string {
  const chunks: string[] = [];
  for (let index = 0; index < bytes.length; index += 0x1000) chunks.push(String.fromCharCode.apply(null, bytes.subarray(index, index + 0x1000) as unknown as number[]));
  return btoa(chunks.join(''));
}

function fromBase64(text: string): Uint8Array | undefined {
  if (text.length < 8 || text.length % 4 !== 0 || !text.startsWith('VEZPM')) return undefined;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function equalBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index += 1) difference |= (left[index] as number) ^ (right[index] as number);
  return difference === 0;
}

/**
 * Creates the seal of opaque provider state under a host-provided key (the codecs never hold a key of their own).
 * The sealing key is derived from `key` (HMAC-SHA256 under a fixed label), so the host may pass a key it also uses
 * elsewhere. A wrapper is `base64("TFO1" ‖ familyLength ‖ family ‖ HMAC-SHA256(family ‖ value) ‖ value)`: it names the
 * family the value came from, so that a host sends the value back to that family only, and its MAC makes an altered
 * or foreign wrapper read as `invalid` (dropped, never forwarded).
 */
export function createOpaqueStateSeal(key: Uint8Array): OpaqueStateSeal {
  if (key.length < 16) throw new Error('the opaque state key needs at least 16 bytes');
  const sealingKey = hmacSha256(key, KEY_LABEL);
  const mac = (family: Uint8Array, value: Uint8Array): Uint8Array => {
    const signed = new Uint8Array(1 + family.length + value.length);
    signed[0] = family.length;
    signed.set(family, 1);
    signed.set(value, 1 + family.length);
    return hmacSha256(sealingKey, signed);
  };
  return Object.freeze({
    seal(family: ProtocolFamily, value: string): string {
      const familyBytes = encoder.encode(family);
      if (familyBytes.length > 255) throw new Error('protocol family name too long');
      const valueBytes = encoder.encode(value);
      const out = new Uint8Array(MAGIC.length + 1 + familyBytes.length + MAC_BYTES + valueBytes.length);
      out.set(MAGIC, 0);
      out[MAGIC.length] = familyBytes.length;
      out.set(familyBytes, MAGIC.length + 1);
      out.set(mac(familyBytes, valueBytes), MAGIC.length + 1 + familyBytes.length);
      out.set(valueBytes, MAGIC.length + 1 + familyBytes.length + MAC_BYTES);
      return toBase64(out);
    },
    open(value: string): OpenedOpaqueState | 'invalid' | undefined {
      const bytes = fromBase64(value);
      if (bytes === undefined || !equalBytes(bytes.subarray(0, MAGIC.length), MAGIC)) return undefined;
      const familyLength = bytes[MAGIC.length] ?? 0;
      const macStart = MAGIC.length + 1 + familyLength;
      if (familyLength === 0 || bytes.length < macStart + MAC_BYTES) return 'invalid';
      const familyBytes = bytes.subarray(MAGIC.length + 1, macStart);
      const valueBytes = bytes.subarray(macStart + MAC_BYTES);
      if (!equalBytes(mac(familyBytes, valueBytes), bytes.subarray(macStart, macStart + MAC_BYTES))) return 'invalid';
      try {
        const family = decoder.decode(familyBytes);
        return isProtocolFamily(family) ? { family, value: decoder.decode(valueBytes) } : 'invalid';
      } catch {
        return 'invalid';
      }
    },
  });
}
