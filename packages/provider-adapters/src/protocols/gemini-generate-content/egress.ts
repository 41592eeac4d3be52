import {
  CodecErrorV1,
  type AdapterTerminalOutcome,
  type ChatOutputPartV1,
  type EgressCodecV1,
  type EgressContextV1,
  type EgressFailureV1,
  type EgressHttpResponseV1,
  type EgressStreamEncoderV1,
  type FinishReasonV1,
  type NormalizedStreamEventV1,
  type UsageV1,
} from '@tokenforge/model-protocol';
import { parseSafeJson } from '../../codec-kit/safe-json.js';
import { encodeSseEvent } from '../../codec-kit/sse-encoder.js';
import { toGeminiUsageMetadata } from './convert-usage.js';
import { googleErrorEnvelope, mapFailureToGoogleError } from './map-failure-to-google-error.js';
import { GEMINI_BLOCK_REASON_RAW_PREFIX, mapGeminiFinishReason } from './map-finish-reason.js';
import { GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY } from './protocol-family.js';
import { isDerivedToolCallId } from './tool-call-id.js';
import { isJsonObject } from './wire-schema.js';
import { assertNever } from './assert-never.js';

const textEncoder = new TextEncoder();
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });
const EMPTY = new Uint8Array(0);

/** Every candidate finish reason Gemini defines (fact sheet §4.4). */
const GEMINI_FINISH_REASONS: ReadonlySet<string> = new Set([
  'FINISH_REASON_UNSPECIFIED',
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'IMAGE_PROHIBITED_CONTENT',
  'NO_IMAGE',
  'IMAGE_RECITATION',
  'IMAGE_OTHER',
]);

const BLOCK_REASON = /^[A-Z_]{1,64}$/;

type WirePart = Record<string, unknown>;

/**
 * The Gemini finish reason for a normalized one: the raw value when it is a Gemini value that means the same
 * unified reason (a Gemini upstream), else stop and tool-calls `STOP`, length `MAX_TOKENS`, content-filter and
 * refusal `SAFETY`, other `OTHER`. A completed outcome without a finish reason is `STOP`.
 */
export function toGeminiFinishReason(finishReason: FinishReasonV1 | undefined): string {
  if (finishReason === undefined) return 'STOP';
  const raw = finishReason.raw;
  if (raw !== undefined && GEMINI_FINISH_REASONS.has(raw)) {
    const unified = mapGeminiFinishReason(raw, finishReason.unified === 'tool-calls').unified;
    if (unified === finishReason.unified) return raw;
  }
  switch (finishReason.unified) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
    case 'refusal':
      return 'SAFETY';
    case 'other':
      return 'OTHER';
    default:
      return assertNever(finishReason.unified, 'finish reason');
  }
}

/** The prompt block reason a finish reason records (see `mapGeminiBlockReason`), if any. */
function blockReasonOf(finishReason: FinishReasonV1 | undefined): string | undefined {
  const raw = finishReason?.raw;
  if (finishReason?.unified !== 'content-filter' || raw === undefined || !raw.startsWith(GEMINI_BLOCK_REASON_RAW_PREFIX)) return undefined;
  const reason = raw.slice(GEMINI_BLOCK_REASON_RAW_PREFIX.length);
  return BLOCK_REASON.test(reason) ? reason : undefined;
}

function toolCallPart(toolCallId: string, toolName: string, argumentsText: string, signature: string | undefined): WirePart {
  let args: unknown = {};
  if (argumentsText.trim().length > 0) {
    try {
      args = parseSafeJson(argumentsText);
    } catch (error) {
      throw new CodecErrorV1('invalid-request', 'tool call arguments are not valid JSON', { cause: error });
    }
  }
  if (!isJsonObject(args)) throw new CodecErrorV1('invalid-request', 'tool call arguments are not a JSON object');
  return {
    functionCall: { name: toolName, args, ...(isDerivedToolCallId(toolCallId) ? {} : { id: toolCallId }) },
    ...(signature === undefined ? {} : { thoughtSignature: signature }),
  };
}

/**
 * Output blocks as Gemini parts: text and refusals as `{text}`; reasoning as `{text, thought: true,
 * thoughtSignature?}`; tool calls as `functionCall {name, args, id?}` plus the signature (ids this family
 * derived are left out: the upstream sent none); redacted reasoning is dropped (no Gemini form).
 */
function toGeminiParts(content: readonly ChatOutputPartV1[]): WirePart[] {
  const parts: WirePart[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
      case 'refusal':
        parts.push({ text: part.text });
        break;
      case 'reasoning':
        parts.push({ text: part.text, thought: true, ...(part.signature === undefined ? {} : { thoughtSignature: part.signature }) });
        break;
      case 'tool-call':
        parts.push(toolCallPart(part.toolCallId, part.toolName, part.argumentsText, part.signature));
        break;
      case 'redacted-reasoning':
        break;
      default:
        assertNever(part, 'output part');
    }
  }
  return parts;
}

function envelope(context: EgressContextV1, fields: Record<string, unknown>, usage: UsageV1 | undefined): Record<string, unknown> {
  const usageMetadata = usage === undefined ? undefined : toGeminiUsageMetadata(usage);
  return {
    ...fields,
    ...(usageMetadata === undefined || Object.keys(usageMetadata).length === 0 ? {} : { usageMetadata }),
    modelVersion: context.modelLabel,
    responseId: context.responseId,
  };
}

function jsonResponse(status: number, value: unknown, extraHeaders?: Record<string, string>): EgressHttpResponseV1 {
  return { status, headers: { ...JSON_HEADERS, ...extraHeaders }, body: textEncoder.encode(JSON.stringify(value)) };
}

/** The Google error response for a failure (see `mapFailureToGoogleError`), with `retry-after` when known. */
export function encodeGeminiError(failure: EgressFailureV1): EgressHttpResponseV1 {
  const spec = mapFailureToGoogleError(failure);
  const headers = spec.retryAfterMs === undefined ? undefined : { 'retry-after': String(Math.ceil(spec.retryAfterMs / 1000)) };
  return jsonResponse(spec.httpStatus, googleErrorEnvelope(spec), headers);
}

const CANCELLED: EgressFailureV1 = { source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' };
const MALFORMED_OUTPUT: EgressFailureV1 = { source: 'provider', failure: { code: 'protocol-violation', retryable: false } };

/**
 * A whole `GenerateContentResponse` for a terminal: one candidate with the parts, `finishReason` and
 * `index: 0`, `usageMetadata` by the reverse Gemini arithmetic, `modelVersion` from the context's model label
 * and `responseId` from the context. A blocked prompt (raw `blockReason:*`) is `promptFeedback.blockReason`
 * with no candidate. A failed terminal is the Google error response; cancelled is 499 `CANCELLED`; a tool
 * call whose arguments are not a JSON object cannot be expressed and is a 500 `INTERNAL` error response.
 */
export function encodeGeminiResponse(outcome: AdapterTerminalOutcome, context: EgressContextV1): EgressHttpResponseV1 {
  switch (outcome.status) {
    case 'failed':
      return encodeGeminiError({ source: 'provider', failure: outcome.failure });
    case 'cancelled':
      return encodeGeminiError(CANCELLED);
    case 'completed': {
      if (outcome.result.kind !== 'chat') return encodeGeminiError(MALFORMED_OUTPUT);
      const blockReason = blockReasonOf(outcome.finishReason);
      if (blockReason !== undefined && outcome.result.content.length === 0) {
        return jsonResponse(200, envelope(context, { promptFeedback: { blockReason } }, outcome.usage));
      }
      let parts: WirePart[];
      try {
        parts = toGeminiParts(outcome.result.content);
      } catch {
        return encodeGeminiError(MALFORMED_OUTPUT);
      }
      const candidate = {
        ...(parts.length === 0 ? {} : { content: { role: 'model', parts } }),
        finishReason: toGeminiFinishReason(outcome.finishReason),
        index: 0,
      };
      return jsonResponse(200, envelope(context, { candidates: [candidate] }, outcome.usage));
    }
    default:
      return assertNever(outcome, 'terminal');
  }
}

/**
 * The stream encoder: SSE `data:` events, each a `GenerateContentResponse` fragment with one candidate (what
 * `streamGenerateContent?alt=sse` sends):
 * - text and refusal deltas → `{text}` parts, reasoning deltas → `{text, thought: true}` parts;
 * - a reasoning end with a signature → an empty thought part carrying `thoughtSignature`;
 * - a tool call → one `functionCall` part with the whole `args` object at `tool-call-end` (Gemini sends calls
 *   whole);
 * - block starts and ends, usage snapshots and redacted reasoning write nothing; the last usage goes on the final
 *   chunk, with `finishReason` (or `promptFeedback.blockReason` for a blocked prompt);
 * - a failed or cancelled terminal writes a bare `{"error": ...}` JSON object outside SSE framing, the way
 *   Gemini reports errors mid-stream (and what `@google/genai` detects).
 * A tool call whose arguments are not a JSON object cannot be sent to a Gemini client: it is left out and the
 * stream then ends with a bare 500 `INTERNAL` error instead of a finish reason.
 */
export function createGeminiStreamEncoder(context: EgressContextV1): EgressStreamEncoderV1 {
  const calls = new Map<number, { toolCallId: string; toolName: string }>();
  let usage: UsageV1 | undefined;
  let failedCall = false;

  const chunk = (parts: WirePart[]): Uint8Array =>
    encodeSseEvent({ data: JSON.stringify(envelope(context, { candidates: [{ content: { role: 'model', parts }, index: 0 }] }, undefined)) });

  const bareError = (failure: EgressFailureV1): Uint8Array => {
    const spec = mapFailureToGoogleError(failure);
    return textEncoder.encode(`${JSON.stringify(googleErrorEnvelope(spec))}\n`);
  };

  return {
    contentType: 'text/event-stream',
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
    encodeTerminal(outcome: AdapterTerminalOutcome): Uint8Array {
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
          return encodeSseEvent({ data: JSON.stringify(envelope(context, fields, finalUsage)) });
        }
        default:
          return assertNever(outcome, 'terminal');
      }
    },
  };
}

/** Creates the `gemini-generate-content/v1` egress codec. */
export function createGeminiGenerateContentEgressCodec(): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY,
    encodeResponse: encodeGeminiResponse,
    createStreamEncoder: createGeminiStreamEncoder,
    encodeError: (failure: EgressFailureV1) => encodeGeminiError(failure),
  });
}
