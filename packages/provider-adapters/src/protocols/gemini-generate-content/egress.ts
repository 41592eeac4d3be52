import type {
  AdapterTerminalOutcomeV3,
  EgressCodecV1,
  EgressContextV1,
  EgressFailureV3,
  EgressHttpResponseV1,
} from '@tokenforge/model-protocol';
import { assertNever } from './assert-never.js';
import { responseEnvelope, toGeminiParts, type WirePart } from './encode-client-parts.js';
import { createGeminiStreamEncoder } from './encode-client-stream.js';
import type { GeminiStreamFramingV1 } from './ingress.js';
import { blockReasonOf, toGeminiFinishReason } from './encode-client-finish-reason.js';
import { googleErrorEnvelope, mapFailureToGoogleError } from './encode-client-error.js';
import { GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY } from './protocol-family.js';

const textEncoder = new TextEncoder();
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

function jsonResponse(status: number, value: unknown, extraHeaders?: Record<string, string>): EgressHttpResponseV1 {
  return { status, headers: { ...JSON_HEADERS, ...extraHeaders }, body: textEncoder.encode(JSON.stringify(value)) };
}

/** The Google error response for a failure (see `mapFailureToGoogleError`), with `retry-after` when known. */
export function encodeGeminiError(failure: EgressFailureV3): EgressHttpResponseV1 {
  const spec = mapFailureToGoogleError(failure);
  const headers = spec.retryAfterMs === undefined ? undefined : { 'retry-after': String(Math.ceil(spec.retryAfterMs / 1000)) };
  return jsonResponse(spec.httpStatus, googleErrorEnvelope(spec), headers);
}

const CANCELLED: EgressFailureV3 = { source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' };
const MALFORMED_OUTPUT: EgressFailureV3 = { source: 'provider', failure: { code: 'protocol-violation', retryable: false } };

/**
 * A whole `GenerateContentResponse` for a terminal: one candidate with the parts, `finishReason` and
 * `index: 0`, `usageMetadata` by the reverse Gemini arithmetic, `modelVersion` from the context's model label
 * and `responseId` from the context. A blocked prompt (raw `blockReason:*`) is `promptFeedback.blockReason`
 * with no candidate. A failed terminal is the Google error response; cancelled is 499 `CANCELLED`; a tool
 * call whose arguments are not a JSON object cannot be expressed and is a 500 `INTERNAL` error response.
 */
export function encodeGeminiResponse(outcome: AdapterTerminalOutcomeV3, context: EgressContextV1): EgressHttpResponseV1 {
  switch (outcome.status) {
    case 'failed':
      return encodeGeminiError({ source: 'provider', failure: outcome.failure });
    case 'cancelled':
      return encodeGeminiError(CANCELLED);
    case 'completed': {
      if (outcome.result.kind !== 'chat') return encodeGeminiError(MALFORMED_OUTPUT);
      const blockReason = blockReasonOf(outcome.finishReason);
      if (blockReason !== undefined && outcome.result.content.length === 0) {
        return jsonResponse(200, responseEnvelope(context, { promptFeedback: { blockReason } }, outcome.usage));
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
      return jsonResponse(200, responseEnvelope(context, { candidates: [candidate] }, outcome.usage));
    }
    default:
      return assertNever(outcome, 'terminal');
  }
}

/** Options of {@link createGeminiGenerateContentEgressCodec}. */
export interface GeminiEgressOptionsV1 {
  /**
   * How streams are framed: `sse` (default, `alt=sse`) or `json-array`, one JSON array written progressively, for a
   * client that called `:streamGenerateContent` without `alt=sse` (the ingress reports it as `clientStreamFraming`).
   */
  readonly streamFraming?: GeminiStreamFramingV1;
}

/** Creates the `gemini-generate-content/v1` egress codec. */
export function createGeminiGenerateContentEgressCodec(options?: GeminiEgressOptionsV1): EgressCodecV1 {
  const framing = options?.streamFraming ?? 'sse';
  return Object.freeze({
    protocolFamily: GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY,
    encodeResponse: encodeGeminiResponse,
    createStreamEncoder: (context: EgressContextV1) => createGeminiStreamEncoder(context, framing),
    encodeError: (failure: EgressFailureV3) => encodeGeminiError(failure),
  });
}
