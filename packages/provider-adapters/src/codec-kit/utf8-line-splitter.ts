import { CodecErrorV1 } from '@tokenforge/model-protocol';

const LF = 0x0a;
const CR = 0x0d;
const BOM = 0xfeff;
const REPLACEMENT = '\ufffd';
const EMPTY = new Uint8Array(0);

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
 * Splits a byte stream into UTF-8 lines in linear time.
 *
 * A read is decoded in one call of a non-streaming `TextDecoder` (on V8 runtimes several times cheaper than
 * streaming decoding or one call per line) and cut into lines on the decoded text with native `indexOf`.
 * A decoded read without U+FFFD is proven valid and complete (a multi-byte sequence cut by the read would
 * decode to U+FFFD), so its text can be split anywhere; line byte counts then come from the text (its length
 * when every character is ASCII). A read whose text has U+FFFD (invalid bytes, a sequence cut by the read, or
 * a genuine U+FFFD) takes the exact byte path: line breaks found on bytes (a break byte never occurs inside a
 * multi-byte sequence), each line decoded on its own and, when U+FFFD shows, decoded again strictly to tell
 * the cases apart. The start of a line that continues in a later read is kept as text when its read was
 * clean and as raw bytes otherwise, and joined once when the line completes. A byte-order mark at the very
 * start is dropped; U+FEFF later is text.
 */
export class Utf8LineSplitter {
  /** Longest line accepted, in bytes without its break. The owner may lower or raise it between lines. */
  lineByteLimit: number;

  private readonly carriageReturnEndsLine: boolean;
  private readonly replace: boolean;
  private readonly frameName: string;
  private readonly lenientDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private readonly strictDecoder: TextDecoder | undefined;
  /** The start of the line that later reads continue: decoded pieces, then raw bytes (copies) not yet decodable. */
  private pendingTexts: string[] = [];
  private pendingRaw: Uint8Array[] = [];
  private pendingBytes = 0;
  private pendingCarriageReturn = false;
  private atStreamStart = true;

  constructor(options: Utf8LineSplitterOptions) {
    this.carriageReturnEndsLine = options.carriageReturnEndsLine;
    this.replace = options.invalidText === 'replace';
    this.lineByteLimit = options.lineByteLimit;
    this.frameName = options.frameName;
    this.strictDecoder = this.replace ? undefined : new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  }

  /** Consumes one chunk, handing every line it completes to `sink`. */
  push(chunk: Uint8Array, sink: LineSink): void {
    let start = 0;
    if (this.pendingCarriageReturn && chunk.length > 0) {
      this.pendingCarriageReturn = false;
      if (chunk[0] === LF) start = 1;
    }
    if (start >= chunk.length) return;
    const bytes = start === 0 ? chunk : chunk.subarray(start);
    const text = this.lenientDecoder.decode(bytes);
    if (text.indexOf(REPLACEMENT) < 0) this.pushValid(bytes, text, sink);
    else this.pushChecked(bytes, sink);
  }

  /** Ends the stream: a final line without a break is still a line. */
  finish(sink: LineSink): void {
    this.pendingCarriageReturn = false;
    if (this.pendingBytes === 0) return;
    const bytes = this.pendingBytes;
    sink.onLine(this.finishLine(this.takePending(EMPTY)), bytes);
  }

  /** `text` is all of `bytes`, valid and complete: lines are cut on the text. */
  private pushValid(bytes: Uint8Array, text: string, sink: LineSink): void {
    // The text is the bytes' exact decoding, so it holds U+0000 exactly where the bytes hold 0x00.
    if (!this.replace && text.indexOf('\u0000') >= 0) throw this.nulByte();
    if (this.pendingRaw.length > 0) {
      // This read starts on a sequence boundary, so the raw bytes before it decode on their own.
      const raw = this.decodeChecked(joinBytes(this.pendingRaw, this.pendingBytesRaw()));
      this.pendingRaw = [];
      this.pendingTexts.push(raw);
    }
    // Byte counts: the text length when every character is ASCII, else the break bytes found in step with the text.
    const ascii = text.length === bytes.length;
    const length = text.length;
    let position = 0;
    let byteCursor = 0;
    let nextLineFeed = text.indexOf('\n');
    let nextCarriageReturn = this.carriageReturnEndsLine ? text.indexOf('\r') : -1;
    while (nextLineFeed >= 0 || nextCarriageReturn >= 0) {
      let end: number;
      let breakBytes: number;
      if (nextCarriageReturn < 0 || (nextLineFeed >= 0 && nextLineFeed < nextCarriageReturn)) {
        end = nextLineFeed;
        breakBytes = 1;
      } else {
        end = nextCarriageReturn;
        if (end + 1 === length) {
          breakBytes = 1;
          this.pendingCarriageReturn = true;
        } else breakBytes = text.charCodeAt(end + 1) === LF ? 2 : 1;
      }
      let ownBytes = end - position;
      if (!ascii) {
        const byteEnd = bytes.indexOf(text.charCodeAt(end), byteCursor);
        ownBytes = byteEnd - byteCursor;
        byteCursor = byteEnd + breakBytes;
      }
      const lineBytes = this.pendingBytes + ownBytes;
      this.checkLimit(lineBytes);
      let line = text.slice(position, end);
      if (this.pendingBytes > 0) line = this.takePending(EMPTY) + line;
      position = end + breakBytes;
      if (nextLineFeed >= 0 && nextLineFeed < position) nextLineFeed = text.indexOf('\n', position);
      if (nextCarriageReturn >= 0 && nextCarriageReturn < position) nextCarriageReturn = text.indexOf('\r', position);
      sink.onLine(this.finishLine(line), lineBytes + breakBytes);
    }
    if (position < length) {
      const tailBytes = ascii ? length - position : bytes.length - byteCursor;
      this.checkLimit(this.pendingBytes + tailBytes);
      this.pendingTexts.push(position === 0 ? text : text.slice(position));
      this.pendingBytes += tailBytes;
    }
  }

  /** The exact byte path, for a read whose text shows U+FFFD. */
  private pushChecked(bytes: Uint8Array, sink: LineSink): void {
    if (!this.replace && hasZeroByte(bytes)) throw this.nulByte();
    const length = bytes.length;
    let start = 0;
    let nextLineFeed = bytes.indexOf(LF);
    let nextCarriageReturn = this.carriageReturnEndsLine ? bytes.indexOf(CR) : -1;
    while (nextLineFeed >= 0 || nextCarriageReturn >= 0) {
      let end: number;
      let breakBytes: number;
      if (nextCarriageReturn < 0 || (nextLineFeed >= 0 && nextLineFeed < nextCarriageReturn)) {
        end = nextLineFeed;
        breakBytes = 1;
      } else {
        end = nextCarriageReturn;
        if (end + 1 === length) {
          breakBytes = 1;
          this.pendingCarriageReturn = true;
        } else breakBytes = bytes[end + 1] === LF ? 2 : 1;
      }
      const lineBytes = this.pendingBytes + (end - start);
      this.checkLimit(lineBytes);
      const line = this.takePending(bytes.subarray(start, end));
      start = end + breakBytes;
      if (nextLineFeed >= 0 && nextLineFeed < start) nextLineFeed = bytes.indexOf(LF, start);
      if (nextCarriageReturn >= 0 && nextCarriageReturn < start) nextCarriageReturn = bytes.indexOf(CR, start);
      sink.onLine(this.finishLine(line), lineBytes + breakBytes);
    }
    if (start < length) {
      const remaining = length - start;
      this.checkLimit(this.pendingBytes + remaining);
      this.pendingRaw.push(bytes.slice(start));
      this.pendingBytes += remaining;
    }
  }

  /** The pending start of the line joined with `head` (the line's bytes in this read), decoded; clears the pending state. */
  private takePending(head: Uint8Array): string {
    let text = this.pendingTexts.length === 0 ? '' : this.pendingTexts.length === 1 ? (this.pendingTexts[0] as string) : this.pendingTexts.join('');
    if (this.pendingRaw.length > 0) {
      const rawBytes = this.pendingBytesRaw();
      this.pendingRaw.push(head);
      text += this.decodeChecked(joinBytes(this.pendingRaw, rawBytes + head.length));
    } else if (head.length > 0) text += this.decodeChecked(head);
    this.pendingTexts = [];
    this.pendingRaw = [];
    this.pendingBytes = 0;
    return text;
  }

  private pendingBytesRaw(): number {
    let total = 0;
    for (const part of this.pendingRaw) total += part.length;
    return total;
  }

  private finishLine(line: string): string {
    let result = line;
    if (this.atStreamStart) {
      this.atStreamStart = false;
      if (result.charCodeAt(0) === BOM) result = result.slice(1);
    }
    if (!this.carriageReturnEndsLine && result.charCodeAt(result.length - 1) === CR) result = result.slice(0, -1);
    // NUL bytes were refused per read when failing; here they only need replacing.
    if (this.replace && result.indexOf('\u0000') >= 0) result = result.replaceAll('\u0000', REPLACEMENT);
    return result;
  }

  private checkLimit(lineBytes: number): void {
    if (lineBytes > this.lineByteLimit) {
      throw new CodecErrorV1('frame-too-large', `${this.frameName} exceeds its byte limit`);
    }
  }

  /** Decodes complete bytes; when failing on invalid text, U+FFFD in the result is confirmed by a strict decode. */
  private decodeChecked(bytes: Uint8Array): string {
    const text = this.lenientDecoder.decode(bytes);
    if (this.strictDecoder === undefined || text.indexOf(REPLACEMENT) < 0) return text;
    try {
      return this.strictDecoder.decode(bytes);
    } catch {
      throw new CodecErrorV1('invalid-encoding', `${this.frameName} is not valid UTF-8`);
    }
  }

  private nulByte(): CodecErrorV1 {
    return new CodecErrorV1('invalid-encoding', `${this.frameName} contains a NUL byte`);
  }
}

/**
 * Whether `bytes` holds a 0x00 byte. Searching for zero is a plain byte loop on V8 (`indexOf(0)` does not get
 * the vectorized search other values get), so long inputs are checked four bytes at a time.
 */
function hasZeroByte(bytes: Uint8Array): boolean {
  const length = bytes.length;
  if (length < 128) return bytes.indexOf(0) >= 0;
  const head = (4 - (bytes.byteOffset & 3)) & 3;
  for (let index = 0; index < head; index += 1) if (bytes[index] === 0) return true;
  const words = (length - head) >>> 2;
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset + head, words);
  for (let index = 0; index < words; index += 1) {
    const word = view[index] as number;
    // Sets a high bit exactly when some byte of the word is zero.
    if (((word - 0x01010101) & ~word & 0x80808080) !== 0) return true;
  }
  for (let index = head + words * 4; index < length; index += 1) if (bytes[index] === 0) return true;
  return false;
}

function joinBytes(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
