import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { OPENAI_EMBEDDINGS_HTTP_FAMILY, type OpenAiEmbeddingsAdapterOptionsV1 } from './adapter.js';
import { createOpenAiEmbeddingsEgressCodec } from './egress.js';
import { createOpenAiEmbeddingsIngressCodec } from './ingress.js';

/**
 * The `openai-embeddings/v1` suite entry: a sync family with bearer authentication, no fixed headers, and direct
 * HTTP (ingress and egress codecs; the egress writes float vectors). Options configure the adapter.
 */
export function createOpenAiEmbeddingsSuiteEntryV1(options?: OpenAiEmbeddingsAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return OPENAI_EMBEDDINGS_HTTP_FAMILY.createSuiteEntry(options, { ingress: createOpenAiEmbeddingsIngressCodec(), egress: createOpenAiEmbeddingsEgressCodec() });
}
