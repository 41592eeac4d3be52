import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { OPENAI_IMAGES_HTTP_FAMILY, type OpenAiImagesAdapterOptionsV1 } from './adapter.js';
import { createOpenAiImagesEgressCodec } from './egress.js';
import { createOpenAiImagesIngressCodec } from './ingress.js';

/**
 * The `openai-images/v1` suite entry: a sync family with bearer authentication, no fixed headers, and direct HTTP
 * (ingress of JSON generation requests, egress of `ImagesResponse` bodies).
 */
export function createOpenAiImagesSuiteEntryV1(options?: OpenAiImagesAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return OPENAI_IMAGES_HTTP_FAMILY.createSuiteEntry(options, { ingress: createOpenAiImagesIngressCodec(), egress: createOpenAiImagesEgressCodec() });
}
