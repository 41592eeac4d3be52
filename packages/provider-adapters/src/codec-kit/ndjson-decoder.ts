import { CodecErrorV1 } from '@tokenforge/model-protocol';
import type { SafeJsonLimits } from './safe-json.js';

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
  void body;
  void options;
  throw new CodecErrorV1('unsupported-feature', 'not implemented yet');
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
  void body;
  void options;
  throw new CodecErrorV1('unsupported-feature', 'not implemented yet');
}
