import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/** The Messages API version header every request carries (the only version Anthropic has published). */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * How a host transport talks to an Anthropic Messages endpoint: the API key goes in the `x-api-key` header,
 * and every request carries `anthropic-version`. The beta flags (`anthropic-beta`) this family sends are the
 * context-management one, on requests that carry `context_management`, and the compaction one, on requests that
 * replay a compaction block (added by the adapter, not here).
 */
export const ANTHROPIC_MESSAGES_TRANSPORT_METADATA: ProviderTransportMetadataV1 = Object.freeze({
  auth: Object.freeze({ scheme: 'header' as const, headerName: 'x-api-key' }),
  fixedHeaders: Object.freeze({ 'anthropic-version': ANTHROPIC_VERSION }),
});

/** @deprecated Use {@link ANTHROPIC_MESSAGES_TRANSPORT_METADATA} (the same frozen object, named like every other family's). */
export const anthropicMessagesTransportMetadata: ProviderTransportMetadataV1 = ANTHROPIC_MESSAGES_TRANSPORT_METADATA;
