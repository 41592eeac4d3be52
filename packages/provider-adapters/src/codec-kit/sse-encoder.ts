import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** One server-sent event to write. */
export interface SseEncodableEvent {
  /** The `event:` name; omitted when absent. Must not contain a line break. */
  readonly event?: string | undefined;
  /** The `id:` value; omitted when absent. Must not contain a line break or NUL. */
  readonly id?: string | undefined;
  /** The payload; each line of it becomes one `data:` line (`\r\n`, `\r` and `\n` all split). */
  readonly data: string;
}

/** The payload of the OpenAI-style end-of-stream sentinel. */
export const SSE_DONE_DATA = '[DONE]';

const encoder = new TextEncoder();
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Formats one event as SSE text ending with the blank line that dispatches it.
 *
 * @throws {CodecErrorV1} `invalid-request` when the name or id would break the framing.
 */
export function formatSseEvent(event: SseEncodableEvent): string {
  let text = '';
  if (event.event !== undefined) {
    if (LINE_BREAK.test(event.event)) throw new CodecErrorV1('invalid-request', 'SSE event name contains a line break');
    text += `event: ${event.event}\n`;
  }
  if (event.id !== undefined) {
    if (LINE_BREAK.test(event.id) || event.id.includes('\u0000')) {
      throw new CodecErrorV1('invalid-request', 'SSE id contains a line break or NUL');
    }
    text += `id: ${event.id}\n`;
  }
  const data = event.data;
  if (data.indexOf('\n') < 0 && data.indexOf('\r') < 0) return `${text}data: ${data}\n\n`;
  for (const line of data.split(LINE_BREAK)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** {@link formatSseEvent} as UTF-8 bytes. */
export function encodeSseEvent(event: SseEncodableEvent): Uint8Array {
  return encoder.encode(formatSseEvent(event));
}

/** The bytes of `data: [DONE]` and its blank line. */
export function encodeSseDone(): Uint8Array {
  return encoder.encode(`data: ${SSE_DONE_DATA}\n\n`);
}

/**
 * A comment line (`: text`) and its blank line, for keep-alives. Decoders ignore it.
 *
 * @throws {CodecErrorV1} `invalid-request` when the text contains a line break.
 */
export function encodeSseComment(text: string): Uint8Array {
  if (LINE_BREAK.test(text)) throw new CodecErrorV1('invalid-request', 'SSE comment contains a line break');
  return encoder.encode(`: ${text}\n\n`);
}
