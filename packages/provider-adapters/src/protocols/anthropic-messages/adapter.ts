import { CodecErrorV1, type ProviderAdapterFactory } from '@tokenforge/model-protocol';
import { defineHttpFamily, type HttpFamilyOptionsV1 } from '../../codec-kit/index.js';
import { decodeAnthropicCountResponse } from './decode-count-response.js';
import { decodeAnthropicMessagesResponse } from './decode-response.js';
import { decodeAnthropicMessagesStream } from './decode-stream.js';
import { anthropicBetaFlags } from './encode-beta-flags.js';
import { encodeAnthropicCountRequest } from './encode-count-request.js';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import { mapAnthropicError } from './map-error.js';
import { ANTHROPIC_MESSAGES_PROTOCOL_FAMILY } from './protocol-family.js';
import { ANTHROPIC_MESSAGES_TRANSPORT_METADATA } from './transport-metadata.js';
import { readAnthropicErrorEnvelope } from './wire-readers.js';
import { ANTHROPIC_RATE_LIMIT_HEADERS } from './map-rate-limits.js';

/** The request path, below the connection's base URL (for example `https://api.anthropic.com`). */
export const ANTHROPIC_MESSAGES_PATH = '/v1/messages';

/** Options of {@link createAnthropicMessagesAdapterFactory}. */
export interface AnthropicMessagesAdapterOptionsV1 extends HttpFamilyOptionsV1 {
  /** `max_tokens` for tasks without `maxOutputTokens` (default `ANTHROPIC_DEFAULT_MAX_TOKENS`, 4,096). */
  readonly defaultMaxTokens?: number;
}

/** The `anthropic-messages/v1` dialect, declared for the kit (which owns execute, acceptance, metadata and aborts). */
export const ANTHROPIC_MESSAGES_HTTP_FAMILY = defineHttpFamily<AnthropicMessagesAdapterOptionsV1>({
  protocolFamily: ANTHROPIC_MESSAGES_PROTOCOL_FAMILY,
  transportMetadata: ANTHROPIC_MESSAGES_TRANSPORT_METADATA,
  requestIdHeaders: ['request-id'],
  rateLimitHeaders: ANTHROPIC_RATE_LIMIT_HEADERS,
  // Anthropic's request ids are short: a longer value is not one of them.
  overlongRequestId: 'drop',
  encodeRequest: ({ task, target }, options) => {
    if (task.kind !== 'chat') throw new CodecErrorV1('unsupported-feature', 'this family carries chat tasks only', { path: 'kind' });
    const body = encodeAnthropicMessagesRequest(task, {
      model: target.providerModel,
      ...(options?.defaultMaxTokens === undefined ? {} : { defaultMaxTokens: options.defaultMaxTokens }),
      ...(target.capability.reasoningEfforts === undefined ? {} : { reasoningEfforts: target.capability.reasoningEfforts }),
    });
    // Context management and compaction are betas of the Messages API: the request names the flags it needs.
    const beta = anthropicBetaFlags(body);
    return {
      method: 'POST',
      path: ANTHROPIC_MESSAGES_PATH,
      headers: {
        accept: task.stream ? 'text/event-stream' : 'application/json',
        ...(beta === undefined ? {} : { 'anthropic-beta': beta }),
      },
      body: { type: 'json', value: body },
    };
  },
  encodeCountRequest: (task, target) => encodeAnthropicCountRequest(task, target.providerModel, target.capability.reasoningEfforts),
  decodeCountResponse: (body) => decodeAnthropicCountResponse(body),
  decodeResponse: (body, { headers, status, nowMs }) => decodeAnthropicMessagesResponse({ body, headers, status, nowMs }),
  decodeStream: (body, { input, headers, nowMs }) => decodeAnthropicMessagesStream({ body, headers, nowMs, signal: input.signal, reportDiagnostic: input.reportDiagnostic }),
  // A 5xx (or 529, overloaded) may have been processed before the server failed: the kit answers `unknown`.
  mapHttpError: ({ status, headers, errorBody, nowMs }) => mapAnthropicError({ status, headers, error: readAnthropicErrorEnvelope(errorBody), nowMs }),
});

/**
 * Creates the `anthropic-messages/v1` adapter factory: `POST /v1/messages` with the task encoded by
 * `encodeAnthropicMessagesRequest`, a sync body decoded by `decodeAnthropicMessagesResponse` or an SSE stream
 * driven through the kit by `createAnthropicMessagesStreamMachine`, and errors mapped by `mapAnthropicError`.
 * Authentication (`x-api-key`) and `anthropic-version` come from the transport metadata, never from here.
 *
 * Outcomes: a task the dialect cannot express is a failed `unsupported` (or `invalid-request`) terminal with
 * acceptance `not-accepted` and no request sent; a non-2xx status is a failed terminal, acceptance `unknown`
 * for 5xx and 529 and `not-accepted` otherwise; an unreadable or malformed 2xx body is a failed
 * `protocol-violation` with acceptance `unknown`. A stream task always gets a `stream` execution (a failure
 * before the stream is its only part). A transport failure before a response head rejects, as the contract
 * asks. The stream's response metadata has the request id only: the served model arrives in the first event.
 */
export function createAnthropicMessagesAdapterFactory(options?: AnthropicMessagesAdapterOptionsV1): ProviderAdapterFactory {
  return ANTHROPIC_MESSAGES_HTTP_FAMILY.createAdapterFactory(options);
}
