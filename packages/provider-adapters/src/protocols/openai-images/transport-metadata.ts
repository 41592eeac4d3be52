import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/**
 * How a host transport talks to an `openai-images/v1` server: `Authorization: Bearer <key>` and no fixed headers.
 * The multipart boundary and content type of edits are the transport's to choose.
 */
export const OPENAI_IMAGES_TRANSPORT_METADATA: ProviderTransportMetadataV1 = Object.freeze({
  auth: Object.freeze({ scheme: 'bearer' as const }),
  fixedHeaders: Object.freeze({}),
});
