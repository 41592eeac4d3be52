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
import { decodeCohereRerankResponse } from './decode-response.js';
import { encodeCohereRerankRequest, type CohereRerankEncodedRequest } from './encode-request.js';
import { mapCohereRerankHttpError } from './map-error.js';
import { COHERE_RERANK_PROTOCOL_FAMILY } from './protocol-family.js';
import { resolveCohereRerankProtocolOptions, type CohereRerankProtocolOptionsV1 } from './protocol-options.js';

/** Options of {@link createCohereRerankAdapterFactory}. */
export interface CohereRerankAdapterOptionsV1 extends CohereRerankProtocolOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** Largest response body in bytes (default: the kit's 32 MiB); a larger body is a failed `protocol-violation`. */
  readonly maxBodyBytes?: number;
}

/** Response headers that carry the provider's request id, in the order read (Cohere sends `x-trace-id`). */
const REQUEST_ID_HEADERS = ['x-request-id', 'x-trace-id'] as const;

function responseMetadata(response: ProviderTransportResponse): ProviderResponseMetadata {
  for (const name of REQUEST_ID_HEADERS) {
    const requestId = response.headers[name];
    if (requestId !== undefined && requestId.length > 0) return { providerRequestId: requestId.slice(0, 256) };
  }
  return {};
}

function finished(acceptance: ProviderAcceptanceFacts, metadata: ProviderResponseMetadata, terminal: AdapterTerminalOutcome): ProviderAdapterExecutionV1 {
  return { kind: 'response', acceptance, responseMetadata: metadata, terminal };
}

async function execute(
  input: ProviderAdapterExecuteInputV1,
  options: CohereRerankAdapterOptionsV1 | undefined,
): Promise<ProviderAdapterExecutionV1> {
  let request: CohereRerankEncodedRequest;
  try {
    request = encodeCohereRerankRequest(input.task, input.target, options);
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    return finished({ state: 'not-accepted' }, {}, { status: 'failed', failure: { code, retryable: false } });
  }
  const response = await input.transport.send({ ...request, signal: input.signal });
  const nowMs = (options?.now ?? Date.now)();
  let outcome: Awaited<ReturnType<typeof readJsonResponse>>;
  try {
    outcome = await readJsonResponse(response, { nowMs, ...(options?.maxBodyBytes === undefined ? {} : { maxBytes: options.maxBodyBytes }) });
  } catch (error) {
    const terminal = terminalForError(error, { signal: input.signal });
    if (terminal === undefined) throw error;
    return finished({ state: 'unknown' }, responseMetadata(response), terminal);
  }
  if (outcome.ok) {
    const task = input.task as Extract<typeof input.task, { kind: 'rerank' }>;
    const terminal = decodeCohereRerankResponse(outcome.value, {
      documentCount: task.documents.length,
      ...(task.topN === undefined ? {} : { topN: task.topN }),
    });
    return finished({ state: 'accepted' }, responseMetadata(response), terminal);
  }
  const failure = mapCohereRerankHttpError({ status: outcome.status, headers: response.headers, errorBody: outcome.errorBody, nowMs });
  return finished({ state: outcome.status >= 500 ? 'unknown' : 'not-accepted' }, responseMetadata(response), { status: 'failed', failure });
}

/**
 * Creates the `cohere-rerank/v1` adapter factory: `POST /v2/rerank` (or the configured path) with the task
 * encoded by `encodeCohereRerankRequest`, the body decoded by `decodeCohereRerankResponse` whatever its shape
 * (Cohere, Jina-compatible, Voyage, TEI), HTTP errors mapped by `mapCohereRerankHttpError`.
 *
 * Outcomes: a task of another kind is a failed `unsupported` terminal with acceptance `not-accepted` and no
 * request sent; a non-2xx status is a failed terminal, acceptance `unknown` for 5xx and `not-accepted` otherwise;
 * an unreadable 2xx body is a failed `protocol-violation` with acceptance `unknown`. A transport failure before
 * a response head rejects, as the contract asks.
 *
 * @throws {CodecErrorV1} `invalid-request` at creation for a malformed `path` option.
 */
export function createCohereRerankAdapterFactory(options?: CohereRerankAdapterOptionsV1): ProviderAdapterFactory {
  // Refuses a malformed path option now, at configuration time, not on the first request.
  resolveCohereRerankProtocolOptions(options);
  return Object.freeze({
    protocolFamily: COHERE_RERANK_PROTOCOL_FAMILY,
    createAdapter: () => Object.freeze({ execute: (input: ProviderAdapterExecuteInputV1) => execute(input, options) }),
  });
}
