import type { BodyRedactor, ResponseRedactor } from './response-redactor.js';

const ENCODER = new TextEncoder();
/** Markers of an error event in every event-stream dialect: `event: error`, or an unescaped `"error":` key in its data. */
const ERROR_MARKERS = ['event: error', 'event:error', '"error":', '"error" :'].map((marker) => ENCODER.encode(marker));
/**
 * A part every marker holds, searched first: most reads hold no marker, and one search for `rror` (its first byte is
 * rare in JSON, unlike `e` or `"`) costs about a fifteenth of searching for the four markers on this machine.
 */
const MARKER_PART = ENCODER.encode('rror');
const LF = 0x0a;
const CR = 0x0d;

/**
 * The body redactor of a 2xx event stream: the stream is the answer and is never rewritten, except an event that
 * is an error (a provider reports a failure after its 200 head this way, and may echo the key in it). Bytes are
 * handed on event by event (an adapter reads whole events anyway), and only an event holding an error marker is
 * passed through the connection's redactor.
 */
export function createEventStreamErrorRedactor(redactor: ResponseRedactor): BodyRedactor {
  let held: Uint8Array = new Uint8Array(0);
  const rewriteEvent = (event: Uint8Array): Uint8Array => {
    const body = redactor.createBodyRedactor();
    const head = body.push(event);
    const tail = body.flush();
    return tail.byteLength === 0 ? head : Buffer.concat([head, tail]);
  };
  const rewrite = (events: Uint8Array): Uint8Array => {
    if (indexOf(events, MARKER_PART) === -1 || !ERROR_MARKERS.some((marker) => indexOf(events, marker) !== -1)) return events;
    const parts: Uint8Array[] = [];
    let start = 0;
    while (start < events.byteLength) {
      const end = endOfFirstEvent(events, start);
      const event = events.subarray(start, end);
      parts.push(ERROR_MARKERS.some((marker) => indexOf(event, marker) !== -1) ? rewriteEvent(event) : event);
      start = end;
    }
    return Buffer.concat(parts);
  };
  return {
    push(chunk) {
      const data = held.byteLength === 0 ? chunk : Buffer.concat([held, chunk]);
      const end = endOfLastEvent(data);
      held = data.subarray(end);
      return end === 0 ? new Uint8Array(0) : rewrite(data.subarray(0, end));
    },
    flush() {
      const rest = held;
      held = new Uint8Array(0);
      return rest.byteLength === 0 ? rest : rewrite(rest);
    },
  };
}

/** The index just after the last blank line (`\n\n`, `\r\r` or `\r\n\r\n`), or 0 when no event is complete. */
function endOfLastEvent(data: Uint8Array): number {
  for (let index = data.byteLength - 1; index > 0; index -= 1) {
    const byte = data[index];
    if (byte !== LF && byte !== CR) continue;
    const previous = data[index - 1];
    if (byte === LF && previous === LF) return index + 1;
    if (byte === CR && previous === CR && data[index + 1] !== LF) return index + 1;
    if (byte === LF && previous === CR && index >= 3 && data[index - 2] === LF && data[index - 3] === CR) return index + 1;
  }
  return 0;
}

/** The index just after the first blank line at or after `from`, or the end of `data`. */
function endOfFirstEvent(data: Uint8Array, from: number): number {
  for (let index = from + 1; index < data.byteLength; index += 1) {
    const byte = data[index];
    const previous = data[index - 1];
    if (byte === LF && previous === LF) return index + 1;
    if (byte === CR && previous === CR && data[index + 1] !== LF) return index + 1;
    if (byte === LF && previous === CR && index - 3 >= from && data[index - 2] === LF && data[index - 3] === CR) return index + 1;
  }
  return data.byteLength;
}

function indexOf(data: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).indexOf(needle);
}
