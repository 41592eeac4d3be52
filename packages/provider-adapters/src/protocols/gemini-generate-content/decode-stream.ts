import type { NormalizedStreamEventV3 } from '@tokenforge/model-protocol';
import type { AdapterStreamMachine, AdapterStreamStep } from '../../codec-kit/adapter-stream.js';
import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { parseSafeJson } from '../../codec-kit/safe-json.js';
import type { SseDecoderOptions, SseItem } from '../../codec-kit/sse-decoder.js';
import { GeminiResponseAssembler } from './response-assembler.js';
import { isJsonObject, readGeminiResponse } from './wire-readers.js';

/**
 * SSE decoder options for `streamGenerateContent?alt=sse`: bare JSON values between events are reported (Gemini
 * can write a raw `{"error": ...}` object into the stream outside SSE framing); comments are skipped; line
 * endings `\n`, `\r\n` and `\r` are all accepted by the kit's parser.
 */
export const GEMINI_SSE_DECODER_OPTIONS: SseDecoderOptions = Object.freeze({ bareJson: true });

/**
 * The stream state machine over SSE items (fact sheet §0, §4.5, §4.6):
 * - each `data:` event holds one whole `GenerateContentResponse` chunk, mapped by
 *   {@link GeminiResponseAssembler}; an event with an `event:` name other than `message` is not Gemini framing
 *   and is a violation;
 * - a bare JSON value must be an error object: it ends the stream as a failed terminal; any other bare value
 *   is a violation; an `error` object inside a `data:` event is treated the same way;
 * - there is no end sentinel: a clean end of the body after a chunk with a finish reason completes the stream
 *   (content after a finish reason needs a later one); an end without one, or a body that ends mid-event,
 *   leaves the terminal to the kit (`truncated-stream`).
 */
export function createGeminiStreamMachine(): AdapterStreamMachine<SseItem> {
  const assembler = new GeminiResponseAssembler();
  return {
    onFrame(item: SseItem): AdapterStreamStep | undefined {
      switch (item.kind) {
        case 'comment':
          return undefined;
        case 'event': {
          if (item.event !== undefined && item.event !== 'message') {
            throw new ProtocolViolationError('unexpected-event', 'Gemini streams carry no named SSE events');
          }
          const response = readGeminiResponse(parseSafeJson(item.data));
          const events = assembler.push(response);
          return response.error === undefined ? { events } : withTerminal(events, assembler);
        }
        case 'bare-json': {
          const value = parseSafeJson(item.text);
          if (!isJsonObject(value) || !isJsonObject(value.error)) {
            throw new ProtocolViolationError('unexpected-event', 'a bare JSON value in the stream is not an error object');
          }
          return withTerminal(assembler.push(readGeminiResponse(value)), assembler);
        }
        default: {
          const unexpected: never = item;
          throw new ProtocolViolationError('unexpected-event', `unknown SSE item ${String(unexpected)}`);
        }
      }
    },
    onEnd(): AdapterStreamStep | undefined {
      const events = assembler.end();
      const terminal = assembler.finish();
      return terminal === undefined ? { events } : { events, terminal };
    },
    usageSoFar: () => assembler.usageSoFar(),
  };
}

function withTerminal(events: NormalizedStreamEventV3[], assembler: GeminiResponseAssembler): AdapterStreamStep {
  const terminal = assembler.finish();
  return terminal === undefined ? { events } : { events, terminal };
}
