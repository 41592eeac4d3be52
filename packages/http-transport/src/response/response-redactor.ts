const REPLACEMENT = new TextEncoder().encode('[redacted]');

/**
 * The shortest secret the response redactor looks for. A shorter one (`none`, `x`, `local`) is an ordinary word
 * or letter of provider answers: replacing it would corrupt them (`"text"` became `"te[redacted]t"`) and hides
 * nothing worth hiding. A host should warn its operator about a shorter secret (the gateway does at start-up).
 */
export const MIN_REDACTED_SECRET_LENGTH = 16;

/**
 * Removes the connection's secrets from what a provider sends back, before any adapter reads it: an echoed
 * key in an error code, a request-id header holding the Authorization value. A secret is replaced only as a
 * whole token (no letter, digit, `_` or `-` right before or after it) and only in header values and in the
 * bodies of responses that are not 2xx: a successful body is never rewritten. Header values are rewritten as
 * text; body bytes chunk by chunk, and a secret split across two chunks is still found.
 */
export interface ResponseRedactor {
  /** The header value with every secret replaced by `[redacted]` (the same string when none occurs). */
  headerValue(value: string): string;
  /** A stateful rewriter for one response body. */
  createBodyRedactor(): BodyRedactor;
  /** A redactor for these secrets and `extra` (for a token minted for one request). */
  including(extra: string): ResponseRedactor;
}

/** Rewrites one body's chunks in order. */
export interface BodyRedactor {
  /**
   * The bytes to hand on for `chunk` (possibly empty). Bytes that could be the start of a secret finishing in
   * the next chunk, or a whole secret whose next byte decides whether it is a whole token, are held back until
   * then; the chunk itself is returned, uncopied, when nothing matched.
   */
  push(chunk: Uint8Array): Uint8Array;
  /** The held-back bytes at the end of the body, a whole secret among them replaced (the end is a boundary). */
  flush(): Uint8Array;
}

const EMPTY = new Uint8Array(0);

/** Letters, digits, `_` and `-`: a secret next to one of these is part of a longer word, not the secret. */
function isTokenByte(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x5f || byte === 0x2d;
}

const NOT_TOKEN = -1;

/**
 * Builds the redactor for a connection's secrets. Secrets shorter than {@link MIN_REDACTED_SECRET_LENGTH} are
 * left alone. Each secret is searched in its literal form and in the forms a JSON encoder writes it (`"` and
 * `\` escaped, `/` optionally as `\/`). The search is `indexOf` per secret over the chunk, so the cost is linear
 * in the body and nothing is copied unless a secret (or the start of one at a chunk's end) is present.
 */
export function createResponseRedactor(secrets: readonly string[]): ResponseRedactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_REDACTED_SECRET_LENGTH) continue;
    forms.add(secret);
    const escaped = JSON.stringify(secret).slice(1, -1);
    forms.add(escaped);
    forms.add(escaped.replaceAll('/', '\\/'));
  }
  const textNeedles = [...forms].sort((left, right) => right.length - left.length);
  const encoder = new TextEncoder();
  const byteNeedles = textNeedles.map((needle) => encoder.encode(needle));
  const headerPattern =
    textNeedles.length === 0 ? undefined : new RegExp(`(?<![A-Za-z0-9_-])(?:${textNeedles.map((needle) => needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(?![A-Za-z0-9_-])`, 'g');
  return {
    headerValue: (value) => (headerPattern === undefined ? value : value.replace(headerPattern, '[redacted]')),
    createBodyRedactor: () => createBodyRedactor(byteNeedles),
    including: (extra) => createResponseRedactor([...secrets, extra]),
  };
}

function createBodyRedactor(needles: readonly Uint8Array[]): BodyRedactor {
  let held: Uint8Array = EMPTY;
  /** The last byte handed on (before `held`), or {@link NOT_TOKEN} at the start of the body. */
  let before = NOT_TOKEN;
  const rewrite = (data: Uint8Array, atEnd: boolean): Uint8Array => {
    const scan = scanChunk(data, needles, before, atEnd);
    held = scan.holdFrom === data.byteLength ? EMPTY : data.subarray(scan.holdFrom);
    if (scan.holdFrom > 0) before = data[scan.holdFrom - 1] as number;
    if (scan.ranges === undefined) return scan.holdFrom === data.byteLength ? data : data.subarray(0, scan.holdFrom);
    return replaceRanges(data, scan.ranges, scan.holdFrom);
  };
  return {
    push(chunk) {
      if (needles.length === 0) return chunk;
      return rewrite(held.byteLength === 0 ? chunk : concat(held, chunk), false);
    },
    flush() {
      if (held.byteLength === 0) return EMPTY;
      return rewrite(held, true);
    },
  };
}

function concat(left: Uint8Array, right: Uint8Array): Uint8Array {
  const joined = new Uint8Array(left.byteLength + right.byteLength);
  joined.set(left, 0);
  joined.set(right, left.byteLength);
  return joined;
}

interface ChunkScan {
  /** Sorted, non-overlapping [start, end) ranges of whole secrets, or `undefined` when there is none. */
  readonly ranges: [number, number][] | undefined;
  /** Where the tail that may still turn out to hold a secret begins (`data.byteLength` when none). */
  readonly holdFrom: number;
}

/**
 * One pass per secret: `indexOf` finds each position holding the secret's first byte (a builtin, no per-byte
 * JavaScript), and only there are the following bytes compared, which nearly always stops at the second byte.
 * A comparison that runs off the end of the chunk, or a whole secret whose following byte has not arrived,
 * marks a tail to hold back (unless `atEnd`: the end of the body then ends the token).
 */
function scanChunk(data: Uint8Array, needles: readonly Uint8Array[], before: number, atEnd: boolean): ChunkScan {
  let ranges: [number, number][] | undefined;
  let holdFrom = data.byteLength;
  const length = data.byteLength;
  for (const needle of needles) {
    const first = needle[0] as number;
    const size = needle.byteLength;
    for (let index = data.indexOf(first); index !== -1 && index < holdFrom; index = data.indexOf(first, index + 1)) {
      const available = Math.min(size, length - index);
      let matched = 1;
      while (matched < available && data[index + matched] === needle[matched]) matched += 1;
      if (matched < available) continue;
      if (available < size || (index + size === length && !atEnd)) {
        if (atEnd) continue;
        holdFrom = index;
        break;
      }
      const previous = index === 0 ? before : (data[index - 1] as number);
      const next = index + size === length ? NOT_TOKEN : (data[index + size] as number);
      if ((previous !== NOT_TOKEN && isTokenByte(previous)) || (next !== NOT_TOKEN && isTokenByte(next))) continue;
      (ranges ??= []).push([index, index + size]);
      index += size - 1;
    }
  }
  if (ranges !== undefined) {
    // A whole secret found by another needle may start inside a held tail; the tail then starts after it.
    ranges = mergeRanges(ranges.filter(([start]) => start < holdFrom));
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] > holdFrom) holdFrom = last[1];
    if (ranges.length === 0) ranges = undefined;
  }
  return { ranges, holdFrom };
}

function mergeRanges(ranges: [number, number][]): [number, number][] {
  if (ranges.length < 2) return ranges;
  ranges.sort((left, right) => left[0] - right[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && start < last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function replaceRanges(data: Uint8Array, ranges: readonly (readonly [number, number])[], end: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let cursor = 0;
  for (const [start, stop] of ranges) {
    if (start > cursor) parts.push(data.subarray(cursor, start));
    parts.push(REPLACEMENT);
    cursor = stop;
  }
  if (end > cursor) parts.push(data.subarray(cursor, end));
  return Buffer.concat(parts);
}
