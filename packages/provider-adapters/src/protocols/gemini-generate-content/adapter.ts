import type { ProviderAdapterFactory } from '@tokenforge/model-protocol';
import { createAdapterStreamParts, defineHttpFamily, type HttpFamilyOptionsV1, SSE_OR_JSON_STREAM_MEDIA_TYPES } from '../../codec-kit/index.js';
import { decodeGeminiCountResponse } from './decode-count-response.js';
import { decodeGeminiResponse } from './decode-response.js';
import { createGeminiStreamMachine, GEMINI_SSE_DECODER_OPTIONS } from './decode-stream.js';
import { encodeGeminiCountRequest } from './encode-count-request.js';
import { encodeGeminiRequest, type GeminiEncodeOptions } from './encode-request.js';
import { mapGeminiHttpError } from './map-error.js';
import { GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY } from './protocol-family.js';
import { GEMINI_GENERATE_CONTENT_TRANSPORT_METADATA } from './transport-metadata.js';

/** Options of {@link createGeminiGenerateContentAdapterFactory}: protocol options plus a clock. */
export interface GeminiGenerateContentAdapterOptionsV1 extends GeminiEncodeOptions, HttpFamilyOptionsV1 {}

/** The `gemini-generate-content/v1` dialect, declared for the kit (which owns execute, acceptance, metadata and aborts). */
export const GEMINI_GENERATE_CONTENT_HTTP_FAMILY = defineHttpFamily<GeminiGenerateContentAdapterOptionsV1>({
  protocolFamily: GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY,
  transportMetadata: GEMINI_GENERATE_CONTENT_TRANSPORT_METADATA,
  // Gemini sends no request id header this family reads; the served model comes from the body.
  requestIdHeaders: [],
  encodeRequest: (input, options) => encodeGeminiRequest(input.task, input.target.providerModel, options, input.target.capability.reasoningEfforts),
  encodeCountRequest: (task, target, options) => encodeGeminiCountRequest(task, target.providerModel, options, target.capability.reasoningEfforts),
  decodeCountResponse: (body) => decodeGeminiCountResponse(body),
  decodeResponse: (body) => decodeGeminiResponse(body),
  streamMediaTypes: SSE_OR_JSON_STREAM_MEDIA_TYPES,
  decodeStream: (body, { input }) =>
    createAdapterStreamParts({
      body,
      sse: GEMINI_SSE_DECODER_OPTIONS,
      machine: createGeminiStreamMachine(),
      signal: input.signal,
      reportDiagnostic: input.reportDiagnostic,
    }),
  mapHttpError: ({ status, headers, errorBody, nowMs }) => mapGeminiHttpError({ status, headers, body: errorBody, nowMs }),
});

/**
 * Creates the `gemini-generate-content/v1` adapter factory: `POST /v1beta/models/{model}:generateContent` (or
 * `:streamGenerateContent?alt=sse` for stream tasks) with the task encoded by `encodeGeminiRequest`, a whole
 * body decoded by `decodeGeminiResponse`, a stream driven through the kit by `createGeminiStreamMachine`, and
 * HTTP errors mapped by `mapGeminiHttpError`.
 *
 * Outcomes: a task the dialect cannot express (or an unsafe model name) is a failed `unsupported` or
 * `invalid-request` terminal with acceptance `not-accepted`, and nothing is sent; a non-2xx status is a failed
 * terminal, acceptance `unknown` for 5xx and `not-accepted` otherwise; an unreadable or protocol-breaking 2xx
 * body is a failed `protocol-violation` with acceptance `unknown`. A stream task always gets a `stream`
 * execution. A transport failure before a response head rejects, as the contract asks.
 */
export function createGeminiGenerateContentAdapterFactory(options?: GeminiGenerateContentAdapterOptionsV1): ProviderAdapterFactory {
  return GEMINI_GENERATE_CONTENT_HTTP_FAMILY.createAdapterFactory(options);
}
