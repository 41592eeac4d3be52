import type { ProviderTransportRequest, ReasoningEffortV3, TokenCountTaskV4 } from '@tokenforge/model-protocol';
import { tokenCountChatTask } from '../../codec-kit/index.js';
import { encodeOpenAiResponsesRequest, OPENAI_RESPONSES_PATH } from './encode-request.js';

/** The counting path, below the connection's base URL (which ends in `/v1`, as for {@link OPENAI_RESPONSES_PATH}). */
export const OPENAI_RESPONSES_INPUT_TOKENS_PATH = `${OPENAI_RESPONSES_PATH}/input_tokens`;

/**
 * Encodes a token-count task as a `POST /responses/input_tokens` request. Pure.
 *
 * The body is what `encodeOpenAiResponsesRequest` would send for the same input, restricted to the members the
 * counting endpoint takes: `model`, `instructions`, `input`, `tools`, `tool_choice` and `reasoning` (never
 * `store`, `include`, sampling or `stream`, which do not change the input).
 *
 * @throws {CodecErrorV1} as `encodeOpenAiResponsesRequest` does for the same input.
 */
export function encodeOpenAiResponsesCountRequest(
  task: TokenCountTaskV4,
  providerModel: string,
  reasoningEfforts?: readonly ReasoningEffortV3[],
): Omit<ProviderTransportRequest, 'signal'> {
  const full = encodeOpenAiResponsesRequest(tokenCountChatTask(task), providerModel, reasoningEfforts === undefined ? {} : { reasoningEfforts }).body.value;
  const body = {
    model: full.model,
    ...(full.instructions === undefined ? {} : { instructions: full.instructions }),
    input: full.input,
    ...(full.tools === undefined ? {} : { tools: full.tools }),
    ...(full.tool_choice === undefined ? {} : { tool_choice: full.tool_choice }),
    ...(full.reasoning === undefined ? {} : { reasoning: full.reasoning }),
  };
  return { method: 'POST', path: OPENAI_RESPONSES_INPUT_TOKENS_PATH, headers: { accept: 'application/json' }, body: { type: 'json', value: body } };
}
