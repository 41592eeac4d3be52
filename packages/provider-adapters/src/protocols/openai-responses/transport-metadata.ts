import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/**
 * How a host transport talks to an `openai-responses/v1` server: `Authorization: Bearer <key>` and no fixed headers
 * (`OpenAI-Organization` / `OpenAI-Project` are per-connection choices of the host, not facts of the dialect).
 */
export const OPENAI_RESPONSES_TRANSPORT_METADATA: ProviderTransportMetadataV1 = Object.freeze({
  auth: Object.freeze({ scheme: 'bearer' as const }),
  fixedHeaders: Object.freeze({}),
});
