import type { ProviderAdapterFactory } from '@tokenforge/model-protocol';
import { createAdapterStreamParts, defineHttpFamily, isWireRecord, type HttpFamilyOptionsV1, SSE_OR_JSON_STREAM_MEDIA_TYPES } from '../../codec-kit/index.js';
import { OPENAI_RATE_LIMIT_HEADERS } from '../openai-common/map-rate-limits.js';
import { decodeOpenAiResponsesCountResponse } from './decode-count-response.js';
import { decodeOpenAiResponsesResponse } from './decode-response.js';
import { createOpenAiResponsesStreamMachine } from './decode-stream.js';
import { encodeOpenAiResponsesCountRequest } from './encode-count-request.js';
import { encodeOpenAiResponsesRequest } from './encode-request.js';
import { mapOpenAiResponsesHttpError } from './map-error.js';
import { OPENAI_RESPONSES_PROTOCOL_FAMILY } from './protocol-family.js';
import { OPENAI_RESPONSES_TRANSPORT_METADATA } from './transport-metadata.js';
import { readOpenAiResponsesError, type OpenAiResponsesWireError } from './wire-readers.js';

/** Options of {@link createOpenAiResponsesAdapterFactory}. */
export interface OpenAiResponsesAdapterOptionsV1 extends HttpFamilyOptionsV1 {
  /** Largest sync response body in bytes (default: the kit's 32 MiB); a larger body is a protocol violation. */
  readonly maxBodyBytes?: number;
  /** Largest single SSE event in bytes (default: the kit's 8 MiB); a larger event is a protocol violation. */
  readonly maxEventBytes?: number;
}

/** The error object of an error body, `undefined` when there is none or it cannot be read. */
function readOpenAiResponsesErrorBody(body: unknown): OpenAiResponsesWireError | undefined {
  try {
    return isWireRecord(body) ? readOpenAiResponsesError(body.error, 'error') : undefined;
  } catch {
    return undefined;
  }
}

/** The `openai-responses/v1` dialect, declared for the kit (which owns execute, acceptance, metadata and aborts). */
export const OPENAI_RESPONSES_HTTP_FAMILY = defineHttpFamily<OpenAiResponsesAdapterOptionsV1>({
  protocolFamily: OPENAI_RESPONSES_PROTOCOL_FAMILY,
  transportMetadata: OPENAI_RESPONSES_TRANSPORT_METADATA,
  requestIdHeaders: ['x-request-id'],
  rateLimitHeaders: OPENAI_RATE_LIMIT_HEADERS,
  encodeRequest: (input) =>
    encodeOpenAiResponsesRequest(input.task, input.target.providerModel, {
      encryptedReasoning: input.target.capability.reasoning === true,
      ...(input.target.capability.reasoningEfforts === undefined ? {} : { reasoningEfforts: input.target.capability.reasoningEfforts }),
    }),
  encodeCountRequest: (task, target) => encodeOpenAiResponsesCountRequest(task, target.providerModel, target.capability.reasoningEfforts),
  decodeCountResponse: (body) => decodeOpenAiResponsesCountResponse(body),
  maxBodyBytes: (options) => options?.maxBodyBytes,
  decodeResponse: (body, { input }) => decodeOpenAiResponsesResponse(body, input.reportDiagnostic),
  streamMediaTypes: SSE_OR_JSON_STREAM_MEDIA_TYPES,
  decodeStream: (body, { input, options }) =>
    createAdapterStreamParts({
      body,
      sse: { bareJson: true, ...(options?.maxEventBytes === undefined ? {} : { maxEventBytes: options.maxEventBytes }) },
      machine: createOpenAiResponsesStreamMachine(),
      signal: input.signal,
      reportDiagnostic: input.reportDiagnostic,
    }),
  mapHttpError: ({ status, headers, errorBody, nowMs }) =>
    mapOpenAiResponsesHttpError({ status, headers, error: readOpenAiResponsesErrorBody(errorBody), nowMs }),
});

/**
 * Creates the `openai-responses/v1` adapter factory: `POST /responses` with the task encoded by
 * `encodeOpenAiResponsesRequest` (encrypted reasoning requested when the target capability declares reasoning), a
 * sync body decoded by `decodeOpenAiResponsesResponse` or a typed SSE stream driven through the kit by
 * `createOpenAiResponsesStreamMachine`, and HTTP errors mapped by `mapOpenAiResponsesHttpError`.
 *
 * Outcomes: a task the dialect cannot express is a failed `unsupported` (or `invalid-request`) terminal with
 * acceptance `not-accepted` and no request sent; a non-2xx status is a failed terminal, acceptance `unknown` for 5xx
 * and `not-accepted` otherwise; an unreadable 2xx body is a failed `protocol-violation` with acceptance `unknown`.
 * A stream task always gets a `stream` execution (a failure before the stream is its only part). A transport
 * failure before a response head rejects, as the contract asks.
 */
export function createOpenAiResponsesAdapterFactory(options?: OpenAiResponsesAdapterOptionsV1): ProviderAdapterFactory {
  return OPENAI_RESPONSES_HTTP_FAMILY.createAdapterFactory(options);
}
