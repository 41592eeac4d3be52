import { CodecErrorV1 } from '@tokenforge/model-protocol';
import { parseSafeJsonBytes, type SafeJsonLimits } from './safe-json.js';

/** Default byte cap of {@link readBodyBytes}: 32 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Options of the body readers. */
export interface ReadBodyOptions {
  /** Largest accepted body in bytes (default {@link DEFAULT_MAX_BODY_BYTES}). */
  readonly maxBytes?: number;
}

/** Options of {@link readJsonBody}: the body cap doubles as the parser's byte limit. */
export interface ReadJsonBodyOptions extends ReadBodyOptions {
  /** Deepest accepted nesting (default 64). */
  readonly maxDepth?: SafeJsonLimits['maxDepth'];
}

/**
 * Reads a transport body to its end into one `Uint8Array`. Chunks are kept as received and copied once at
 * the end. As soon as a chunk would take the total past `maxBytes` the read stops, that chunk is not kept,
 * the body is released and a `body-too-large` {@link CodecErrorV1} is thrown. The body is released on every
 * path; an error thrown by the body itself propagates unchanged.
 */
export async function readBodyBytes(body: AsyncIterable<Uint8Array>, options?: ReadBodyOptions): Promise<Uint8Array> {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let finished = false;
  try {
    for (;;) {
      const step = await iterator.next();
      if (step.done === true) {
        finished = true;
        break;
      }
      const chunk = step.value;
      if (total + chunk.byteLength > maxBytes) {
        throw new CodecErrorV1('body-too-large', `body exceeds ${maxBytes} bytes`);
      }
      if (chunk.byteLength === 0) continue;
      chunks.push(chunk);
      total += chunk.byteLength;
    }
  } finally {
    if (!finished) await releaseIterator(iterator);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

/**
 * Reads a whole body and parses it with the safe JSON parser.
 *
 * @throws {CodecErrorV1} `body-too-large`, `invalid-encoding`, `malformed-json`, `nesting-too-deep`, `forbidden-key`.
 */
export async function readJsonBody(body: AsyncIterable<Uint8Array>, options?: ReadJsonBodyOptions): Promise<unknown> {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bytes = await readBodyBytes(body, { maxBytes });
  return parseSafeJsonBytes(bytes, options?.maxDepth === undefined ? { maxBytes } : { maxBytes, maxDepth: options.maxDepth });
}

/**
 * Releases a transport body nobody will read to its end: calls its iterator's `return()`. Pass the iterator
 * when one was already taken from the body (a fresh iterator of a non-generator iterable may not hold the
 * connection). Never throws and never rejects; a body without `return()` is left alone.
 */
export async function releaseBody(body: AsyncIterable<Uint8Array> | AsyncIterator<Uint8Array>): Promise<void> {
  let iterator: AsyncIterator<Uint8Array>;
  try {
    iterator =
      Symbol.asyncIterator in body && typeof body[Symbol.asyncIterator] === 'function'
        ? (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
        : (body as AsyncIterator<Uint8Array>);
  } catch {
    return;
  }
  await releaseIterator(iterator);
}

/**
 * Closes an iterator nobody will read to its end: calls its `return()`, if it has one. The kit's one best-effort
 * release (bodies, frame decoders): never throws and never rejects, since a source that fails while closing is
 * closed as far as its reader is concerned.
 */
export async function releaseIterator(iterator: AsyncIterator<unknown>): Promise<void> {
  try {
    if (typeof iterator.return === 'function') await iterator.return();
  } catch {
    // Closing is best effort.
  }
}
