import { Utf8LineSplitter, type LineSink } from './utf8-line-splitter.js';
import { parseSafeJson, type SafeJsonLimits } from './safe-json.js';

/** Default cap of one NDJSON line: 8 MiB. */
export const DEFAULT_MAX_NDJSON_LINE_BYTES = 8 * 1024 * 1024;

/** Options of the NDJSON decoders. */
export interface NdjsonDecoderOptions {
  /** Cap of one line in bytes, line break excluded (default {@link DEFAULT_MAX_NDJSON_LINE_BYTES}); `frame-too-large` past it. */
  readonly maxLineBytes?: number;
  /** What invalid UTF-8 and NUL bytes do: `fail` (default, `invalid-encoding`) or `replace` with U+FFFD. */
  readonly invalidText?: 'fail' | 'replace';
}

/** Options of {@link decodeNdjsonValues}. */
export interface NdjsonValuesOptions extends NdjsonDecoderOptions {
  /** Deepest accepted nesting of each document (default 64). */
  readonly maxDepth?: SafeJsonLimits['maxDepth'];
}

const BLANK = /^[ \t\r]*$/;

class LineCollector implements LineSink {
  lines: string[] = [];

  onLine(line: string): void {
    if (line.length === 0 || (isJsonSpace(line.charCodeAt(0)) && BLANK.test(line))) return;
    this.lines.push(line);
  }

  take(): string[] {
    const lines = this.lines;
    this.lines = [];
    return lines;
  }
}

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d;
}

/**
 * Decodes a body as newline-delimited lines: `\n` or `\r\n` ends a line, a final line without a break is
 * still a line, lines holding only whitespace are skipped (they are not documents), a byte-order mark at the
 * start is dropped. Linear time, streaming UTF-8; the body is released on every path.
 *
 * @throws {CodecErrorV1} `frame-too-large` or `invalid-encoding`.
 */
export async function* decodeNdjsonLines(
  body: AsyncIterable<Uint8Array>,
  options?: NdjsonDecoderOptions,
): AsyncGenerator<string, void, undefined> {
  const splitter = new Utf8LineSplitter({
    carriageReturnEndsLine: false,
    invalidText: options?.invalidText ?? 'fail',
    lineByteLimit: options?.maxLineBytes ?? DEFAULT_MAX_NDJSON_LINE_BYTES,
    frameName: 'NDJSON line',
  });
  const collector = new LineCollector();
  for await (const chunk of body) {
    splitter.push(chunk, collector);
    if (collector.lines.length > 0) {
      for (const line of collector.take()) yield line;
    }
  }
  splitter.finish(collector);
  for (const line of collector.take()) yield line;
}

/**
 * {@link decodeNdjsonLines} with each line parsed by the safe JSON parser (its byte limit is the line cap).
 *
 * @throws {CodecErrorV1} as {@link decodeNdjsonLines}, plus the safe parser's codes.
 */
export async function* decodeNdjsonValues(
  body: AsyncIterable<Uint8Array>,
  options?: NdjsonValuesOptions,
): AsyncGenerator<unknown, void, undefined> {
  const limits: SafeJsonLimits = {
    maxBytes: options?.maxLineBytes ?? DEFAULT_MAX_NDJSON_LINE_BYTES,
    ...(options?.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
  };
  for await (const line of decodeNdjsonLines(body, options)) yield parseSafeJson(line, limits);
}
