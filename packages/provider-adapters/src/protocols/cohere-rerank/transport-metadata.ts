import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/**
 * How a host transport talks to a `cohere-rerank/v1` server (Cohere, and the Jina, Voyage, Together, vLLM style
 * servers that speak the same dialect): `Authorization: Bearer <key>` and no fixed headers.
 */
export const COHERE_RERANK_TRANSPORT_METADATA: ProviderTransportMetadataV1 = Object.freeze({
  auth: Object.freeze({ scheme: 'bearer' as const }),
  fixedHeaders: Object.freeze({}),
});
