import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createCohereRerankAdapterFactory, type CohereRerankAdapterOptionsV1 } from './adapter.js';
import { createCohereRerankEgressCodec } from './egress.js';
import { createCohereRerankIngressCodec } from './ingress.js';
import { COHERE_RERANK_PROTOCOL_FAMILY } from './protocol-family.js';
import { COHERE_RERANK_TRANSPORT_METADATA } from './transport-metadata.js';

/**
 * The `cohere-rerank/v1` suite entry: a sync family with bearer authentication, no fixed headers, and direct HTTP
 * (Cohere v2 ingress and egress). Options configure the adapter for compatible servers (path, `top_k`).
 */
export function createCohereRerankSuiteEntryV1(options?: CohereRerankAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return Object.freeze({
    protocolFamily: COHERE_RERANK_PROTOCOL_FAMILY,
    execution: 'sync',
    transportMetadata: COHERE_RERANK_TRANSPORT_METADATA,
    adapterFactory: createCohereRerankAdapterFactory(options),
    directHttp: true,
    codecs: Object.freeze({ ingress: createCohereRerankIngressCodec(), egress: createCohereRerankEgressCodec() }),
  });
}
