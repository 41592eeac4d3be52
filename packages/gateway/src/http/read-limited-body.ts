/** How long the gateway waits for a request body: between two reads, and for the whole of it. */
export interface BodyDeadlines {
  /** Longest wait for the next bytes of the body, in milliseconds. */
  readonly idleMs: number;
  /** Longest time for the whole body, in milliseconds, from the first read. */
  readonly totalMs: number;
  /** Stops the read early (the gateway's shutdown): the body is cancelled and the signal's reason thrown. */
  readonly signal?: AbortSignal | undefined;
}

/** Thrown by {@link readLimitedBody} when the client sent the body too slowly; the body is cancelled. */
export class BodyReadTimeoutError extends Error {
  /** Which deadline passed. */
  readonly deadline: 'idle' | 'total';

  constructor(deadline: 'idle' | 'total') {
    super(deadline === 'idle' ? 'no request body bytes arrived within the idle deadline' : 'the request body did not arrive within the total deadline');
    this.name = 'BodyReadTimeoutError';
    this.deadline = deadline;
  }
}

/**
 * Reads a request body up to `maxBytes`; `undefined` when it is larger (refused before anything is forwarded).
 * A declared `content-length` over the limit is refused without reading. Without `deadlines`, a declared one within
 * the limit is read in one go (`arrayBuffer()`: on `@hono/node-server` straight from the socket); a body without
 * one (chunked) goes through a reader that stops at the limit. With `deadlines`, every body goes through the reader,
 * each read waits at most `idleMs` and the whole body at most `totalMs`; a slower body is cancelled and
 * {@link BodyReadTimeoutError} thrown.
 */
export async function readLimitedBody(request: Request, maxBytes: number, deadlines?: BodyDeadlines): Promise<Uint8Array | undefined> {
  const header = request.headers.get('content-length');
  const declared = header === null ? Number.NaN : Number(header);
  if (Number.isFinite(declared) && declared > maxBytes) return undefined;
  if (deadlines === undefined && Number.isInteger(declared) && declared >= 0) {
    const body = new Uint8Array(await request.arrayBuffer());
    // A `Request` built in-process may declare less than it carries; the limit holds regardless.
    return body.byteLength > maxBytes ? undefined : body;
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const endBy = performance.now() + (deadlines?.totalMs ?? Number.POSITIVE_INFINITY);
  for (;;) {
    const next = deadlines === undefined ? await reader.read() : await readWithin(reader, deadlines.idleMs, endBy, deadlines.signal);
    if (next === 'idle' || next === 'total' || next === 'aborted') {
      await reader.cancel().catch(() => {});
      if (next === 'aborted') throw deadlines?.signal?.reason;
      throw new BodyReadTimeoutError(next);
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return joinChunks(chunks, size);
}

/** The chunks in one new `Uint8Array` of its own (not a view of the socket's buffers). */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  idleMs: number,
  endBy: number,
  signal: AbortSignal | undefined,
): Promise<ReadableStreamReadResult<Uint8Array> | 'idle' | 'total' | 'aborted'> {
  if (signal?.aborted === true) return 'aborted';
  const left = endBy - performance.now();
  const which = idleMs <= left ? 'idle' : 'total';
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const expired = new Promise<'idle' | 'total' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve(which), Math.max(0, Math.min(idleMs, left)));
    onAbort = () => resolve('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([reader.read(), expired]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}
