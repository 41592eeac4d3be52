import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/** The Messages API version header every request carries (the only version Anthropic has published). */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * How a host transport talks to an Anthropic Messages endpoint: the API key goes in the `x-api-key` header,
 * and every request carries `anthropic-version`. Beta flags (`anthropic-beta`) are never sent by this family.
 */
export const anthropicMessagesTransportMetadata: ProviderTransportMetadataV1 = {
  auth: { scheme: 'header', headerName: 'x-api-key' },
  fixedHeaders: { 'anthropic-version': ANTHROPIC_VERSION },
};
