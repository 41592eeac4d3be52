import { CodecErrorV1, type ClientWireRequestV1, type IngressDecodedRequestV1 } from '@tokenforge/model-protocol';
import { parseSafeJsonBytes, tokenCountOfChatTask } from '../../codec-kit/index.js';
import { decodeAnthropicMessagesRequest, type AnthropicMessagesIngressOptionsV1 } from './ingress.js';

// The count endpoint takes no output budget; the Messages reader requires one, and it does not change the count.
const PLACEHOLDER_MAX_TOKENS = 1;

/**
 * Decodes a client's `POST /v1/messages/count_tokens` body into a token-count task: the same members as a Messages
 * request (`model`, `messages`, `system`, `tools`, `tool_choice`, `thinking`), read by the Messages ingress, without
 * `max_tokens` (ignored when sent) and never streamed (`stream: true` is refused).
 *
 * @throws {CodecErrorV1} as `decodeAnthropicMessagesRequest` does.
 */
export function decodeAnthropicClientCountRequest(request: ClientWireRequestV1, options?: AnthropicMessagesIngressOptionsV1): IngressDecodedRequestV1 {
  const parsed = parseSafeJsonBytes(request.body, options?.maxBodyBytes === undefined ? undefined : { maxBytes: options.maxBodyBytes });
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CodecErrorV1('invalid-request', 'body must be a JSON object', { path: 'body' });
  const body = parsed as Record<string, unknown>;
  if (body.stream === true) throw new CodecErrorV1('invalid-request', 'a count request is not streamed', { path: 'stream' });
  const asMessages = { ...body, max_tokens: PLACEHOLDER_MAX_TOKENS, stream: false };
  const decoded = decodeAnthropicMessagesRequest({ ...request, body: new TextEncoder().encode(JSON.stringify(asMessages)) }, options);
  return { task: tokenCountOfChatTask(decoded.task), modelLabel: decoded.modelLabel };
}
