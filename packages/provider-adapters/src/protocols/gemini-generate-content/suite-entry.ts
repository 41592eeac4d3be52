import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createGeminiGenerateContentAdapterFactory, type GeminiGenerateContentAdapterOptionsV1 } from './adapter.js';
import { createGeminiGenerateContentEgressCodec } from './egress.js';
import { createGeminiGenerateContentIngressCodec } from './ingress.js';
import { GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY } from './protocol-family.js';
import { GEMINI_GENERATE_CONTENT_TRANSPORT_METADATA } from './transport-metadata.js';

/**
 * The suite entry of `gemini-generate-content/v1`: a sync, stream-capable family that takes part in direct HTTP
 * (ingress and egress codecs), authenticated with the `x-goog-api-key` header.
 */
export function createGeminiGenerateContentSuiteEntry(options?: GeminiGenerateContentAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return {
    protocolFamily: GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY,
    execution: 'sync',
    transportMetadata: GEMINI_GENERATE_CONTENT_TRANSPORT_METADATA,
    adapterFactory: createGeminiGenerateContentAdapterFactory(options),
    directHttp: true,
    codecs: { ingress: createGeminiGenerateContentIngressCodec(), egress: createGeminiGenerateContentEgressCodec() },
  };
}
