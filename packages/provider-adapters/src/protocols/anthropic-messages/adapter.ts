import {
  isCodecErrorV1,
  type ProviderAcceptanceFacts,
  type ProviderAdapterExecuteInputV1,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterFactory,
  type ProviderResponseMetadata,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import { finishedExecution, readJsonResponse, terminalForError } from '../../codec-kit/index.js';
import { decodeAnthropicMessagesResponse } from './decode-response.js';
import { decodeAnthropicMessagesStream } from './decode-stream.js';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import { mapAnthropicError } from './map-error.js';
import type { AnthropicMessagesRequestBody } from './wire-request.js';
import { readAnthropicErrorEnvelope } from './wire-readers.js';

/** The protocol family this folder implements. */
export const ANTHROPIC_MESSAGES_PROTOCOL_FAMILY = 'anthropic-messages/v1';

/** The request path, below the connection's base URL (for example `https://api.anthropic.com`). */
export const ANTHROPIC_MESSAGES_PATH = '/v1/messages';

/** Response header that carries Anthropic's request id. */
const REQUEST_ID_HEADER = 'request-id';

/** Options of {@link createAnthropicMessagesAdapterFactory}. */
export interface AnthropicMessagesAdapterOptionsV1 {
  /** `max_tokens` for tasks without `maxOutputTokens` (default `ANTHROPIC_DEFAULT_MAX_TOKENS`, 4,096). */
  readonly defaultMaxTokens?: number;
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

function responseMetadata(response: ProviderTransportResponse, providerModel?: string): ProviderResponseMetadata {
  const requestId = response.headers[REQUEST_ID_HEADER];
  return {
    ...(requestId !== undefined && requestId.length > 0 && requestId.length <= 256 ? { providerRequestId: requestId } : {}),
    ...(providerModel === undefined ? {} : { providerModel }),
  };
}

async function execute(
  input: ProviderAdapterExecuteInputV1,
  options: AnthropicMessagesAdapterOptionsV1 | undefined,
): Promise<ProviderAdapterExecutionV1> {
  const task = input.task;
  const stream = task.kind === 'chat' && task.stream;
  if (task.kind !== 'chat') {
    return finishedExecution(false, { state: 'not-accepted' }, {}, { status: 'failed', failure: { code: 'unsupported', retryable: false } });
  }
  let body: AnthropicMessagesRequestBody;
  try {
    body = encodeAnthropicMessagesRequest(task, {
      model: input.target.providerModel,
      ...(options?.defaultMaxTokens === undefined ? {} : { defaultMaxTokens: options.defaultMaxTokens }),
    });
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    // Nothing was sent: the task asks for something this dialect cannot express faithfully.
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    return finishedExecution(stream, { state: 'not-accepted' }, {}, { status: 'failed', failure: { code, retryable: false } });
  }
  const response = await input.transport.send({
    method: 'POST',
    path: ANTHROPIC_MESSAGES_PATH,
    headers: { accept: stream ? 'text/event-stream' : 'application/json' },
    body: { type: 'json', value: body },
    signal: input.signal,
  });
  const nowMs = (options?.now ?? Date.now)();
  if (stream && response.status >= 200 && response.status <= 299) {
    return {
      kind: 'stream',
      acceptance: { state: 'accepted' },
      responseMetadata: responseMetadata(response),
      parts: decodeAnthropicMessagesStream({ body: response.body, headers: response.headers, nowMs, signal: input.signal }),
    };
  }
  let outcome: Awaited<ReturnType<typeof readJsonResponse>>;
  try {
    outcome = await readJsonResponse(response, { nowMs });
  } catch (error) {
    const terminal = terminalForError(error, { signal: input.signal });
    if (terminal === undefined) throw error;
    return finishedExecution(stream, { state: 'unknown' }, responseMetadata(response), terminal);
  }
  if (outcome.ok) {
    try {
      const decoded = decodeAnthropicMessagesResponse({ body: outcome.value, headers: response.headers, status: outcome.status, nowMs });
      return finishedExecution(stream, { state: 'accepted' }, responseMetadata(response, decoded.providerModel), decoded.terminal);
    } catch (error) {
      const terminal = terminalForError(error, { signal: input.signal });
      if (terminal === undefined) throw error;
      return finishedExecution(stream, { state: 'unknown' }, responseMetadata(response), terminal);
    }
  }
  const failure = mapAnthropicError({
    status: outcome.status,
    headers: response.headers,
    error: readAnthropicErrorEnvelope(outcome.errorBody),
    nowMs,
  });
  // A 5xx (or 529) may have been processed before the server failed; any other refusal was definitive.
  const acceptance: ProviderAcceptanceFacts = { state: outcome.status >= 500 ? 'unknown' : 'not-accepted' };
  return finishedExecution(stream, acceptance, responseMetadata(response), { status: 'failed', failure });
}

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
  return Object.freeze({
    protocolFamily: ANTHROPIC_MESSAGES_PROTOCOL_FAMILY,
    createAdapter: () => Object.freeze({ execute: (input: ProviderAdapterExecuteInputV1) => execute(input, options) }),
  });
}
