import { CodecErrorV1, type ChatTaskV4, type ReasoningEffortV3, type TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { encodeOpenAiChatMessages, type OpenAiChatRequestMessage } from './encode-messages.js';
import {
  encodeOpenAiChatToolChoice,
  encodeOpenAiChatTools,
  type OpenAiChatRequestTool,
  type OpenAiChatRequestToolChoice,
} from './encode-tools.js';
import { mapOpenAiChatReasoningEffort, type OpenAiChatReasoningEffort } from './map-reasoning-effort.js';
import { resolveOpenAiChatProtocolOptions, type OpenAiChatProtocolOptionsV1 } from './protocol-options.js';

/** The path of the endpoint, below the connection's base URL (for OpenAI, `https://api.openai.com/v1`). */
export const OPENAI_CHAT_COMPLETIONS_PATH = '/chat/completions';

/** `response_format` on the wire. */
export type OpenAiChatRequestResponseFormat =
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly json_schema: { readonly name: string; readonly schema: Readonly<Record<string, unknown>>; readonly strict?: boolean };
    };

/** The request body this family sends (only the fields it ever sets). */
export interface OpenAiChatRequestBody {
  /** The target's wire model name. */
  readonly model: string;
  /** System instructions first, then the conversation. */
  readonly messages: readonly OpenAiChatRequestMessage[];
  /** Function tools; absent without tools. */
  readonly tools?: readonly OpenAiChatRequestTool[];
  /** How the model may use the tools. */
  readonly tool_choice?: OpenAiChatRequestToolChoice;
  /** JSON output: `json_schema` with a schema, `json_object` without. Absent for free text. */
  readonly response_format?: OpenAiChatRequestResponseFormat;
  /** Sampling temperature, 0 to 2. */
  readonly temperature?: number;
  /** Nucleus sampling mass. */
  readonly top_p?: number;
  /** Frequency penalty, -2 to 2. */
  readonly frequency_penalty?: number;
  /** Presence penalty, -2 to 2. */
  readonly presence_penalty?: number;
  /** Best-effort determinism seed. */
  readonly seed?: number;
  /** Output cap including reasoning tokens (default field). */
  readonly max_completion_tokens?: number;
  /** Deprecated output cap, sent instead when the `maxTokensField` option asks. */
  readonly max_tokens?: number;
  /** Stop sequences. */
  readonly stop?: readonly string[];
  /** Reasoning effort (see `mapOpenAiChatReasoningEffort`). */
  readonly reasoning_effort?: OpenAiChatReasoningEffort;
  /** Whether the model may call several tools in one turn (sent with tools only). */
  readonly parallel_tool_calls?: boolean;
  /** How long the answer should be. */
  readonly verbosity?: 'low' | 'medium' | 'high';
  /** The end user the request is made for (abuse monitoring). */
  readonly safety_identifier?: string;
  /** The hosted web search (OpenAI's search models). */
  readonly web_search_options?: Readonly<Record<string, never>>;
  /** Prompt-cache routing key. */
  readonly prompt_cache_key?: string;
  /** Present (true) only for stream tasks. */
  readonly stream?: true;
  /** Present only for stream tasks: asks for the final usage chunk. */
  readonly stream_options?: { readonly include_usage: true };
}

/** A request ready for the transport, without the abort signal the adapter adds. */
export interface OpenAiChatEncodedRequest {
  /** Always `POST`. */
  readonly method: 'POST';
  /** {@link OPENAI_CHAT_COMPLETIONS_PATH}. */
  readonly path: string;
  /** `accept` only: content type and credentials belong to the transport. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body. */
  readonly body: { readonly type: 'json'; readonly value: OpenAiChatRequestBody };
}

/** Default schema name when a JSON-schema response format has none (`name` is required on the wire). */
const DEFAULT_SCHEMA_NAME = 'response';

function encodeResponseFormat(format: ChatTaskV4['responseFormat']): OpenAiChatRequestResponseFormat | undefined {
  if (format === undefined || format.type === 'text') return undefined;
  if (format.schema === undefined) return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name ?? DEFAULT_SCHEMA_NAME,
      schema: format.schema,
      ...(format.strict === undefined ? {} : { strict: format.strict }),
    },
  };
}

/**
 * The hosted web search as `web_search_options: {}`. Chat Completions takes no domain lists: a web search with
 * allowed or blocked domains is refused, since searching without the limits would change the answer.
 */
function encodeWebSearch(hostedTools: ChatTaskV4['hostedTools']): Pick<OpenAiChatRequestBody, 'web_search_options'> {
  if (hostedTools === undefined || hostedTools.length === 0) return {};
  hostedTools.forEach((tool, index) => {
    if ((tool.allowedDomains?.length ?? 0) > 0 || (tool.blockedDomains?.length ?? 0) > 0) {
      throw new CodecErrorV1('unsupported-feature', 'openai-chat web search takes no domain lists', { path: `hostedTools.${index}` });
    }
  });
  return { web_search_options: {} };
}

/**
 * Encodes a chat task as a `POST /chat/completions` request. Pure.
 *
 * Mapping: system and messages by `encodeOpenAiChatMessages`; tools and tool choice by `encodeOpenAiChatTools`
 * / `encodeOpenAiChatToolChoice`; a JSON response format with a schema becomes `json_schema` (name defaults to
 * `response`), without a schema `json_object`, text sends nothing; sampling maps field by field
 * (`temperature`, `top_p`, `frequency_penalty`, `presence_penalty`, `seed`), while `topK` has no field in this
 * dialect and is dropped (as the official SDKs do: it only narrows sampling); `maxOutputTokens` goes to
 * `max_completion_tokens` (or `max_tokens` by option); `stopSequences` to `stop` (a server with a lower limit,
 * OpenAI's 4, answers with its own error); reasoning by `mapOpenAiChatReasoningEffort`;
 * `parallelToolCalls` to `parallel_tool_calls` (with tools only; the engine sends it only to a target declaring
 * the fact); `verbosity` and `endUserId` (as `safety_identifier`) only to a target declaring `reasoningEfforts`;
 * a hosted web search to `web_search_options`;
 * `caching.promptCacheKey` to `prompt_cache_key`; streaming sets `stream: true` and
 * `stream_options.include_usage` so the last chunk reports usage. `reasoningEfforts` are the levels the target
 * declares (its capability's `reasoningEfforts`). `idempotencyKey` has no Chat Completions
 * carrier and is not sent. `n` is never sent (one choice).
 *
 * @throws {CodecErrorV1} `unsupported-feature` for a task kind other than chat or content the dialect cannot
 * carry; `invalid-request` for an inconsistent tool choice.
 */
export function encodeOpenAiChatRequest(
  task: TaskEnvelopeV4,
  providerModel: string,
  options?: OpenAiChatProtocolOptionsV1,
  reasoningEfforts?: readonly ReasoningEffortV3[],
): OpenAiChatEncodedRequest {
  if (task.kind !== 'chat') throw new CodecErrorV1('unsupported-feature', `openai-chat cannot run ${task.kind} tasks`, { path: 'kind' });
  const resolved = resolveOpenAiChatProtocolOptions(options);
  const sampling = task.sampling;
  const responseFormat = encodeResponseFormat(task.responseFormat);
  const effort = mapOpenAiChatReasoningEffort(task.reasoning, reasoningEfforts);
  const tools = task.tools !== undefined && task.tools.length > 0 ? encodeOpenAiChatTools(task.tools) : undefined;
  // `verbosity` and `safety_identifier` are OpenAI fields some compatible servers refuse: they go only to a target
  // that declares its reasoning levels (`reasoningEfforts`), the fact that marks a current OpenAI-style model.
  const currentFields = reasoningEfforts !== undefined;
  const body: OpenAiChatRequestBody = {
    model: providerModel,
    messages: encodeOpenAiChatMessages(task.system, task.messages, resolved),
    ...(tools === undefined ? {} : { tools }),
    ...(task.toolChoice === undefined ? {} : { tool_choice: encodeOpenAiChatToolChoice(task.toolChoice, task.tools) }),
    ...(responseFormat === undefined ? {} : { response_format: responseFormat }),
    ...(sampling?.temperature === undefined ? {} : { temperature: sampling.temperature }),
    ...(sampling?.topP === undefined ? {} : { top_p: sampling.topP }),
    ...(sampling?.frequencyPenalty === undefined ? {} : { frequency_penalty: sampling.frequencyPenalty }),
    ...(sampling?.presencePenalty === undefined ? {} : { presence_penalty: sampling.presencePenalty }),
    ...(sampling?.seed === undefined ? {} : { seed: sampling.seed }),
    ...(task.maxOutputTokens === undefined ? {} : { [resolved.maxTokensField]: task.maxOutputTokens }),
    ...(task.stopSequences === undefined || task.stopSequences.length === 0 ? {} : { stop: task.stopSequences }),
    ...(effort === undefined ? {} : { reasoning_effort: effort }),
    ...(task.parallelToolCalls === undefined || tools === undefined ? {} : { parallel_tool_calls: task.parallelToolCalls }),
    ...(task.verbosity === undefined || !currentFields ? {} : { verbosity: task.verbosity }),
    ...(task.endUserId === undefined || !currentFields ? {} : { safety_identifier: task.endUserId }),
    ...encodeWebSearch(task.hostedTools),
    ...(task.caching?.promptCacheKey === undefined ? {} : { prompt_cache_key: task.caching.promptCacheKey }),
    ...(task.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  return {
    method: 'POST',
    path: OPENAI_CHAT_COMPLETIONS_PATH,
    // The transport owns content-type (it serializes the JSON body) and refuses it from adapters.
    headers: { accept: task.stream ? 'text/event-stream' : 'application/json' },
    body: { type: 'json', value: body },
  };
}
