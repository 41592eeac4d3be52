import type { ClientWireRequestV1, IngressDecodedRequestV1 } from '@tokenforge/model-protocol';
import { tokenCountOfChatTask } from '../../codec-kit/index.js';
import { decodeOpenAiResponsesClientRequest, type OpenAiResponsesIngressOptionsV1 } from './ingress.js';

/**
 * Decodes a client's `POST /v1/responses/input_tokens` body into a token-count task: the same members as a Responses
 * request (`model`, `input`, `instructions`, `tools`, `tool_choice`, `reasoning`), read by the Responses ingress with
 * the same refusals (`previous_response_id` and `conversation` need stored state the gateway does not keep). The
 * gateway needs `model` to route, so it is required here although the provider's endpoint makes it optional.
 *
 * @throws {CodecErrorV1} as `decodeOpenAiResponsesClientRequest` does.
 */
export function decodeOpenAiResponsesClientCountRequest(request: ClientWireRequestV1, options?: OpenAiResponsesIngressOptionsV1): IngressDecodedRequestV1 {
  const decoded = decodeOpenAiResponsesClientRequest(request, options);
  return { task: tokenCountOfChatTask(decoded.task), modelLabel: decoded.modelLabel };
}
