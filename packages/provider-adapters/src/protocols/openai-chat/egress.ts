import type { EgressCodecV1, EgressFailureV1 } from '@tokenforge/model-protocol';
import { createOpenAiChatStreamEncoder } from './create-egress-stream-encoder.js';
import { encodeOpenAiChatError } from './encode-egress-error.js';
import { encodeOpenAiChatResponse } from './encode-egress-response.js';
import { OPENAI_CHAT_PROTOCOL_FAMILY } from './protocol-family.js';

/** Creates the `openai-chat/v1` egress codec. Pure: ids and time come from the egress context. */
export function createOpenAiChatEgressCodec(): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_CHAT_PROTOCOL_FAMILY,
    encodeResponse: encodeOpenAiChatResponse,
    createStreamEncoder: createOpenAiChatStreamEncoder,
    encodeError: (failure: EgressFailureV1) => encodeOpenAiChatError(failure),
  });
}
