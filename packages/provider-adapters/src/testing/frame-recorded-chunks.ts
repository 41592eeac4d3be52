import { parseSafeJson } from '../codec-kit/index.js';
import { FixtureTransportErrorV1 } from './fixture-transport-error.js';

/**
 * How the payload lines of a recorded `*.chunks.txt` file are framed back into a provider stream body:
 * - `openai-chat`: `data: <json>` frames, then `data: [DONE]` (OpenAI Chat Completions and compatibles);
 * - `typed-sse`: `event: <type>` and `data: <json>` frames, the event name being the payload's `type` field
 *   (OpenAI Responses, Anthropic Messages);
 * - `gemini-sse`: `data: <json>` frames without a terminator (Gemini `streamGenerateContent?alt=sse`);
 * - `raw`: each line as is, newline-terminated (NDJSON streams).
 */
export type FixtureChunkFramingV1 = 'openai-chat' | 'typed-sse' | 'gemini-sse' | 'raw';

/** Options of {@link frameRecordedChunksV1}. */
export interface FrameRecordedChunksOptionsV1 {
  /** The framing. */
  readonly framing: FixtureChunkFramingV1;
  /** Line ending of the SSE framings: `lf` (default) or `crlf` (what Gemini sends). */
  readonly lineEnding?: 'lf' | 'crlf';
  /** Leave out the `data: [DONE]` terminator of `openai-chat`, to replay a truncated stream. Default false. */
  readonly omitTerminator?: boolean;
}

/**
 * Frames the payload lines of a recorded chunks file (one JSON document per line) as the provider sent them.
 * Returns one string per frame, in order; blank lines are skipped.
 *
 * @throws {FixtureTransportErrorV1} `fixture-invalid` when a `typed-sse` line is not a JSON object with a string `type`.
 */
export function frameRecordedChunksV1(text: string, options: FrameRecordedChunksOptionsV1): string[] {
  const newline = options.lineEnding === 'crlf' ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/).filter((line) => line.trim().length > 0);
  const frames = lines.map((line, lineIndex) => {
    switch (options.framing) {
      case 'openai-chat':
      case 'gemini-sse':
        return `data: ${line}${newline}${newline}`;
      case 'typed-sse':
        return `event: ${eventType(line, lineIndex)}${newline}data: ${line}${newline}${newline}`;
      case 'raw':
        return `${line}\n`;
      default: {
        const unknownFraming: never = options.framing;
        throw new FixtureTransportErrorV1('fixture-invalid', `unknown chunk framing ${String(unknownFraming)}`);
      }
    }
  });
  if (options.framing === 'openai-chat' && options.omitTerminator !== true) {
    frames.push(`data: [DONE]${newline}${newline}`);
  }
  return frames;
}

function eventType(line: string, lineIndex: number): string {
  let payload: unknown;
  try {
    payload = parseSafeJson(line);
  } catch {
    throw new FixtureTransportErrorV1('fixture-invalid', `chunk line ${lineIndex + 1} is not valid JSON`);
  }
  const type = typeof payload === 'object' && payload !== null ? (payload as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !/^[A-Za-z0-9_.:-]+$/.test(type)) {
    throw new FixtureTransportErrorV1('fixture-invalid', `chunk line ${lineIndex + 1} has no usable string type for typed-sse framing`);
  }
  return type;
}
