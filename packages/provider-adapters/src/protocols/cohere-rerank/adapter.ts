import type { ProviderAdapterFactory } from '@tokenforge/model-protocol';
import { defineHttpFamily, type HttpFamilyOptionsV1 } from '../../codec-kit/index.js';
import { decodeCohereRerankResponse } from './decode-response.js';
import { encodeCohereRerankRequest } from './encode-request.js';
import { mapCohereRerankHttpError } from './map-error.js';
import { COHERE_RERANK_PROTOCOL_FAMILY } from './protocol-family.js';
import { COHERE_RERANK_TRANSPORT_METADATA } from './transport-metadata.js';
import { resolveCohereRerankProtocolOptions, type CohereRerankProtocolOptionsV1 } from './protocol-options.js';

/** Options of {@link createCohereRerankAdapterFactory}. */
export interface CohereRerankAdapterOptionsV1 extends CohereRerankProtocolOptionsV1, HttpFamilyOptionsV1 {
  /** Largest response body in bytes (default: the kit's 32 MiB); a larger body is a failed `protocol-violation`. */
  readonly maxBodyBytes?: number;
}

/** The `cohere-rerank/v1` dialect, declared for the kit (which owns execute, acceptance, metadata and aborts). */
export const COHERE_RERANK_HTTP_FAMILY = defineHttpFamily<CohereRerankAdapterOptionsV1>({
  protocolFamily: COHERE_RERANK_PROTOCOL_FAMILY,
  transportMetadata: COHERE_RERANK_TRANSPORT_METADATA,
  // Read in this order; Cohere itself sends `x-trace-id`.
  requestIdHeaders: ['x-request-id', 'x-trace-id'],
  checkOptions: (options) => {
    resolveCohereRerankProtocolOptions(options);
  },
  encodeRequest: (input, options) => encodeCohereRerankRequest(input.task, input.target, options),
  maxBodyBytes: (options) => options?.maxBodyBytes,
  decodeResponse: (body, { input }) => {
    const task = input.task as Extract<typeof input.task, { kind: 'rerank' }>;
    const terminal = decodeCohereRerankResponse(body, { documentCount: task.documents.length, ...(task.topN === undefined ? {} : { topN: task.topN }) }, input.reportDiagnostic);
    return { terminal };
  },
  mapHttpError: (answer) => mapCohereRerankHttpError(answer),
});

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
  return COHERE_RERANK_HTTP_FAMILY.createAdapterFactory(options);
}
