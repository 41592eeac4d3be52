import type { IncomingMessage } from 'node:http';
import { BodyReadTimeoutError, joinChunks, type BodyDeadlines } from './read-limited-body.js';

/**
 * {@link readLimitedBody} read straight from the `node:http` request, without the web stream `@hono/node-server`
 * builds around it (a `Request`, two `ReadableStream`s, a timer and a race per read: about a sixth of the CPU of a
 * sync request). Same answers: `undefined` for a declared or read length over `maxBytes`; with `deadlines`, each
 * wait for bytes at most `idleMs`, the whole body at most `totalMs` from the start, else
 * {@link BodyReadTimeoutError}; the signal's reason when `deadlines.signal` aborts; the client going away rejects.
 * A body the parser already holds whole (the usual small request) is taken in one synchronous read. Where it stops
 * early, the request is left paused, as the web reader leaves it, for the server to drain or close.
 */
export function readLimitedIncomingBody(incoming: IncomingMessage, maxBytes: number, deadlines?: BodyDeadlines): Promise<Uint8Array | undefined> {
  const header = incoming.headers['content-length'];
  const declared = header === undefined ? Number.NaN : Number(header);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(undefined);
  if (deadlines?.signal?.aborted === true) return Promise.reject(deadlines.signal.reason);
  if (incoming.complete && !incoming.destroyed && incoming.readableFlowing !== true) {
    const chunks: Buffer[] = [];
    let size = 0;
    for (let chunk = incoming.read() as Buffer | null; chunk !== null; chunk = incoming.read() as Buffer | null) {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
    return Promise.resolve(size > maxBytes ? undefined : joinChunks(chunks, size));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const endBy = performance.now() + (deadlines?.totalMs ?? Number.POSITIVE_INFINITY);
    const stop = (): void => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onGone);
      incoming.off('close', onGone);
      deadlines?.signal?.removeEventListener('abort', onAbort);
      incoming.pause();
    };
    const wait = (): void => {
      if (deadlines === undefined) return;
      clearTimeout(timer);
      const left = endBy - performance.now();
      const which = deadlines.idleMs <= left ? 'idle' : 'total';
      timer = setTimeout(() => {
        stop();
        reject(new BodyReadTimeoutError(which));
      }, Math.max(0, Math.min(deadlines.idleMs, left)));
    };
    function onData(chunk: Buffer): void {
      size += chunk.byteLength;
      if (size > maxBytes) {
        stop();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
      wait();
    }
    function onEnd(): void {
      stop();
      resolve(joinChunks(chunks, size));
    }
    function onGone(): void {
      stop();
      reject(incoming.errored ?? new Error('the client went away before the request body ended'));
    }
    function onAbort(): void {
      stop();
      reject(deadlines?.signal?.reason);
    }
    deadlines?.signal?.addEventListener('abort', onAbort, { once: true });
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onGone);
    incoming.on('close', onGone);
    incoming.resume();
    wait();
  });
}
