import type { ProviderAdapterFactory } from '@tokenforge/model-protocol';
import { defineHttpFamily, type HttpFamilyOptionsV1 } from '../../codec-kit/index.js';
import { OPENAI_RATE_LIMIT_HEADERS } from '../openai-common/map-rate-limits.js';
import { decodeOpenAiEmbeddingsResponse } from './decode-response.js';
import { encodeOpenAiEmbeddingsRequest } from './encode-request.js';
import { mapOpenAiEmbeddingsHttpError } from './map-error.js';
import { OPENAI_EMBEDDINGS_PROTOCOL_FAMILY } from './protocol-family.js';
import { OPENAI_EMBEDDINGS_TRANSPORT_METADATA } from './transport-metadata.js';
import type { OpenAiEmbeddingsProtocolOptionsV1 } from './protocol-options.js';

/** Options of {@link createOpenAiEmbeddingsAdapterFactory}. */
export interface OpenAiEmbeddingsAdapterOptionsV1 extends OpenAiEmbeddingsProtocolOptionsV1, HttpFamilyOptionsV1 {
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

/** The `openai-embeddings/v1` dialect, declared for the kit (which owns execute, acceptance, metadata and aborts). */
export const OPENAI_EMBEDDINGS_HTTP_FAMILY = defineHttpFamily<OpenAiEmbeddingsAdapterOptionsV1>({
  protocolFamily: OPENAI_EMBEDDINGS_PROTOCOL_FAMILY,
  transportMetadata: OPENAI_EMBEDDINGS_TRANSPORT_METADATA,
  requestIdHeaders: ['x-request-id'],
  rateLimitHeaders: OPENAI_RATE_LIMIT_HEADERS,
  encodeRequest: (input, options) => encodeOpenAiEmbeddingsRequest(input.task, input.target, options),
  maxBodyBytes: (options) => options?.maxBodyBytes ?? DEFAULT_OPENAI_EMBEDDINGS_MAX_BODY_BYTES,
  decodeResponse: (body, { input }) => {
    const space = input.target.capability.embedding;
    const task = input.task as Extract<typeof input.task, { kind: 'embedding' }>;
    const dimensions = task.dimensions ?? space?.defaultDimensions;
    return decodeOpenAiEmbeddingsResponse(body, {
      inputCount: task.inputs.length,
      ...(dimensions === undefined ? {} : { dimensions }),
      ...(space === undefined ? {} : { spaceId: space.spaceId }),
    }, input.reportDiagnostic);
  },
  mapHttpError: (answer) => mapOpenAiEmbeddingsHttpError(answer),
});

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
  return OPENAI_EMBEDDINGS_HTTP_FAMILY.createAdapterFactory(options);
}
