import {
  isCodecErrorV1,
  type AdapterTerminalOutcome,
  type ProviderAcceptanceFacts,
  type ProviderAdapterExecuteInputV1,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterFactory,
  type ProviderResponseMetadata,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import { readJsonResponse, terminalForError } from '../../codec-kit/index.js';
import { decodeOpenAiEmbeddingsResponse } from './decode-response.js';
import { encodeOpenAiEmbeddingsRequest, type OpenAiEmbeddingsEncodedRequest } from './encode-request.js';
import { mapOpenAiEmbeddingsHttpError } from './map-error.js';
import { OPENAI_EMBEDDINGS_PROTOCOL_FAMILY } from './protocol-family.js';
import type { OpenAiEmbeddingsProtocolOptionsV1 } from './protocol-options.js';

/** Options of {@link createOpenAiEmbeddingsAdapterFactory}. */
export interface OpenAiEmbeddingsAdapterOptionsV1 extends OpenAiEmbeddingsProtocolOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Largest response body in bytes (default {@link DEFAULT_OPENAI_EMBEDDINGS_MAX_BODY_BYTES}); a larger body is a
   * failed `protocol-violation`.
   */
  readonly maxBodyBytes?: number;
}

/**
 * Default body cap: 64 MiB, room for 2,048 vectors of 1,536 dimensions as JSON numbers (about 60 MiB); the same
 * batch in base64 takes about 16 MiB.
 */
export const DEFAULT_OPENAI_EMBEDDINGS_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Response header that carries the provider's request id (OpenAI and most compatible servers). */
const REQUEST_ID_HEADER = 'x-request-id';

function responseMetadata(response: ProviderTransportResponse, providerModel?: string): ProviderResponseMetadata {
  const requestId = response.headers[REQUEST_ID_HEADER];
  return {
    ...(requestId !== undefined && requestId.length > 0 ? { providerRequestId: requestId.slice(0, 256) } : {}),
    ...(providerModel === undefined ? {} : { providerModel }),
  };
}

function finished(acceptance: ProviderAcceptanceFacts, metadata: ProviderResponseMetadata, terminal: AdapterTerminalOutcome): ProviderAdapterExecutionV1 {
  return { kind: 'response', acceptance, responseMetadata: metadata, terminal };
}

async function execute(input: ProviderAdapterExecuteInputV1, options: OpenAiEmbeddingsAdapterOptionsV1 | undefined): Promise<ProviderAdapterExecutionV1> {
  let request: OpenAiEmbeddingsEncodedRequest;
  try {
    request = encodeOpenAiEmbeddingsRequest(input.task, input.target, options);
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    // Nothing was sent: the task breaks a limit or asks for what this dialect cannot do.
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    return finished({ state: 'not-accepted' }, {}, { status: 'failed', failure: { code, retryable: false } });
  }
  const response = await input.transport.send({ ...request, signal: input.signal });
  const nowMs = (options?.now ?? Date.now)();
  let outcome: Awaited<ReturnType<typeof readJsonResponse>>;
  try {
    outcome = await readJsonResponse(response, { nowMs, maxBytes: options?.maxBodyBytes ?? DEFAULT_OPENAI_EMBEDDINGS_MAX_BODY_BYTES });
  } catch (error) {
    const terminal = terminalForError(error, { signal: input.signal });
    if (terminal === undefined) throw error;
    return finished({ state: 'unknown' }, responseMetadata(response), terminal);
  }
  if (outcome.ok) {
    const space = input.target.capability.embedding;
    const task = input.task as Extract<typeof input.task, { kind: 'embedding' }>;
    const dimensions = task.dimensions ?? space?.defaultDimensions;
    const decoded = decodeOpenAiEmbeddingsResponse(outcome.value, {
      inputCount: task.inputs.length,
      ...(dimensions === undefined ? {} : { dimensions }),
      ...(space === undefined ? {} : { spaceId: space.spaceId }),
    });
    return finished({ state: 'accepted' }, responseMetadata(response, decoded.providerModel), decoded.terminal);
  }
  const failure = mapOpenAiEmbeddingsHttpError({ status: outcome.status, headers: response.headers, errorBody: outcome.errorBody, nowMs });
  // A 5xx may have been processed (and billed) before the server failed; any other refusal was definitive.
  return finished({ state: outcome.status >= 500 ? 'unknown' : 'not-accepted' }, responseMetadata(response), { status: 'failed', failure });
}

/**
 * Creates the `openai-embeddings/v1` adapter factory: `POST /embeddings` with the task encoded by
 * `encodeOpenAiEmbeddingsRequest` (limits checked before sending), the body decoded by
 * `decodeOpenAiEmbeddingsResponse` against the task and the target's embedding space, HTTP errors mapped by
 * `mapOpenAiEmbeddingsHttpError`.
 *
 * Outcomes: a task that breaks a limit is a failed `invalid-request` (or `unsupported`) terminal with acceptance
 * `not-accepted` and no request sent; a non-2xx status is a failed terminal, acceptance `unknown` for 5xx and
 * `not-accepted` otherwise; a 2xx body that cannot be read (too large, not JSON) is a failed `protocol-violation`
 * with acceptance `unknown`; a readable body that breaks the protocol is a failed `protocol-violation` with
 * acceptance `accepted`. A transport failure before a response head rejects, as the contract asks.
 */
export function createOpenAiEmbeddingsAdapterFactory(options?: OpenAiEmbeddingsAdapterOptionsV1): ProviderAdapterFactory {
  return Object.freeze({
    protocolFamily: OPENAI_EMBEDDINGS_PROTOCOL_FAMILY,
    createAdapter: () => Object.freeze({ execute: (input: ProviderAdapterExecuteInputV1) => execute(input, options) }),
  });
}
