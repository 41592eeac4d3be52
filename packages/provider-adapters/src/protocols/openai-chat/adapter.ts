import type { ProviderAdapterFactory } from '@tokenforge/model-protocol';
import { createAdapterStreamParts, defineHttpFamily, type HttpFamilyOptionsV1, SSE_OR_JSON_STREAM_MEDIA_TYPES } from '../../codec-kit/index.js';
import { isReportedCostCurrency } from '../../codec-kit/reported-cost.js';
import { OPENAI_RATE_LIMIT_HEADERS } from '../openai-common/map-rate-limits.js';
import { createOpenAiChatStreamMachine } from './decode-stream.js';
import { decodeOpenAiChatResponse } from './decode-response.js';
import { encodeOpenAiChatRequest } from './encode-request.js';
import { mapOpenAiChatHttpError } from './map-error.js';
import { OPENAI_CHAT_PROTOCOL_FAMILY } from './protocol-family.js';
import { OPENAI_CHAT_TRANSPORT_METADATA } from './transport-metadata.js';
import type { OpenAiChatProtocolOptionsV1 } from './protocol-options.js';
import { readOpenAiChatError, type OpenAiChatWireError } from './wire-readers.js';

/** Options of {@link createOpenAiChatAdapterFactory}. */
export interface OpenAiChatAdapterOptionsV1 extends OpenAiChatProtocolOptionsV1, HttpFamilyOptionsV1 {
  /** Largest sync response body in bytes (default: the kit's 32 MiB); a larger body is a protocol violation. */
  readonly maxBodyBytes?: number;
  /** Largest single SSE event in bytes (default: the kit's 8 MiB); a larger event is a protocol violation. */
  readonly maxEventBytes?: number;
}

/** The `openai-chat/v1` dialect, declared for the kit (which owns execute, acceptance, metadata and aborts). */
export const OPENAI_CHAT_HTTP_FAMILY = defineHttpFamily<OpenAiChatAdapterOptionsV1>({
  protocolFamily: OPENAI_CHAT_PROTOCOL_FAMILY,
  transportMetadata: OPENAI_CHAT_TRANSPORT_METADATA,
  // OpenAI and most compatible servers.
  requestIdHeaders: ['x-request-id'],
  rateLimitHeaders: OPENAI_RATE_LIMIT_HEADERS,
  encodeRequest: (input, options) => encodeOpenAiChatRequest(input.task, input.target.providerModel, options, input.target.capability.reasoningEfforts),
  maxBodyBytes: (options) => options?.maxBodyBytes,
  decodeResponse: (body, { input, options }) => decodeOpenAiChatResponse(body, input.reportDiagnostic, options?.reportedCostCurrency),
  streamMediaTypes: SSE_OR_JSON_STREAM_MEDIA_TYPES,
  decodeStream: (body, { input, options }) =>
    createAdapterStreamParts({
      body,
      sse: { bareJson: true, ...(options?.maxEventBytes === undefined ? {} : { maxEventBytes: options.maxEventBytes }) },
      machine: createOpenAiChatStreamMachine(options?.reportedCostCurrency === undefined ? undefined : { reportedCostCurrency: options.reportedCostCurrency }),
      signal: input.signal,
      reportDiagnostic: input.reportDiagnostic,
    }),
  mapHttpError: ({ status, headers, errorBody, nowMs }) => mapOpenAiChatHttpError({ status, headers, error: readOpenAiChatErrorBody(errorBody), nowMs }),
});

/** The error object of an error body, `undefined` when there is none or it cannot be read. */
function readOpenAiChatErrorBody(body: unknown): OpenAiChatWireError | undefined {
  try {
    return typeof body === 'object' && body !== null && 'error' in body ? readOpenAiChatError(body.error) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates the `openai-chat/v1` adapter factory: `POST /chat/completions` with the task encoded by
 * `encodeOpenAiChatRequest`, a sync body decoded by `decodeOpenAiChatResponse` or an SSE stream driven through the
 * kit by `createOpenAiChatStreamMachine`, and HTTP errors mapped by `mapOpenAiChatHttpError`.
 *
 * Outcomes: a task the dialect cannot express is a failed `unsupported` (or `invalid-request`) terminal with
 * acceptance `not-accepted` and no request sent; a non-2xx status is a failed terminal, acceptance `unknown` for
 * 5xx and `not-accepted` otherwise; an unreadable 2xx body is a failed `protocol-violation` with acceptance
 * `unknown`. A stream task always gets a `stream` execution (a failure before the stream is its only part).
 * A transport failure before a response head rejects, as the contract asks.
 */
export function createOpenAiChatAdapterFactory(options?: OpenAiChatAdapterOptionsV1): ProviderAdapterFactory {
  assertOpenAiChatAdapterOptions(options);
  return OPENAI_CHAT_HTTP_FAMILY.createAdapterFactory(options);
}

/** Refuses options no server could mean (checked when a factory or suite entry is created, not per request). */
export function assertOpenAiChatAdapterOptions(options: OpenAiChatAdapterOptionsV1 | undefined): void {
  if (options?.reportedCostCurrency !== undefined && !isReportedCostCurrency(options.reportedCostCurrency)) {
    throw new TypeError('reportedCostCurrency must be an ISO 4217 code of three upper-case letters (for example USD)');
  }
}
