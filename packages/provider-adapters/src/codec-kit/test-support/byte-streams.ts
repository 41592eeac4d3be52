import { readFileSync } from 'node:fs';
import type { SseEvent } from '../sse-decoder.js';

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function bytesOf(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Cuts `bytes` at the given offsets (any order, duplicates and out-of-range offsets ignored). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets)].filter((offset) => offset > 0 && offset < bytes.length).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    pieces.push(bytes.slice(start, cut));
    start = cut;
  }
  pieces.push(bytes.slice(start));
  return pieces;
}

/** A transport body that records how it was used. */
export interface TrackedBody extends AsyncIterable<Uint8Array> {
  /** How many times `next()` was called. */
  readonly pulls: number;
  /** How many times `return()` was called. */
  readonly returnCalls: number;
  /** Whether `return()` was called or the body was read to its end. */
  readonly released: boolean;
  /** Bytes handed out so far. */
  readonly bytesServed: number;
}

/** Options of {@link trackedBody}. */
export interface TrackedBodyOptions {
  /** Reject the pull after the last chunk with this error instead of ending. */
  readonly failWith?: unknown;
  /** After the chunks, repeat this chunk forever (a hostile body that never ends). */
  readonly repeatForever?: Uint8Array;
  /** Never settle the pull after the chunks (a stalled connection). */
  readonly stallAtEnd?: boolean;
}

/** A body over `chunks` whose iterator is a plain object (not a generator), so its use is observable. */
export function trackedBody(chunks: readonly Uint8Array[], options: TrackedBodyOptions = {}): TrackedBody {
  let position = 0;
  let finished = false;
  const state = { pulls: 0, returnCalls: 0, released: false, bytesServed: 0 };
  const iterator: AsyncIterator<Uint8Array> = {
    next: () => {
      state.pulls += 1;
      if (finished) return Promise.resolve({ done: true, value: undefined });
      const chunk = chunks[position];
      if (chunk !== undefined) {
        position += 1;
        state.bytesServed += chunk.byteLength;
        return Promise.resolve({ done: false, value: chunk });
      }
      if (options.repeatForever !== undefined) {
        state.bytesServed += options.repeatForever.byteLength;
        return Promise.resolve({ done: false, value: options.repeatForever });
      }
      if (options.stallAtEnd === true) return new Promise<IteratorResult<Uint8Array>>(() => undefined);
      finished = true;
      if (options.failWith !== undefined) return Promise.reject(options.failWith);
      state.released = true;
      return Promise.resolve({ done: true, value: undefined });
    },
    return: () => {
      state.returnCalls += 1;
      state.released = true;
      finished = true;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return {
    [Symbol.asyncIterator]: () => iterator,
    get pulls() {
      return state.pulls;
    },
    get returnCalls() {
      return state.returnCalls;
    },
    get released() {
      return state.released;
    },
    get bytesServed() {
      return state.bytesServed;
    },
  };
}

/** Reads an async iterable to its end. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** The bytes of a file in `../__fixtures__/`. */
export function readFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url)));
}

/** How a recorded `*.chunks.txt` file is framed back into SSE. */
export type RecordedFraming = 'data-only' | 'data-with-done' | 'event-from-type';

/** A recorded stream, framed as its provider sends it, with the events a decoder must yield. */
export interface RecordedStream {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly expected: SseEvent[];
}

/** Frames a `*.chunks.txt` fixture as SSE (`event:` lines from the JSON `type`, `[DONE]` for Chat Completions). */
export function recordedStream(name: string, framing: RecordedFraming): RecordedStream {
  const lines = new TextDecoder().decode(readFixture(name)).split('\n').filter((line) => line.length > 0);
  const expected: SseEvent[] = [];
  let text = '';
  for (const line of lines) {
    const event = framing === 'event-from-type' ? (JSON.parse(line) as { type: string }).type : undefined;
    if (event !== undefined) text += `event: ${event}\n`;
    text += `data: ${line}\n\n`;
    expected.push({ kind: 'event', event, id: undefined, data: line });
  }
  if (framing === 'data-with-done') {
    text += 'data: [DONE]\n\n';
    expected.push({ kind: 'event', event: undefined, id: undefined, data: '[DONE]' });
  }
  return { name, bytes: bytesOf(text), expected };
}

/** Every recorded stream of the codec-kit fixtures, framed. */
export function recordedStreams(): RecordedStream[] {
  return [
    recordedStream('vercel-ai__alibaba-tool-call.chunks.txt', 'data-with-done'),
    recordedStream('vercel-ai__azure-model-router.1.chunks.txt', 'data-with-done'),
    recordedStream('vercel-ai__deepseek-tool-call.chunks.txt', 'data-with-done'),
    recordedStream('vercel-ai__openai-text.chunks.txt', 'data-with-done'),
    recordedStream('vercel-ai__openai-error.1.chunks.txt', 'event-from-type'),
    recordedStream('vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt', 'event-from-type'),
    recordedStream('vercel-ai__anthropic-text.chunks.txt', 'event-from-type'),
    recordedStream('vercel-ai__anthropic-tool-no-args.chunks.txt', 'event-from-type'),
    recordedStream('vercel-ai__google-stream-tool-call-arguments.chunks.txt', 'data-only'),
  ];
}
