import { CodecErrorV1 } from '@tokenforge/model-protocol';

const LF = 0x0a;
const CR = 0x0d;
const STREAM: TextDecodeOptions = { stream: true };

/** Receives complete lines. */
export interface LineSink {
  /** One complete line, without its line break; `byteLength` counts the line and its break. */
  onLine(line: string, byteLength: number): void;
}

/** Options of {@link Utf8LineSplitter}. */
export interface Utf8LineSplitterOptions {
  /** Whether a lone `\r` ends a line (SSE) or only `\n` does (NDJSON; a `\r` before it is dropped). */
  readonly carriageReturnEndsLine: boolean;
  /** `fail`: invalid UTF-8 or NUL throws `invalid-encoding`; `replace`: both become U+FFFD. */
  readonly invalidText: 'fail' | 'replace';
  /** Initial value of {@link Utf8LineSplitter.lineByteLimit}. */
  readonly lineByteLimit: number;
  /** What a line past the limit is, for the error message (`SSE event`, `NDJSON line`). */
  readonly frameName: string;
}

/**
 * Splits a byte stream into UTF-8 lines in linear time. Line breaks are found on bytes with native
 * `indexOf` (a break byte never occurs inside a multi-byte UTF-8 sequence); the bytes of a line that spans
 * reads are decoded piece by piece by a streaming `TextDecoder` and the pieces joined once, so every byte is
 * scanned and decoded once. A byte-order mark at the very start is dropped (the first line uses a decoder that
 * strips it, later lines one that keeps U+FEFF as text).
 */
export class Utf8LineSplitter {
  /** Longest line accepted, in bytes without its break. The owner may lower or raise it between lines. */
  lineByteLimit: number;

  private readonly carriageReturnEndsLine: boolean;
  private readonly replace: boolean;
  private readonly frameName: string;
  private readonly bodyDecoder: TextDecoder;
  private decoder: TextDecoder;
  private readonly lenientBodyDecoder: TextDecoder;
  private lenientDecoder: TextDecoder;
  private readonly pendingParts: string[] = [];
  private pendingBytes = 0;
  private pendingCarriageReturn = false;

  constructor(options: Utf8LineSplitterOptions) {
    this.carriageReturnEndsLine = options.carriageReturnEndsLine;
    this.replace = options.invalidText === 'replace';
    this.lineByteLimit = options.lineByteLimit;
    this.frameName = options.frameName;
    const fatal = !this.replace;
    this.decoder = new TextDecoder('utf-8', { fatal, ignoreBOM: false });
    this.bodyDecoder = new TextDecoder('utf-8', { fatal, ignoreBOM: true });
    this.lenientDecoder = new TextDecoder('utf-8', { ignoreBOM: false });
    this.lenientBodyDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
  }

  /** Consumes one chunk, handing every line it completes to `sink`. */
  push(chunk: Uint8Array, sink: LineSink): void {
    const length = chunk.length;
    if (length === 0) return;
    let start = 0;
    if (this.pendingCarriageReturn) {
      this.pendingCarriageReturn = false;
      if (chunk[0] === LF) start = 1;
    }
    if (!this.replace && chunk.indexOf(0, start) >= 0) {
      throw new CodecErrorV1('invalid-encoding', `${this.frameName} contains a NUL byte`);
    }
    let nextLineFeed = chunk.indexOf(LF, start);
    let nextCarriageReturn = this.carriageReturnEndsLine ? chunk.indexOf(CR, start) : -1;
    while (nextLineFeed >= 0 || nextCarriageReturn >= 0) {
      let end: number;
      let breakLength: number;
      if (nextCarriageReturn < 0 || (nextLineFeed >= 0 && nextLineFeed < nextCarriageReturn)) {
        end = nextLineFeed;
        breakLength = 1;
      } else {
        end = nextCarriageReturn;
        if (end + 1 === length) {
          breakLength = 1;
          this.pendingCarriageReturn = true;
        } else breakLength = chunk[end + 1] === LF ? 2 : 1;
      }
      const lineBytes = this.pendingBytes + (end - start);
      this.checkLimit(lineBytes);
      const line = this.completeLine(chunk.subarray(start, end));
      start = end + breakLength;
      if (nextLineFeed >= 0 && nextLineFeed < start) nextLineFeed = chunk.indexOf(LF, start);
      if (nextCarriageReturn >= 0 && nextCarriageReturn < start) nextCarriageReturn = chunk.indexOf(CR, start);
      sink.onLine(line, lineBytes + breakLength);
    }
    if (start < length) {
      const remaining = length - start;
      this.checkLimit(this.pendingBytes + remaining);
      const part = this.decode(chunk.subarray(start), true);
      if (part.length > 0) this.pendingParts.push(part);
      this.pendingBytes += remaining;
    }
  }

  /** Ends the stream: a final line without a break is still a line. */
  finish(sink: LineSink): void {
    this.pendingCarriageReturn = false;
    if (this.pendingBytes === 0) return;
    const bytes = this.pendingBytes;
    sink.onLine(this.completeLine(new Uint8Array(0)), bytes);
  }

  private checkLimit(lineBytes: number): void {
    if (lineBytes > this.lineByteLimit) {
      throw new CodecErrorV1('frame-too-large', `${this.frameName} exceeds its byte limit`);
    }
  }

  private completeLine(tail: Uint8Array): string {
    let line: string;
    if (this.pendingBytes === 0) {
      line = tail.length === 0 ? '' : this.decodeWhole(tail);
    } else {
      line = this.decode(tail, false);
    }
    this.decoder = this.bodyDecoder;
    this.lenientDecoder = this.lenientBodyDecoder;
    if (this.pendingParts.length > 0) {
      this.pendingParts.push(line);
      line = this.pendingParts.join('');
      this.pendingParts.length = 0;
    }
    this.pendingBytes = 0;
    if (!this.carriageReturnEndsLine && line.charCodeAt(line.length - 1) === CR) line = line.slice(0, -1);
    if (this.replace && line.indexOf('\u0000') >= 0) line = line.replaceAll('\u0000', '\ufffd');
    return line;
  }

  /**
   * A line read in one piece. Lenient decoding is much cheaper than fatal decoding on this runtime, and exact:
   * a result without U+FFFD proves the bytes valid; only a line that has one is decoded again, strictly.
   */
  private decodeWhole(bytes: Uint8Array): string {
    const text = this.lenientDecoder.decode(bytes);
    if (this.replace || text.indexOf('\ufffd') < 0) return text;
    return this.decode(bytes, false);
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    try {
      return stream ? this.decoder.decode(bytes, STREAM) : this.decoder.decode(bytes);
    } catch {
      throw new CodecErrorV1('invalid-encoding', `${this.frameName} is not valid UTF-8`);
    }
  }
}
