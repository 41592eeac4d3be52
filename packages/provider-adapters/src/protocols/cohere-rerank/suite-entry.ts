import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { COHERE_RERANK_HTTP_FAMILY, type CohereRerankAdapterOptionsV1 } from './adapter.js';
import { createCohereRerankEgressCodec } from './egress.js';
import { createCohereRerankIngressCodec } from './ingress.js';

/**
 * The `cohere-rerank/v1` suite entry: a sync family with bearer authentication, no fixed headers, and direct HTTP
 * (Cohere v2 ingress and egress). Options configure the adapter for compatible servers (path, `top_k`).
 */
export function createCohereRerankSuiteEntryV1(options?: CohereRerankAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return COHERE_RERANK_HTTP_FAMILY.createSuiteEntry(options, { ingress: createCohereRerankIngressCodec(), egress: createCohereRerankEgressCodec() });
}
