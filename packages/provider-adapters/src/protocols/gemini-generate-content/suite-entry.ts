import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { GEMINI_GENERATE_CONTENT_HTTP_FAMILY, type GeminiGenerateContentAdapterOptionsV1 } from './adapter.js';
import { createGeminiGenerateContentEgressCodec } from './egress.js';
import { createGeminiGenerateContentIngressCodec } from './ingress.js';

/**
 * The suite entry of `gemini-generate-content/v1`: a sync, stream-capable family that takes part in direct HTTP
 * (ingress and egress codecs), authenticated with the `x-goog-api-key` header.
 */
export function createGeminiGenerateContentSuiteEntryV1(options?: GeminiGenerateContentAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return GEMINI_GENERATE_CONTENT_HTTP_FAMILY.createSuiteEntry(options, { ingress: createGeminiGenerateContentIngressCodec(), egress: createGeminiGenerateContentEgressCodec() });
}

/** @deprecated Use {@link createGeminiGenerateContentSuiteEntryV1} (the same function, named like every other family's). */
export const createGeminiGenerateContentSuiteEntry = createGeminiGenerateContentSuiteEntryV1;
