export { OPENAI_IMAGES_PROTOCOL_FAMILY } from './protocol-family.js';
export { createOpenAiImagesAdapterFactory, DEFAULT_OPENAI_IMAGES_MAX_BODY_BYTES } from './adapter.js';
export type { OpenAiImagesAdapterOptionsV1 } from './adapter.js';
export { createOpenAiImagesSuiteEntryV1 } from './suite-entry.js';
export { createOpenAiImagesIngressCodec, decodeOpenAiImagesClientRequest } from './ingress.js';
export type { OpenAiImagesIngressOptionsV1 } from './ingress.js';
export { createOpenAiImagesEgressCodec } from './egress.js';
export { OPENAI_IMAGES_TRANSPORT_METADATA } from './transport-metadata.js';
export {
  encodeOpenAiImagesRequest,
  OPENAI_IMAGES_EDITS_PATH,
  OPENAI_IMAGES_GENERATIONS_PATH,
  OPENAI_IMAGES_MAX_EDIT_IMAGES,
} from './encode-request.js';
export type { OpenAiImagesEncodedRequest, OpenAiImagesGenerationBody } from './encode-request.js';
export { decodeOpenAiImagesResponse } from './decode-response.js';
export type { OpenAiImagesExpectation } from './decode-response.js';
