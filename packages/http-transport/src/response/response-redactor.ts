const REPLACEMENT = Buffer.from('[redacted]', 'latin1');

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
  const byteNeedles = textNeedles.map((needle) => Buffer.from(needle, 'utf8'));
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

function createBodyRedactor(needles: readonly Buffer[]): BodyRedactor {
  let held: Uint8Array = EMPTY;
  return {
    push(chunk) {
      if (needles.length === 0) return chunk;
      const data = held.byteLength === 0 ? toBuffer(chunk) : Buffer.concat([held, chunk]);
      const ranges = findMatches(data, needles);
      const lastEnd = ranges.length === 0 ? 0 : (ranges[ranges.length - 1] as readonly [number, number])[1];
      const holdFrom = findPartialTail(data, needles, lastEnd);
      held = holdFrom === data.byteLength ? EMPTY : data.subarray(holdFrom);
      if (ranges.length === 0) return holdFrom === data.byteLength ? data : data.subarray(0, holdFrom);
      return replaceRanges(data, ranges, holdFrom);
    },
    flush() {
      const rest = held;
      held = EMPTY;
      return rest;
    },
  };
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Sorted, merged [start, end) ranges of every needle occurrence. */
function findMatches(data: Buffer, needles: readonly Buffer[]): (readonly [number, number])[] {
  let ranges: (readonly [number, number])[] | undefined;
  for (const needle of needles) {
    for (let index = data.indexOf(needle); index !== -1; index = data.indexOf(needle, index + needle.byteLength)) {
      (ranges ??= []).push([index, index + needle.byteLength]);
    }
  }
  if (ranges === undefined) return [];
  if (ranges.length === 1) return ranges;
  ranges.sort((left, right) => left[0] - right[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && start < last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/**
 * Where the longest tail of `data` (from `from` on) that is a proper prefix of some needle starts, or
 * `data.byteLength` when there is none. Only positions holding a needle's first byte are compared.
 */
function findPartialTail(data: Buffer, needles: readonly Buffer[], from: number): number {
  let holdFrom = data.byteLength;
  for (const needle of needles) {
    const first = needle[0] as number;
    let index = data.indexOf(first, Math.max(from, data.byteLength - needle.byteLength + 1));
    while (index !== -1 && index < holdFrom) {
      if (needle.compare(data, index, data.byteLength, 0, data.byteLength - index) === 0) {
        holdFrom = index;
        break;
      }
      index = data.indexOf(first, index + 1);
    }
  }
  return holdFrom;
}

function replaceRanges(data: Buffer, ranges: readonly (readonly [number, number])[], end: number): Buffer {
  const parts: Buffer[] = [];
  let cursor = 0;
  for (const [start, stop] of ranges) {
    if (start > cursor) parts.push(data.subarray(cursor, start));
    parts.push(REPLACEMENT);
    cursor = stop;
  }
  if (end > cursor) parts.push(data.subarray(cursor, end));
  return Buffer.concat(parts);
}
