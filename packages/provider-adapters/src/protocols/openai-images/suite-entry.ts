import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createOpenAiImagesAdapterFactory, type OpenAiImagesAdapterOptionsV1 } from './adapter.js';
import { createOpenAiImagesEgressCodec } from './egress.js';
import { createOpenAiImagesIngressCodec } from './ingress.js';
import { OPENAI_IMAGES_PROTOCOL_FAMILY } from './protocol-family.js';
import { OPENAI_IMAGES_TRANSPORT_METADATA } from './transport-metadata.js';

/**
 * The `openai-images/v1` suite entry: a sync family with bearer authentication, no fixed headers, and direct HTTP
 * (ingress of JSON generation requests, egress of `ImagesResponse` bodies).
 */
export function createOpenAiImagesSuiteEntryV1(options?: OpenAiImagesAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return Object.freeze({
    protocolFamily: OPENAI_IMAGES_PROTOCOL_FAMILY,
    execution: 'sync',
    transportMetadata: OPENAI_IMAGES_TRANSPORT_METADATA,
    adapterFactory: createOpenAiImagesAdapterFactory(options),
    directHttp: true,
    codecs: Object.freeze({ ingress: createOpenAiImagesIngressCodec(), egress: createOpenAiImagesEgressCodec() }),
  });
}
