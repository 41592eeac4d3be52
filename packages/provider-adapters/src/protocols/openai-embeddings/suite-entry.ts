import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createOpenAiEmbeddingsAdapterFactory, type OpenAiEmbeddingsAdapterOptionsV1 } from './adapter.js';
import { createOpenAiEmbeddingsEgressCodec } from './egress.js';
import { createOpenAiEmbeddingsIngressCodec } from './ingress.js';
import { OPENAI_EMBEDDINGS_PROTOCOL_FAMILY } from './protocol-family.js';
import { OPENAI_EMBEDDINGS_TRANSPORT_METADATA } from './transport-metadata.js';

/**
 * The `openai-embeddings/v1` suite entry: a sync family with bearer authentication, no fixed headers, and direct
 * HTTP (ingress and egress codecs; the egress writes float vectors). Options configure the adapter.
 */
export function createOpenAiEmbeddingsSuiteEntryV1(options?: OpenAiEmbeddingsAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return Object.freeze({
    protocolFamily: OPENAI_EMBEDDINGS_PROTOCOL_FAMILY,
    execution: 'sync',
    transportMetadata: OPENAI_EMBEDDINGS_TRANSPORT_METADATA,
    adapterFactory: createOpenAiEmbeddingsAdapterFactory(options),
    directHttp: true,
    codecs: Object.freeze({ ingress: createOpenAiEmbeddingsIngressCodec(), egress: createOpenAiEmbeddingsEgressCodec() }),
  });
}
