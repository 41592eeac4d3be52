import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/**
 * How a host transport talks to an `openai-embeddings/v1` server: `Authorization: Bearer <key>` and no fixed
 * headers (organization and project headers are per-connection choices of the host, not facts of the dialect).
 */
export const OPENAI_EMBEDDINGS_TRANSPORT_METADATA: ProviderTransportMetadataV1 = Object.freeze({
  auth: Object.freeze({ scheme: 'bearer' as const }),
  fixedHeaders: Object.freeze({}),
});
