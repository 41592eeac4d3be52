import { CodecErrorV1 } from '@tokenforge/model-protocol';
import { Utf8LineSplitter, type LineSink } from './utf8-line-splitter.js';

/** Default per-event byte cap of the SSE decoder: 8 MiB (raise it for families that stream large images). */
export const DEFAULT_MAX_SSE_EVENT_BYTES = 8 * 1024 * 1024;

/** A dispatched server-sent event. */
export interface SseEvent {
  /** Discriminates the item kinds. */
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
  /** Discriminates the item kinds. */
  readonly kind: 'comment';
  /** The text after the colon, with one leading space removed. */
  readonly text: string;
}

/**
 * A JSON value sent outside SSE framing (Gemini can write a bare `{"error":…}` object into the stream),
 * reported only with `bareJson: true`. The text is not parsed: use the safe JSON parser.
 */
export interface SseBareJson {
  /** Discriminates the item kinds. */
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
  return new SseLineParser(options);
}

class SseLineParser implements SseParser, LineSink {
  private readonly maxEventBytes: number;
  private readonly reportComments: boolean;
  private readonly acceptBareJson: boolean;
  private readonly splitter: Utf8LineSplitter;
  private items: SseItem[] = [];
  /** The event's data so far: its first `data:` line, then the later ones joined on (most events have one). */
  private data: string | undefined = undefined;
  private extraDataLines: string[] | undefined = undefined;
  private eventName: string | undefined = undefined;
  private eventId: string | undefined = undefined;
  private fieldSeen = false;
  private eventBytes = 0;
  private bareJson: BareJsonScanner | undefined = undefined;

  constructor(options: SseDecoderOptions | undefined) {
    this.maxEventBytes = options?.maxEventBytes ?? DEFAULT_MAX_SSE_EVENT_BYTES;
    this.reportComments = options?.comments === 'report';
    this.acceptBareJson = options?.bareJson === true;
    this.splitter = new Utf8LineSplitter({
      carriageReturnEndsLine: true,
      invalidText: options?.invalidText ?? 'fail',
      lineByteLimit: this.maxEventBytes,
      frameName: 'SSE event',
    });
  }

  push(chunk: Uint8Array): readonly SseItem[] {
    this.splitter.push(chunk, this);
    return this.takeItems();
  }

  finish(): readonly SseItem[] {
    this.splitter.finish(this);
    if (this.bareJson !== undefined) {
      throw new CodecErrorV1('malformed-json', 'bare JSON value in the SSE stream is incomplete at its end');
    }
    this.dispatch();
    return this.takeItems();
  }

  onLine(line: string, byteLength: number): void {
    if (this.bareJson !== undefined) {
      this.count(byteLength);
      if (this.bareJson.feed(line)) {
        this.items.push({ kind: 'bare-json', text: this.bareJson.text() });
        this.bareJson = undefined;
        this.resetBudget();
      }
      return;
    }
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    const first = line.charCodeAt(0);
    if (first === COLON) {
      if (this.reportComments) {
        this.items.push({ kind: 'comment', text: line.charCodeAt(1) === SPACE ? line.slice(2) : line.slice(1) });
      }
      return;
    }
    this.count(byteLength);
    if (this.acceptBareJson && !this.fieldSeen && (first === OPEN_BRACE || first === OPEN_BRACKET)) {
      const scanner = new BareJsonScanner();
      if (scanner.feed(line)) {
        this.items.push({ kind: 'bare-json', text: scanner.text() });
        this.resetBudget();
      } else this.bareJson = scanner;
      return;
    }
    this.fieldSeen = true;
    const colon = line.indexOf(':');
    if (colon === 4 && line.startsWith('data')) {
      this.addData(line.charCodeAt(5) === SPACE ? line.slice(6) : line.slice(5));
      return;
    }
    let field: string;
    let value: string;
    if (colon < 0) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === SPACE ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        this.addData(value);
        break;
      case 'event':
        this.eventName = value;
        break;
      case 'id':
        this.eventId = value;
        break;
      default:
        // `retry` and unknown fields are ignored, as the SSE rules say.
        break;
    }
  }

  private addData(value: string): void {
    if (this.data === undefined) this.data = value;
    else if (this.extraDataLines === undefined) this.extraDataLines = [this.data, value];
    else this.extraDataLines.push(value);
  }

  private count(byteLength: number): void {
    this.eventBytes += byteLength;
    if (this.eventBytes > this.maxEventBytes) {
      throw new CodecErrorV1('frame-too-large', 'SSE event exceeds its byte limit');
    }
    this.splitter.lineByteLimit = this.maxEventBytes - this.eventBytes;
  }

  private resetBudget(): void {
    this.eventBytes = 0;
    this.splitter.lineByteLimit = this.maxEventBytes;
  }

  private dispatch(): void {
    if (this.data !== undefined) {
      const data = this.extraDataLines === undefined ? this.data : this.extraDataLines.join('\n');
      this.items.push({ kind: 'event', event: this.eventName, id: this.eventId, data });
      this.data = undefined;
      this.extraDataLines = undefined;
    }
    this.eventName = undefined;
    this.eventId = undefined;
    this.fieldSeen = false;
    this.resetBudget();
  }

  private takeItems(): readonly SseItem[] {
    if (this.items.length === 0) return NO_ITEMS;
    const items = this.items;
    this.items = [];
    return items;
  }
}

const NO_ITEMS: readonly SseItem[] = Object.freeze([]);
const COLON = 0x3a;
const SPACE = 0x20;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** Follows a JSON value across lines until its outermost object or array closes (strings and escapes aware). */
class BareJsonScanner {
  private readonly lines: string[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Adds a line; returns true when the value is complete. */
  feed(line: string): boolean {
    this.lines.push(line);
    for (let index = 0; index < line.length; index += 1) {
      const code = line.charCodeAt(index);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === 0x5c) this.escaped = true;
        else if (code === 0x22) this.inString = false;
      } else if (code === 0x22) this.inString = true;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) this.depth += 1;
      else if (code === 0x7d || code === 0x5d) {
        this.depth -= 1;
        if (this.depth === 0) return true;
      }
    }
    return false;
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/**
 * Decodes a transport body as server-sent events, pulling one chunk at a time (backpressure). The body is
 * released when the stream ends, fails, or the consumer stops early (`return()`).
 */
export function decodeSseStream(
  body: AsyncIterable<Uint8Array>,
  options?: SseDecoderOptions,
): AsyncGenerator<SseItem, void, undefined> {
  return decodeSseItems(body, options);
}

async function* decodeSseItems(
  body: AsyncIterable<Uint8Array>,
  options: SseDecoderOptions | undefined,
): AsyncGenerator<SseItem, void, undefined> {
  const parser = createSseParser(options);
  // for-await closes the body when this generator throws or its consumer returns early.
  for await (const chunk of body) {
    for (const item of parser.push(chunk)) yield item;
  }
  for (const item of parser.finish()) yield item;
}
