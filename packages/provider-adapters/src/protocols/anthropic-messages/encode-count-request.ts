import type { ProviderTransportRequest, ReasoningEffortV3, TokenCountTaskV4 } from '@tokenforge/model-protocol';
import { tokenCountChatTask } from '../../codec-kit/index.js';
import { anthropicBetaFlags } from './encode-beta-flags.js';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import type { AnthropicMessagesRequestBody } from './wire-request.js';

/** The counting path, below the connection's base URL. */
export const ANTHROPIC_COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** The body of `POST /v1/messages/count_tokens`: the members of a Messages request that count as input. */
export type AnthropicCountTokensRequestBody = Pick<AnthropicMessagesRequestBody, 'model' | 'messages' | 'system' | 'tools' | 'tool_choice' | 'thinking'>;

/**
 * Encodes a token-count task as a `POST /v1/messages/count_tokens` request. Pure.
 *
 * The body is what `encodeAnthropicMessagesRequest` would send for the same input, restricted to the members the
 * counting endpoint takes: `model`, `system`, `messages`, `tools`, `tool_choice` and `thinking` (never
 * `max_tokens`, sampling or `stream`, which do not change the input). A conversation that replays a compaction
 * block names the compaction beta in `anthropic-beta`, as the Messages request does.
 *
 * @throws {CodecErrorV1} as `encodeAnthropicMessagesRequest` does for the same input.
 */
export function encodeAnthropicCountRequest(
  task: TokenCountTaskV4,
  model: string,
  reasoningEfforts?: readonly ReasoningEffortV3[],
): Omit<ProviderTransportRequest, 'signal'> {
  const full = encodeAnthropicMessagesRequest(tokenCountChatTask(task), { model, ...(reasoningEfforts === undefined ? {} : { reasoningEfforts }) });
  const body: AnthropicCountTokensRequestBody = {
    model: full.model,
    ...(full.system === undefined ? {} : { system: full.system }),
    messages: full.messages,
    ...(full.tools === undefined ? {} : { tools: full.tools }),
    ...(full.tool_choice === undefined ? {} : { tool_choice: full.tool_choice }),
    ...(full.thinking === undefined ? {} : { thinking: full.thinking }),
  };
  const beta = anthropicBetaFlags({ messages: body.messages });
  return {
    method: 'POST',
    path: ANTHROPIC_COUNT_TOKENS_PATH,
    headers: { accept: 'application/json', ...(beta === undefined ? {} : { 'anthropic-beta': beta }) },
    body: { type: 'json', value: body },
  };
}
