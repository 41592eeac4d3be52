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
import { decodeOpenAiResponsesResponse } from './decode-response.js';
import { createOpenAiResponsesStreamMachine } from './decode-stream.js';
import { encodeOpenAiResponsesRequest, type OpenAiResponsesEncodedRequest } from './encode-request.js';
import { mapOpenAiResponsesHttpError } from './map-error.js';
import { OPENAI_RESPONSES_PROTOCOL_FAMILY } from './protocol-family.js';
import { isWireRecord } from '../../codec-kit/wire-readers.js';
import { readOpenAiResponsesError, type OpenAiResponsesWireError } from './wire-readers.js';

/** Options of {@link createOpenAiResponsesAdapterFactory}. */
export interface OpenAiResponsesAdapterOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** Largest sync response body in bytes (default: the kit's 32 MiB); a larger body is a protocol violation. */
  readonly maxBodyBytes?: number;
  /** Largest single SSE event in bytes (default: the kit's 8 MiB); a larger event is a protocol violation. */
  readonly maxEventBytes?: number;
}

/** Response header that carries the provider's request id. */
const REQUEST_ID_HEADER = 'x-request-id';

function responseMetadata(response: ProviderTransportResponse, providerModel?: string): ProviderResponseMetadata {
  const requestId = response.headers[REQUEST_ID_HEADER];
  return {
    ...(requestId !== undefined && requestId.length > 0 ? { providerRequestId: requestId.slice(0, 256) } : {}),
    ...(providerModel === undefined ? {} : { providerModel }),
  };
}

function wireErrorOf(body: unknown): OpenAiResponsesWireError | undefined {
  try {
    return isWireRecord(body) ? readOpenAiResponsesError(body.error, 'error') : undefined;
  } catch {
    return undefined;
  }
}

async function execute(input: ProviderAdapterExecuteInputV1, options: OpenAiResponsesAdapterOptionsV1 | undefined): Promise<ProviderAdapterExecutionV1> {
  const stream = input.task.kind === 'chat' && input.task.stream;
  let request: OpenAiResponsesEncodedRequest;
  try {
    request = encodeOpenAiResponsesRequest(input.task, input.target.providerModel, {
      encryptedReasoning: input.target.capability.reasoning === true,
    });
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
        machine: createOpenAiResponsesStreamMachine(),
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
    const decoded = decodeOpenAiResponsesResponse(outcome.value);
    return finishedExecution(stream, { state: 'accepted' }, responseMetadata(response, decoded.providerModel), decoded.terminal);
  }
  const failure = mapOpenAiResponsesHttpError({ status: outcome.status, headers: response.headers, error: wireErrorOf(outcome.errorBody), nowMs });
  // A 5xx may have been processed (and billed) before the server failed; any other refusal was definitive.
  const acceptance: ProviderAcceptanceFacts = { state: outcome.status >= 500 ? 'unknown' : 'not-accepted' };
  return finishedExecution(stream, acceptance, responseMetadata(response), { status: 'failed', failure });
}

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
  return Object.freeze({
    protocolFamily: OPENAI_RESPONSES_PROTOCOL_FAMILY,
    createAdapter: () => Object.freeze({ execute: (input: ProviderAdapterExecuteInputV1) => execute(input, options) }),
  });
}
