import { CodecErrorV1, type ChatTaskV4, type ReasoningEffortV3, type TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { encodeOpenAiResponsesInput, type OpenAiResponsesInputItem } from './encode-input.js';
import {
  encodeOpenAiResponsesHostedTools,
  encodeOpenAiResponsesToolChoice,
  encodeOpenAiResponsesTools,
  type OpenAiResponsesRequestTool,
  type OpenAiResponsesRequestWebSearchTool,
  type OpenAiResponsesRequestToolChoice,
} from './encode-tools.js';
import { mapOpenAiResponsesReasoning, type OpenAiResponsesRequestReasoning } from './map-reasoning.js';

/** The path of the endpoint, below the connection's base URL (for OpenAI, `https://api.openai.com/v1`). */
export const OPENAI_RESPONSES_PATH = '/responses';

/** The `include` value that asks for reasoning items with their `encrypted_content`. */
export const OPENAI_RESPONSES_ENCRYPTED_REASONING_INCLUDE = 'reasoning.encrypted_content';

/** `text.format` on the wire (flat, unlike Chat Completions). */
export type OpenAiResponsesRequestTextFormat =
  | { readonly type: 'json_object' }
  | { readonly type: 'json_schema'; readonly name: string; readonly schema: Readonly<Record<string, unknown>>; readonly strict?: boolean };

/** The request body this family sends (only the fields it ever sets). */
export interface OpenAiResponsesRequestBody {
  /** The target's wire model name. */
  readonly model: string;
  /** The task's system text, parts joined by a blank line. */
  readonly instructions?: string;
  /** The conversation as input items. */
  readonly input: readonly OpenAiResponsesInputItem[];
  /** Function tools and the hosted web search; absent without tools. */
  readonly tools?: readonly (OpenAiResponsesRequestTool | OpenAiResponsesRequestWebSearchTool)[];
  /** How the model may use the tools. */
  readonly tool_choice?: OpenAiResponsesRequestToolChoice;
  /** Whether the model may call several tools in one turn. */
  readonly parallel_tool_calls?: boolean;
  /** JSON output format (absent for free text) and the answer's verbosity. */
  readonly text?: { readonly format?: OpenAiResponsesRequestTextFormat; readonly verbosity?: 'low' | 'medium' | 'high' };
  /** The end user the request is made for (abuse monitoring). */
  readonly safety_identifier?: string;
  /** Sampling temperature, 0 to 2. */
  readonly temperature?: number;
  /** Nucleus sampling mass. */
  readonly top_p?: number;
  /** Output cap, reasoning tokens included. */
  readonly max_output_tokens?: number;
  /** Reasoning effort and summary request (see `mapOpenAiResponsesReasoning`). */
  readonly reasoning?: OpenAiResponsesRequestReasoning;
  /** Prompt-cache routing key. */
  readonly prompt_cache_key?: string;
  /**
   * Server-side compaction: one `compaction` entry with its `compact_threshold` (rendered input tokens), from the
   * task's `compaction`. https://developers.openai.com/api/docs/guides/compaction
   */
  readonly context_management?: readonly { readonly type: 'compaction'; readonly compact_threshold?: number }[];
  /** Always `false`: nothing is kept at the provider (every request carries the whole conversation). */
  readonly store: false;
  /** `["reasoning.encrypted_content"]` for reasoning targets, so reasoning can be replayed statelessly. */
  readonly include?: readonly string[];
  /** Present (true) only for stream tasks. */
  readonly stream?: true;
}

/** Encoder options: facts about the target, never credentials. */
export interface OpenAiResponsesEncodeOptionsV1 {
  /**
   * Ask for `encrypted_content` on reasoning items (`include: ["reasoning.encrypted_content"]`). The adapter sets it
   * from the target capability's `reasoning` flag: OpenAI refuses the include on models without reasoning.
   */
  readonly encryptedReasoning?: boolean;
  /** The effort levels the target declares (its capability's `reasoningEfforts`); see `mapOpenAiResponsesReasoning`. */
  readonly reasoningEfforts?: readonly ReasoningEffortV3[];
}

/** A request ready for the transport, without the abort signal the adapter adds. */
export interface OpenAiResponsesEncodedRequest {
  /** Always `POST`. */
  readonly method: 'POST';
  /** {@link OPENAI_RESPONSES_PATH}. */
  readonly path: string;
  /** `accept` only: content type and credentials belong to the transport. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body. */
  readonly body: { readonly type: 'json'; readonly value: OpenAiResponsesRequestBody };
}

/** Default schema name when a JSON-schema format has none (`name` is required on the wire). */
const DEFAULT_SCHEMA_NAME = 'response';

function encodeTextFormat(format: ChatTaskV4['responseFormat']): OpenAiResponsesRequestTextFormat | undefined {
  if (format === undefined || format.type === 'text') return undefined;
  if (format.schema === undefined) return { type: 'json_object' };
  return {
    type: 'json_schema',
    name: format.name ?? DEFAULT_SCHEMA_NAME,
    schema: format.schema,
    ...(format.strict === undefined ? {} : { strict: format.strict }),
  };
}

/**
 * Encodes a chat task as a `POST /responses` request. Pure.
 *
 * Mapping: `system` → `instructions` (text parts joined by a blank line); messages → `input` items by
 * `encodeOpenAiResponsesInput`; tools and tool choice by `encodeOpenAiResponsesTools` /
 * `encodeOpenAiResponsesToolChoice`; a JSON response format with a schema → `text.format` `json_schema` (flat; name
 * defaults to `response`), without a schema `json_object`, text sends nothing; `temperature`, `top_p`;
 * `maxOutputTokens` → `max_output_tokens`; reasoning by `mapOpenAiResponsesReasoning`; `caching.promptCacheKey` →
 * `prompt_cache_key`; hosted web search → a `web_search` tool; `parallelToolCalls` → `parallel_tool_calls` (with
 * tools only); `verbosity` → `text.verbosity`; `endUserId` → `safety_identifier`; `compaction` → `context_management: [{type: "compaction",
 * compact_threshold}]` (its Anthropic-only members have no Responses field); streaming sets `stream: true`.
 *
 * Statelessness: `store: false` is always sent (the conversation travels whole in every request, nothing is left at
 * the provider), and for reasoning targets `include: ["reasoning.encrypted_content"]`, so reasoning items come back
 * with the encrypted content that lets the next request replay them without server-side state.
 *
 * Dropped on purpose: `topK`, `frequencyPenalty`, `presencePenalty` and `seed` have no Responses field; like the
 * official SDKs, which do not send them either, this family treats them as sampling hints whose absence leaves a
 * valid answer. `idempotencyKey` has no carrier.
 *
 * @throws {CodecErrorV1} `unsupported-feature` for a task kind other than chat, for stop sequences (Responses has
 * no `stop`, and generating past a stop sequence changes the answer) and for audio input; `invalid-request` for an
 * inconsistent tool choice.
 */
export function encodeOpenAiResponsesRequest(
  task: TaskEnvelopeV4,
  providerModel: string,
  options?: OpenAiResponsesEncodeOptionsV1,
): OpenAiResponsesEncodedRequest {
  if (task.kind !== 'chat') throw new CodecErrorV1('unsupported-feature', `openai-responses cannot run ${task.kind} tasks`, { path: 'kind' });
  if (task.stopSequences !== undefined && task.stopSequences.length > 0) {
    throw new CodecErrorV1('unsupported-feature', 'openai-responses has no stop sequences', { path: 'stopSequences' });
  }
  const instructions = task.system === undefined || task.system.length === 0 ? undefined : task.system.map((part) => part.text).join('\n\n');
  const format = encodeTextFormat(task.responseFormat);
  const reasoning = mapOpenAiResponsesReasoning(task.reasoning, options?.reasoningEfforts);
  const functionTools = task.tools !== undefined && task.tools.length > 0 ? encodeOpenAiResponsesTools(task.tools) : [];
  const hostedTools = task.hostedTools === undefined ? [] : encodeOpenAiResponsesHostedTools(task.hostedTools);
  const tools = functionTools.length + hostedTools.length === 0 ? undefined : [...functionTools, ...hostedTools];
  const text = format === undefined && task.verbosity === undefined ? undefined : { ...(format === undefined ? {} : { format }), ...(task.verbosity === undefined ? {} : { verbosity: task.verbosity }) };
  const body: OpenAiResponsesRequestBody = {
    model: providerModel,
    ...(instructions === undefined ? {} : { instructions }),
    input: encodeOpenAiResponsesInput(task.messages),
    ...(tools === undefined ? {} : { tools }),
    ...(task.toolChoice === undefined ? {} : { tool_choice: encodeOpenAiResponsesToolChoice(task.toolChoice, task.tools, task.hostedTools) }),
    ...(task.parallelToolCalls === undefined || tools === undefined ? {} : { parallel_tool_calls: task.parallelToolCalls }),
    ...(text === undefined ? {} : { text }),
    ...(task.sampling?.temperature === undefined ? {} : { temperature: task.sampling.temperature }),
    ...(task.sampling?.topP === undefined ? {} : { top_p: task.sampling.topP }),
    ...(task.maxOutputTokens === undefined ? {} : { max_output_tokens: task.maxOutputTokens }),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(task.caching?.promptCacheKey === undefined ? {} : { prompt_cache_key: task.caching.promptCacheKey }),
    ...(task.endUserId === undefined ? {} : { safety_identifier: task.endUserId }),
    ...(task.compaction === undefined
      ? {}
      : { context_management: [{ type: 'compaction' as const, ...(task.compaction.triggerInputTokens === undefined ? {} : { compact_threshold: task.compaction.triggerInputTokens }) }] }),
    store: false,
    ...(options?.encryptedReasoning === true ? { include: [OPENAI_RESPONSES_ENCRYPTED_REASONING_INCLUDE] } : {}),
    ...(task.stream ? { stream: true } : {}),
  };
  return {
    method: 'POST',
    path: OPENAI_RESPONSES_PATH,
    // The transport owns content-type (it serializes the JSON body) and refuses it from adapters.
    headers: { accept: task.stream ? 'text/event-stream' : 'application/json' },
    body: { type: 'json', value: body },
  };
}
