import type { EgressCodecV1, EgressContextV1, EgressFailureV3 } from '@tokenforge/model-protocol';
import { createOpenAiChatStreamEncoder } from './encode-client-stream.js';
import { encodeOpenAiChatError } from './encode-client-error.js';
import { encodeOpenAiChatResponse } from './encode-client-response.js';
import { OPENAI_CHAT_PROTOCOL_FAMILY } from './protocol-family.js';

/** Creates the `openai-chat/v1` egress codec. Pure: ids and time come from the egress context. */
export function createOpenAiChatEgressCodec(): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_CHAT_PROTOCOL_FAMILY,
    encodeResponse: encodeOpenAiChatResponse,
    createStreamEncoder: (context: EgressContextV1) => createOpenAiChatStreamEncoder(context),
    encodeError: (failure: EgressFailureV3) => encodeOpenAiChatError(failure),
  });
}
