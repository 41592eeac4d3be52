import {
  isCodecErrorV1,
  type ProviderAcceptanceFacts,
  type ProviderAdapterExecuteInputV1,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterFactory,
  type ProviderResponseMetadata,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import {
  createAdapterStreamParts,
  decodeSseStream,
  finishedExecution,
  readJsonResponse,
  terminalForError,
} from '../../codec-kit/index.js';
import { createOpenAiChatStreamMachine } from './decode-stream.js';
import { decodeOpenAiChatResponse } from './decode-response.js';
import { encodeOpenAiChatRequest, type OpenAiChatEncodedRequest } from './encode-request.js';
import { mapOpenAiChatHttpError } from './map-error.js';
import { OPENAI_CHAT_PROTOCOL_FAMILY } from './protocol-family.js';
import type { OpenAiChatProtocolOptionsV1 } from './protocol-options.js';
import { readOpenAiChatError } from './wire-readers.js';

/** Options of {@link createOpenAiChatAdapterFactory}. */
export interface OpenAiChatAdapterOptionsV1 extends OpenAiChatProtocolOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** Largest sync response body in bytes (default: the kit's 32 MiB); a larger body is a protocol violation. */
  readonly maxBodyBytes?: number;
  /** Largest single SSE event in bytes (default: the kit's 8 MiB); a larger event is a protocol violation. */
  readonly maxEventBytes?: number;
}

/** Response header that carries the provider's request id (OpenAI and most compatible servers). */
const REQUEST_ID_HEADER = 'x-request-id';

function responseMetadata(response: ProviderTransportResponse, providerModel?: string): ProviderResponseMetadata {
  const requestId = response.headers[REQUEST_ID_HEADER];
  return {
    ...(requestId !== undefined && requestId.length > 0 ? { providerRequestId: requestId.slice(0, 256) } : {}),
    ...(providerModel === undefined ? {} : { providerModel }),
  };
}

async function execute(input: ProviderAdapterExecuteInputV1, options: OpenAiChatAdapterOptionsV1 | undefined): Promise<ProviderAdapterExecutionV1> {
  const stream = input.task.kind === 'chat' && input.task.stream;
  let request: OpenAiChatEncodedRequest;
  try {
    request = encodeOpenAiChatRequest(input.task, input.target.providerModel, options);
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    // Nothing was sent: the task asks for something this dialect cannot express faithfully.
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    return finishedExecution(stream, { state: 'not-accepted' }, {}, { status: 'failed', failure: { code, retryable: false } });
  }
  const response = await input.transport.send({ ...request, signal: input.signal });
  const nowMs = (options?.now ?? Date.now)();
  if (stream && response.status >= 200 && response.status <= 299) {
    return {
      kind: 'stream',
      acceptance: { state: 'accepted' },
      responseMetadata: responseMetadata(response),
      parts: createAdapterStreamParts({
        body: response.body,
        decodeFrames: (body) =>
          decodeSseStream(body, { bareJson: true, ...(options?.maxEventBytes === undefined ? {} : { maxEventBytes: options.maxEventBytes }) }),
        machine: createOpenAiChatStreamMachine(),
        signal: input.signal,
      }),
    };
  }
  let outcome: Awaited<ReturnType<typeof readJsonResponse>>;
  try {
    outcome = await readJsonResponse(response, { nowMs, ...(options?.maxBodyBytes === undefined ? {} : { maxBytes: options.maxBodyBytes }) });
  } catch (error) {
    const terminal = terminalForError(error, { signal: input.signal });
    if (terminal === undefined) throw error;
    return finishedExecution(stream, { state: 'unknown' }, responseMetadata(response), terminal);
  }
  if (outcome.ok) {
    const decoded = decodeOpenAiChatResponse(outcome.value);
    return finishedExecution(stream, { state: 'accepted' }, responseMetadata(response, decoded.providerModel), decoded.terminal);
  }
  let wireError;
  try {
    const body = outcome.errorBody;
    wireError = typeof body === 'object' && body !== null && 'error' in body ? readOpenAiChatError(body.error) : undefined;
  } catch {
    wireError = undefined;
  }
  const failure = mapOpenAiChatHttpError({ status: outcome.status, headers: response.headers, error: wireError, nowMs });
  // A 5xx may have been processed (and billed) before the server failed; any other refusal was definitive.
  const acceptance: ProviderAcceptanceFacts = { state: outcome.status >= 500 ? 'unknown' : 'not-accepted' };
  return finishedExecution(stream, acceptance, responseMetadata(response), { status: 'failed', failure });
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
  return Object.freeze({
    protocolFamily: OPENAI_CHAT_PROTOCOL_FAMILY,
    createAdapter: () => Object.freeze({ execute: (input: ProviderAdapterExecuteInputV1) => execute(input, options) }),
  });
}
