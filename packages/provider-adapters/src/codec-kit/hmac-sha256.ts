/*
 * SHA-256 (FIPS 180-4) and HMAC (RFC 2104), synchronous: the codecs are synchronous and may use web-standard APIs
 * only, whose `crypto.subtle` is asynchronous. Proven equal to `crypto.subtle` by the property test beside it.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const BLOCK_BYTES = 64;

const rotate = (value: number, bits: number): number => (value >>> bits) | (value << (32 - bits));

/** Compresses the 64-byte blocks of `bytes` from `offset` to `end` into `hash`. */
function compress(hash: Uint32Array, w: Uint32Array, bytes: Uint8Array, offset: number, end: number): void {
  let h0 = hash[0] as number;
  let h1 = hash[1] as number;
  let h2 = hash[2] as number;
  let h3 = hash[3] as number;
  let h4 = hash[4] as number;
  let h5 = hash[5] as number;
  let h6 = hash[6] as number;
  let h7 = hash[7] as number;
  for (let block = offset; block < end; block += BLOCK_BYTES) {
    for (let t = 0; t < 16; t += 1) {
      const at = block + t * 4;
      w[t] = (((bytes[at] as number) << 24) | ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number)) >>> 0;
    }
    for (let t = 16; t < 64; t += 1) {
      const w15 = w[t - 15] as number;
      const w2 = w[t - 2] as number;
      const s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3);
      const s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10);
      w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) >>> 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let t = 0; t < 64; t += 1) {
      const s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25);
      const choice = (e & f) ^ (~e & g);
      const temp1 = (h + s1 + choice + (K[t] as number) + (w[t] as number)) | 0;
      const s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      h = g;
      g = f;
      f = e;
      e = (d + temp1) | 0;
      d = c;
      c = b;
      b = a;
      a = (temp1 + s0 + majority) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  hash[0] = h0;
  hash[1] = h1;
  hash[2] = h2;
  hash[3] = h3;
  hash[4] = h4;
  hash[5] = h5;
  hash[6] = h6;
  hash[7] = h7;
}

/** The SHA-256 digest of `message` (32 bytes). */
export function sha256(message: Uint8Array): Uint8Array {
  const hash = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const whole = message.length - (message.length % BLOCK_BYTES);
  compress(hash, w, message, 0, whole);
  // The tail, the 0x80 marker and the bit length, in one or two blocks.
  const tail = new Uint8Array(message.length - whole + 9 > BLOCK_BYTES ? 2 * BLOCK_BYTES : BLOCK_BYTES);
  tail.set(message.subarray(whole));
  tail[message.length - whole] = 0x80;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, Math.floor((message.length * 8) / 0x100000000));
  view.setUint32(tail.length - 4, (message.length * 8) >>> 0);
  compress(hash, w, tail, 0, tail.length);
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  hash.forEach((word, index) => out.setUint32(index * 4, word));
  return digest;
}

/** HMAC-SHA256 of `message` under `key` (32 bytes). */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(BLOCK_BYTES);
  block.set(key.length > BLOCK_BYTES ? sha256(key) : key);
  const inner = new Uint8Array(BLOCK_BYTES + message.length);
  const outer = new Uint8Array(BLOCK_BYTES + 32);
  for (let index = 0; index < BLOCK_BYTES; index += 1) {
    inner[index] = (block[index] as number) ^ 0x36;
    outer[index] = (block[index] as number) ^ 0x5c;
  }
  inner.set(message, BLOCK_BYTES);
  outer.set(sha256(inner), BLOCK_BYTES);
  return sha256(outer);
}
