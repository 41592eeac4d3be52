const REPLACEMENT = new TextEncoder().encode('[redacted]');

/**
 * Removes the connection's secrets from what a provider sends back, before any adapter reads it: an echoed
 * key in an error code, a request-id header holding the Authorization value. Header values are rewritten as
 * text; body bytes are rewritten chunk by chunk, and a secret split across two chunks is still found.
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
   * the next chunk are held back until then; the chunk itself is returned, uncopied, when nothing matched.
   */
  push(chunk: Uint8Array): Uint8Array;
  /** The held-back bytes at the end of the body (never a whole secret). */
  flush(): Uint8Array;
}

const EMPTY = new Uint8Array(0);

/**
 * Builds the redactor for a connection's secrets. Each secret is searched in its literal form and in the
 * forms a JSON encoder writes it (`"` and `\` escaped, `/` optionally as `\/`). The search is `indexOf` per
 * secret over the chunk, so the cost is linear in the body and nothing is copied unless a secret (or the
 * start of one at a chunk's end) is present.
 */
export function createResponseRedactor(secrets: readonly string[]): ResponseRedactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    forms.add(secret);
    const escaped = JSON.stringify(secret).slice(1, -1);
    forms.add(escaped);
    forms.add(escaped.replaceAll('/', '\\/'));
  }
  const textNeedles = [...forms].sort((left, right) => right.length - left.length);
  const encoder = new TextEncoder();
  const byteNeedles = textNeedles.map((needle) => encoder.encode(needle));
  return {
    headerValue(value) {
      let result = value;
      for (const needle of textNeedles) if (result.includes(needle)) result = result.split(needle).join('[redacted]');
      return result;
    },
    createBodyRedactor: () => createBodyRedactor(byteNeedles),
    including: (extra) => createResponseRedactor([...secrets, extra]),
  };
}

function createBodyRedactor(needles: readonly Uint8Array[]): BodyRedactor {
  let held: Uint8Array = EMPTY;
  return {
    push(chunk) {
      if (needles.length === 0) return chunk;
      const data = held.byteLength === 0 ? chunk : concat(held, chunk);
      const scan = scanChunk(data, needles);
      held = scan.holdFrom === data.byteLength ? EMPTY : data.subarray(scan.holdFrom);
      if (scan.ranges === undefined) return scan.holdFrom === data.byteLength ? data : data.subarray(0, scan.holdFrom);
      return replaceRanges(data, scan.ranges, scan.holdFrom);
    },
    flush() {
      const rest = held;
      held = EMPTY;
      return rest;
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
  /** Where the longest tail that could start a secret begins (`data.byteLength` when none). */
  readonly holdFrom: number;
}

/**
 * One pass per secret: `indexOf` finds each position holding the secret's first byte (a builtin, no per-byte
 * JavaScript), and only there are the following bytes compared, which nearly always stops at the second byte.
 * A comparison that runs off the end of the chunk marks a tail to hold back.
 */
function scanChunk(data: Uint8Array, needles: readonly Uint8Array[]): ChunkScan {
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
      if (available < size) {
        holdFrom = index;
        break;
      }
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
