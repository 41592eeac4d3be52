import { CodecErrorV1, type ChatTaskV4, type ReasoningEffortV3 } from '@tokenforge/model-protocol';
import { encodeAnthropicMessages } from './encode-messages.js';
import { encodeAnthropicContextManagement } from './encode-context-management.js';
import { ANTHROPIC_DEFAULT_MAX_TOKENS } from './encode-output-budget.js';
import { encodeAnthropicThinking } from './encode-thinking.js';
import { encodeAnthropicTools } from './encode-tools.js';
import { encodeAnthropicCacheControl } from './map-cache-control.js';
import type { AnthropicMessagesRequestBody, AnthropicTextBlockParam } from './wire-request.js';

/** Options of {@link encodeAnthropicMessagesRequest}. */
export interface EncodeAnthropicMessagesRequestOptions {
  /** The model name to put on the wire (the target's `providerModel`). */
  readonly model: string;
  /** `max_tokens` when the task sets none (default {@link ANTHROPIC_DEFAULT_MAX_TOKENS}). */
  readonly defaultMaxTokens?: number;
  /** The effort levels the target declares (its capability's `reasoningEfforts`); see `encodeAnthropicOutputBudget`. */
  readonly reasoningEfforts?: readonly ReasoningEffortV3[];
}

/** Anthropic's temperature range ends at 1; the normalized range ends at 2. */
const ANTHROPIC_MAX_TEMPERATURE = 1;

/**
 * Encodes a chat task as a `POST /v1/messages` body. Pure.
 *
 * Mapping rules beyond the message rules of `encodeAnthropicMessages`:
 * - `system` text parts become top-level `system` text blocks with their cache breakpoints (empty parts are
 *   left out);
 * - `max_tokens` and `thinking` follow `encodeAnthropicOutputBudget`;
 * - tools and tool choice follow `encodeAnthropicTools`;
 * - `temperature` above 1 is clamped to 1 (Anthropic's maximum); `topP` and `topK` pass through;
 *   `frequencyPenalty`, `presencePenalty` and `seed` have no Anthropic counterpart and are dropped: they
 *   tune sampling but do not change what a correct answer looks like;
 * - a JSON response format with a schema is sent as `output_config.format` (`json_schema`, the schema
 *   unmodified; `strict` and `name` have no counterpart since Anthropic always enforces the schema). JSON
 *   without a schema cannot be expressed (Anthropic has no free JSON mode) and is refused;
 * - `caching.promptCacheKey` (a routing hint of other dialects) is dropped; breakpoints live on parts;
 * - an effort on a target with declared levels is `output_config.effort`, with adaptive thinking when the task
 *   asks for it (`encodeAnthropicThinking`);
 * - `endUserId` is `metadata.user_id`; `contextManagement` and `compaction` are `context_management` edits
 *   (`encodeAnthropicContextManagement`, the compaction edit last; the adapter adds the beta headers they need); `parallelToolCalls: false` is `disable_parallel_tool_use`;
 * - `verbosity` and `store` have no Anthropic counterpart and are dropped;
 * - `stream: true` is sent only for streaming tasks.
 *
 * @throws {CodecErrorV1} `unsupported-feature` for what Anthropic cannot express (audio, JSON without a
 * schema, unsupported media types), `invalid-request` for contradictory input (reasoning budget versus
 * max output tokens, unparsable tool-call arguments).
 */
export function encodeAnthropicMessagesRequest(
  task: ChatTaskV4,
  options: EncodeAnthropicMessagesRequestOptions,
): AnthropicMessagesRequestBody {
  const budget = encodeAnthropicThinking(task, options.defaultMaxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS, options.reasoningEfforts);
  const system = encodeSystem(task.system);
  const sampling = task.sampling;
  const format = encodeResponseFormat(task.responseFormat).output_config;
  const outputConfig = budget.effort === undefined ? format : { ...format, effort: budget.effort };
  const contextManagement = encodeAnthropicContextManagement(task.contextManagement, task.compaction);
  return {
    model: options.model,
    max_tokens: budget.max_tokens,
    ...(system === undefined ? {} : { system }),
    messages: encodeAnthropicMessages(task.messages),
    ...encodeAnthropicTools(task),
    ...(budget.thinking === undefined ? {} : { thinking: budget.thinking }),
    ...(sampling?.temperature === undefined ? {} : { temperature: Math.min(sampling.temperature, ANTHROPIC_MAX_TEMPERATURE) }),
    ...(sampling?.topP === undefined ? {} : { top_p: sampling.topP }),
    ...(sampling?.topK === undefined ? {} : { top_k: sampling.topK }),
    ...(task.stopSequences === undefined || task.stopSequences.length === 0 ? {} : { stop_sequences: [...task.stopSequences] }),
    ...(outputConfig === undefined ? {} : { output_config: outputConfig }),
    ...(task.endUserId === undefined ? {} : { metadata: { user_id: task.endUserId } }),
    ...(contextManagement === undefined ? {} : { context_management: contextManagement }),
    ...(task.stream ? { stream: true as const } : {}),
  };
}

function encodeSystem(system: ChatTaskV4['system']): AnthropicTextBlockParam[] | undefined {
  if (system === undefined) return undefined;
  const blocks = system
    .filter((part) => part.text.length > 0)
    .map(
      (part): AnthropicTextBlockParam => ({
        type: 'text',
        text: part.text,
        ...(part.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(part.cacheControl) }),
      }),
    );
  return blocks.length === 0 ? undefined : blocks;
}

function encodeResponseFormat(format: ChatTaskV4['responseFormat']): Pick<AnthropicMessagesRequestBody, 'output_config'> {
  if (format === undefined) return {};
  switch (format.type) {
    case 'text':
      return {};
    case 'json':
      if (format.schema === undefined) {
        throw new CodecErrorV1('unsupported-feature', 'Anthropic structured output needs a JSON schema', { path: 'responseFormat' });
      }
      return { output_config: { format: { type: 'json_schema', schema: format.schema } } };
    default: {
      const unknownFormat: never = format;
      throw new CodecErrorV1('invalid-request', `unknown response format ${String((unknownFormat as { type: unknown }).type)}`, {
        path: 'responseFormat',
      });
    }
  }
}
