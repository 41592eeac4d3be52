import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/**
 * How a host transport talks to a Gemini generateContent endpoint: the API key goes in the `x-goog-api-key`
 * header (never the `?key=` query form, which would put the secret in URLs and logs); no fixed headers.
 */
export const GEMINI_GENERATE_CONTENT_TRANSPORT_METADATA: ProviderTransportMetadataV1 = Object.freeze({
  auth: Object.freeze({ scheme: 'header', headerName: 'x-goog-api-key' }),
  fixedHeaders: Object.freeze({}),
}) as ProviderTransportMetadataV1;
