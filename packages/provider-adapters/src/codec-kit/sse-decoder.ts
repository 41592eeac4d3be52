import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** Default per-event byte cap of the SSE decoder: 8 MiB (raise it for families that stream large images). */
export const DEFAULT_MAX_SSE_EVENT_BYTES = 8 * 1024 * 1024;

/** A dispatched server-sent event. */
export interface SseEvent {
  readonly kind: 'event';
  /** The `event:` field of this event, or `undefined` when it had none (the SSE default `message` is not filled in). */
  readonly event: string | undefined;
  /** The `id:` field of this event, or `undefined` when it had none (not carried over from earlier events). */
  readonly id: string | undefined;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
}

/** A comment line (`:` first), reported only with `comments: 'report'`. */
export interface SseComment {
  readonly kind: 'comment';
  /** The text after the colon, with one leading space removed. */
  readonly text: string;
}

/**
 * A JSON value sent outside SSE framing (Gemini can write a bare `{"error":…}` object into the stream),
 * reported only with `bareJson: true`. The text is not parsed: use the safe JSON parser.
 */
export interface SseBareJson {
  readonly kind: 'bare-json';
  /** The JSON text, its lines joined with `\n`. */
  readonly text: string;
}

/** One item of an SSE stream. */
export type SseItem = SseEvent | SseComment | SseBareJson;

/** Options of the SSE decoder. */
export interface SseDecoderOptions {
  /**
   * Cap of one event in bytes, counting its field lines and their line breaks (default
   * {@link DEFAULT_MAX_SSE_EVENT_BYTES}). Passing it fails with `frame-too-large` at once, without buffering
   * the rest of the event.
   */
  readonly maxEventBytes?: number;
  /** Whether comment lines are skipped (default) or reported as {@link SseComment} items. */
  readonly comments?: 'skip' | 'report';
  /**
   * When true, a line starting with `{` or `[` where an event would start begins a bare JSON value, read up
   * to its matching close (it may span lines) and reported as an {@link SseBareJson} item. When false
   * (default) such a line is an SSE field with an unknown name, which the SSE rules ignore.
   */
  readonly bareJson?: boolean;
  /**
   * What invalid UTF-8 and NUL bytes do: `fail` (default) throws `invalid-encoding`; `replace` turns each
   * into U+FFFD, as a browser's EventSource would.
   */
  readonly invalidText?: 'fail' | 'replace';
}

/**
 * A push parser: feed it byte chunks, get the items completed so far. For callers that own their read loop
 * (and for benchmarks); {@link decodeSseStream} wraps it as an async iterable.
 */
export interface SseParser {
  /** Consumes one chunk; returns the items it completed (possibly none). */
  push(chunk: Uint8Array): readonly SseItem[];
  /** Ends the stream: flushes a final event that had no blank line after it. */
  finish(): readonly SseItem[];
}

/**
 * Creates a {@link SseParser}. Rules (WHATWG SSE): lines end with `\n`, `\r\n` or `\r`, mixed freely; a blank
 * line dispatches the event if it had a `data:` line; one space after the field colon is dropped; several
 * `data:` lines join with `\n`; `retry:` and unknown fields are ignored; a byte-order mark at the very start is
 * dropped. Bytes are split at line breaks (which never fall inside a multi-byte UTF-8 character) and decoded
 * with a streaming `TextDecoder`, each byte once; the work is linear in the input.
 *
 * Failures are {@link CodecErrorV1}: `frame-too-large`, `invalid-encoding`, and `malformed-json` for a bare
 * JSON value cut off by the end of the stream.
 */
export function createSseParser(options?: SseDecoderOptions): SseParser {
  void options;
  throw new CodecErrorV1('unsupported-feature', 'not implemented yet');
}

/**
 * Decodes a transport body as server-sent events, pulling one chunk at a time (backpressure). The body is
 * released when the stream ends, fails, or the consumer stops early (`return()`).
 */
export async function* decodeSseStream(
  body: AsyncIterable<Uint8Array>,
  options?: SseDecoderOptions,
): AsyncGenerator<SseItem, void, undefined> {
  const parser = createSseParser(options);
  for await (const chunk of body) yield* parser.push(chunk);
  yield* parser.finish();
}
