import type {
  AdapterTerminalOutcomeV3,
  EgressContextV1,
  EgressFailureV3,
  EgressStreamEncoderV1,
  NormalizedStreamEventV1,
  UsageV3,
} from '@tokenforge/model-protocol';
import { encodeSseEvent } from '../../codec-kit/sse-encoder.js';
import { assertNever } from './assert-never.js';
import { responseEnvelope, toolCallPart, type WirePart } from './encode-client-parts.js';
import { blockReasonOf, toGeminiFinishReason } from './encode-client-finish-reason.js';
import { googleErrorEnvelope, mapFailureToGoogleError } from './encode-client-error.js';
import type { GeminiStreamFramingV1 } from './ingress.js';

const textEncoder = new TextEncoder();
const EMPTY = new Uint8Array(0);
const CANCELLED: EgressFailureV3 = { source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' };
const MALFORMED_OUTPUT: EgressFailureV3 = { source: 'provider', failure: { code: 'protocol-violation', retryable: false } };

/** Writes the responses of one stream in one framing (see `GeminiStreamFramingV1`). */
interface Framer {
  readonly contentType: string;
  response(json: string): Uint8Array;
  last(json: string): Uint8Array;
  error(json: string): Uint8Array;
}

function sseFramer(): Framer {
  return {
    contentType: 'text/event-stream',
    response: (json) => encodeSseEvent({ data: json }),
    last: (json) => encodeSseEvent({ data: json }),
    // An SSE event, not the bare object Gemini itself may write: `@google/genai` finds an error object in any event of
    // any read, while a bare object is seen only when it arrives alone in one read (merged reads ended in "Incomplete
    // JSON segment at the end"). The Python SDK reads both forms.
    error: (json) => encodeSseEvent({ data: json }),
  };
}

function jsonArrayFramer(): Framer {
  let opened = false;
  const element = (json: string): string => {
    const separator = opened ? ',\r\n' : '[';
    opened = true;
    return `${separator}${json}`;
  };
  return {
    contentType: 'application/json; charset=utf-8',
    response: (json) => textEncoder.encode(element(json)),
    last: (json) => textEncoder.encode(`${element(json)}]`),
    error: (json) => textEncoder.encode(`${element(json)}]`),
  };
}

/**
 * The stream encoder: each event a `GenerateContentResponse` fragment with one candidate, framed as `framing` says
 * (SSE by default):
 * - text and refusal deltas → `{text}` parts, reasoning deltas → `{text, thought: true}` parts;
 * - a reasoning end with a signature → an empty thought part carrying `thoughtSignature`;
 * - a tool call → one `functionCall` part with the whole `args` object at `tool-call-end` (Gemini sends calls
 *   whole);
 * - block starts and ends, usage snapshots and redacted reasoning write nothing; the last usage goes on the final
 *   chunk, with `finishReason` (or `promptFeedback.blockReason` for a blocked prompt);
 * - a failed or cancelled terminal writes the `{"error": ...}` object Gemini reports errors mid-stream with, as the
 *   last SSE event (which `@google/genai` detects however the bytes are split into reads) or as the array's last
 *   element.
 * A tool call whose arguments are not a JSON object cannot be sent to a Gemini client: it is left out and the
 * stream then ends with a bare 500 `INTERNAL` error instead of a finish reason.
 */
export function createGeminiStreamEncoder(context: EgressContextV1, framing: GeminiStreamFramingV1 = 'sse'): EgressStreamEncoderV1 {
  const calls = new Map<number, { toolCallId: string; toolName: string }>();
  const framer = framing === 'json-array' ? jsonArrayFramer() : sseFramer();
  let usage: UsageV3 | undefined;
  let failedCall = false;

  const chunk = (parts: WirePart[]): Uint8Array =>
    framer.response(JSON.stringify(responseEnvelope(context, { candidates: [{ content: { role: 'model', parts }, index: 0 }] }, undefined)));

  const bareError = (failure: EgressFailureV3): Uint8Array => framer.error(JSON.stringify(googleErrorEnvelope(mapFailureToGoogleError(failure))));

  return {
    contentType: framer.contentType,
    encodeEvent(event: NormalizedStreamEventV1): Uint8Array {
      switch (event.type) {
        case 'text-delta':
        case 'refusal-delta':
          return event.delta.length === 0 ? EMPTY : chunk([{ text: event.delta }]);
        case 'reasoning-delta':
          return event.delta.length === 0 ? EMPTY : chunk([{ text: event.delta, thought: true }]);
        case 'reasoning-end':
          return event.signature === undefined ? EMPTY : chunk([{ text: '', thought: true, thoughtSignature: event.signature }]);
        case 'tool-call-start':
          calls.set(event.index, { toolCallId: event.toolCallId, toolName: event.toolName });
          return EMPTY;
        case 'tool-call-end': {
          const call = calls.get(event.index);
          if (call === undefined) return EMPTY;
          calls.delete(event.index);
          try {
            return chunk([toolCallPart(call.toolCallId, call.toolName, event.argumentsText, event.signature)]);
          } catch {
            failedCall = true;
            return EMPTY;
          }
        }
        case 'usage':
          usage = event.usage;
          return EMPTY;
        case 'text-start':
        case 'text-end':
        case 'reasoning-start':
        case 'reasoning-redacted':
        case 'refusal-start':
        case 'refusal-end':
        case 'tool-call-delta':
          return EMPTY;
        default:
          return assertNever(event, 'stream event');
      }
    },
    encodeTerminal(outcome: AdapterTerminalOutcomeV3): Uint8Array {
      switch (outcome.status) {
        case 'failed':
          return bareError({ source: 'provider', failure: outcome.failure });
        case 'cancelled':
          return bareError(CANCELLED);
        case 'completed': {
          if (failedCall) return bareError(MALFORMED_OUTPUT);
          const finalUsage = outcome.usage ?? usage;
          const blockReason = blockReasonOf(outcome.finishReason);
          const fields =
            blockReason !== undefined && outcome.result.kind === 'chat' && outcome.result.content.length === 0
              ? { promptFeedback: { blockReason } }
              : {
                  candidates: [
                    { content: { role: 'model', parts: [{ text: '' }] }, finishReason: toGeminiFinishReason(outcome.finishReason), index: 0 },
                  ],
                };
          return framer.last(JSON.stringify(responseEnvelope(context, fields, finalUsage)));
        }
        default:
          return assertNever(outcome, 'terminal');
      }
    },
  };
}
