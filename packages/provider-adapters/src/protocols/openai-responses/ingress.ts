import {
  chatTaskV4Schema,
  REASONING_EFFORTS_V3,
  type ChatTaskV2,
  type ReasoningControlV3,
  type ReasoningEffortV3,
  type ClientWireRequestV1,
  type IngressCodecV1,
  type IngressDecodedRequestV1,
  type ResponseFormatV2,
  type ToolChoiceV2,
} from '@tokenforge/model-protocol';
import { acceptEndUserId, clientFieldPath, parseSafeJsonBytes, SNAKE_CASE_SAMPLING_NAMES, type ClientFieldNames, type SafeJsonLimits } from '../../codec-kit/index.js';

/** Task fields under the Responses API's names (for `error.param`). */
const RESPONSES_FIELD_NAMES: ClientFieldNames = { ...SNAKE_CASE_SAMPLING_NAMES, maxOutputTokens: 'max_output_tokens' };
import {
  invalidClientField,
  isClientObject,
  isUnset,
  optionalClientArray,
  optionalClientBoolean,
  optionalClientNumber,
  optionalClientObject,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
  type ClientJsonObject,
} from '../openai-common/client-json.js';
import { decodeOpenAiResponsesClientInput } from './decode-client-input.js';
import { decodeOpenAiResponsesClientTools } from './decode-client-tools.js';
import { OPENAI_RESPONSES_PROTOCOL_FAMILY } from './protocol-family.js';

/** A decoded Responses request, with what the egress needs to answer in the client's own tool terms. */
export interface OpenAiResponsesDecodedRequestV1 extends IngressDecodedRequestV1 {
  /** Names of the client's freeform (`custom`) tools, offered to the target as functions taking one `input` string. */
  readonly clientFreeformToolNames?: readonly string[];
  /** Types of the hosted tools the client offered that were dropped (they run at OpenAI, not at the target). */
  readonly droppedHostedTools?: readonly string[];
  /** The client's tool types of the task's `hostedTools`, in the same order (a host names dropped ones by them). */
  readonly hostedToolNames?: readonly string[];
}

/** Options of {@link createOpenAiResponsesIngressCodec}. */
export interface OpenAiResponsesIngressOptionsV1 {
  /** Limits of the body parser (defaults: 32 MiB, 64 levels). */
  readonly limits?: SafeJsonLimits;
}

function decodeToolChoice(value: unknown): ToolChoiceV2 | undefined {
  if (isUnset(value)) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
  if (isClientObject(value) && (value.type === 'function' || value.type === 'custom')) return { type: 'tool', toolName: requiredClientString(value, 'name', 'tool_choice.') };
  if (isClientObject(value)) throw unsupportedClientField('tool_choice.type', 'only auto, none, required and a named function are supported');
  throw invalidClientField('tool_choice', 'must be auto, none, required or an object');
}

function decodeTextFormat(text: ClientJsonObject | undefined): ResponseFormatV2 | undefined {
  const format = text === undefined ? undefined : optionalClientObject(text, 'format', 'text.');
  if (format === undefined) return undefined;
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json' };
    case 'json_schema': {
      const schema = optionalClientObject(format, 'schema', 'text.format.');
      if (schema === undefined) throw invalidClientField('text.format.schema', 'is required');
      const strict = optionalClientBoolean(format, 'strict', 'text.format.');
      return { type: 'json', name: requiredClientString(format, 'name', 'text.format.'), schema: { ...schema }, ...(strict === undefined ? {} : { strict }) };
    }
    default:
      throw unsupportedClientField('text.format.type', 'must be text, json_object or json_schema');
  }
}

/**
 * Client effort to V2 task effort (the V2 scale stops at `high`). The decoder now keeps the client's level on the V3
 * scale; this table remains for hosts that need a V2 effort.
 *
 * @deprecated The task carries the V3 effort unchanged.
 */
export const OPENAI_RESPONSES_CLIENT_EFFORT_TO_TASK: Readonly<Record<string, NonNullable<NonNullable<ChatTaskV2['reasoning']>['effort']> | undefined>> = {
  none: undefined,
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

/** `reasoning.context` wire values and the task's. */
const REASONING_CONTEXTS: Readonly<Record<string, NonNullable<ReasoningControlV3['context']>>> = {
  auto: 'auto',
  all_turns: 'all-turns',
  current_turn: 'current-turn',
};

/**
 * `reasoning` and `include` as the task's reasoning: `effort` over none … max unchanged (`none` alone when asked),
 * `summary` (kept, and asks to include reasoning), `context` (`all_turns` → `all-turns`, `current_turn` →
 * `current-turn`, `auto`; an unknown value is a hint and left out), `include` holding
 * `reasoning.encrypted_content` → `includeEncrypted`.
 */
function decodeReasoning(value: ClientJsonObject | undefined, include: readonly unknown[] | undefined): ReasoningControlV3 | undefined {
  const includeEncrypted = include?.includes('reasoning.encrypted_content') === true ? true : undefined;
  if (value === undefined) return includeEncrypted === undefined ? undefined : { includeEncrypted };
  const clientEffort = optionalClientString(value, 'effort', 'reasoning.');
  if (clientEffort !== undefined && !(REASONING_EFFORTS_V3 as readonly string[]).includes(clientEffort)) throw invalidClientField('reasoning.effort', 'is not a known effort');
  const effort = clientEffort as ReasoningEffortV3 | undefined;
  // `none` asks for no reasoning at all.
  if (effort === 'none') return { effort };
  const summary = optionalClientString(value, 'summary', 'reasoning.') ?? optionalClientString(value, 'generate_summary', 'reasoning.');
  if (summary !== undefined && summary !== 'auto' && summary !== 'concise' && summary !== 'detailed') {
    throw invalidClientField('reasoning.summary', 'must be auto, concise or detailed');
  }
  const clientContext = optionalClientString(value, 'context', 'reasoning.');
  const context = clientContext === undefined ? undefined : REASONING_CONTEXTS[clientContext];
  if (effort === undefined && summary === undefined && context === undefined && includeEncrypted === undefined) return undefined;
  return {
    ...(effort === undefined ? {} : { effort }),
    ...(summary === undefined ? {} : { includeReasoning: true, summary }),
    ...(context === undefined ? {} : { context }),
    ...(includeEncrypted === undefined ? {} : { includeEncrypted }),
  };
}

/** `text.verbosity` (low, medium, high; another value is a hint and left out). */
function decodeVerbosity(text: ClientJsonObject | undefined): ChatTaskV3Verbosity | undefined {
  const verbosity = text?.verbosity;
  return verbosity === 'low' || verbosity === 'medium' || verbosity === 'high' ? verbosity : undefined;
}

type ChatTaskV3Verbosity = 'low' | 'medium' | 'high';

/** Features that need server-side state or whose loss would change the answer: refused when set. */
function refuseUnrepresentable(body: ClientJsonObject): void {
  if (!isUnset(body.previous_response_id)) throw unsupportedClientField('previous_response_id', 'server-side conversation state is not supported; send the whole conversation');
  if (!isUnset(body.conversation)) throw unsupportedClientField('conversation', 'server-side conversation state is not supported; send the whole conversation');
  if (body.store === true) throw unsupportedClientField('store', 'storing responses at the server is not supported; send store false');
  if (body.background === true) throw unsupportedClientField('background', 'background responses are not supported');
  if (!isUnset(body.prompt)) throw unsupportedClientField('prompt', 'stored prompt templates are not supported');
  if (typeof body.top_logprobs === 'number' && body.top_logprobs > 0) throw unsupportedClientField('top_logprobs', 'log probabilities are not supported');
  if (!isUnset(body.max_tool_calls)) throw unsupportedClientField('max_tool_calls', 'a tool call limit is not supported');
}

/**
 * Decodes a Responses request body into a chat task. Pure; the body is parsed with the kit's safe JSON parser.
 *
 * Mapping (the reverse of the request encoder): `model` is the model label; `instructions` is the first system part,
 * followed by leading system/developer `input` messages; `input` (a string is one user message; items by
 * `decodeOpenAiResponsesClientInput`); `tools` and the tools of `additional_tools` items by
 * `decodeOpenAiResponsesClientTools` (functions, flattened namespaces, freeform tools as one-string functions,
 * hosted tools dropped and reported) and `tool_choice` (a named function or custom tool); `text.format`
 * (`json_object` is JSON without a schema, `json_schema` keeps name, schema and strict); `temperature`, `top_p`;
 * `max_output_tokens`; `reasoning` and `include` by `decodeReasoning` (effort none … max unchanged, summary,
 * context, `include: ["reasoning.encrypted_content"]` → `includeEncrypted`); `text.verbosity` → `verbosity`;
 * `parallel_tool_calls` → `parallelToolCalls`; `safety_identifier` (else `user`) → `endUserId` (left out when not a
 * printable string within the bound); `store: false` → `store: false`; web search tools → hosted `web-search`
 * tools; `prompt_cache_key`; `stream`.
 *
 * Ignored on purpose (hints, or host concerns): other `include` values, `truncation`, `metadata`,
 * `client_metadata`, `service_tier`, `prompt_cache_retention`, `prompt_cache_options`, `stream_options`,
 * `context_management` entries other than `compaction`, and unknown fields. A `compaction` entry of
 * `context_management` is the task's `compaction` (`compact_threshold` → `triggerInputTokens`).
 *
 * Refused as `unsupported-feature`: `previous_response_id`, `conversation` and `store: true` (conversation state a
 * stateless gateway cannot honour), `background`, stored `prompt` templates, `top_logprobs`, `max_tool_calls`,
 * tool types other than function, custom, namespace and the known hosted ones, other tool choices, and the input
 * items and parts listed in `decodeOpenAiResponsesClientInput`.
 *
 * @throws {CodecErrorV1} the parser's codes for bad bytes or JSON; `invalid-request` for a malformed request (with
 * the JSON path); `unsupported-feature` as listed.
 */
export function decodeOpenAiResponsesClientRequest(request: ClientWireRequestV1, options?: OpenAiResponsesIngressOptionsV1): OpenAiResponsesDecodedRequestV1 {
  const body = parseSafeJsonBytes(request.body, options?.limits);
  if (!isClientObject(body)) throw invalidClientField('body', 'must be a JSON object');
  refuseUnrepresentable(body);
  const modelLabel = requiredClientString(body, 'model', '');
  if (modelLabel.length === 0 || modelLabel.length > 256) throw invalidClientField('model', 'must be 1 to 256 characters');
  const instructions = optionalClientString(body, 'instructions', '');
  let decoded;
  if (typeof body.input === 'string') {
    decoded = { system: [], messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: body.input }] }], additionalTools: [] };
  } else {
    const input = optionalClientArray(body, 'input', '');
    if (input === undefined || input.length === 0) throw invalidClientField('input', 'must be a string or a non-empty array');
    decoded = decodeOpenAiResponsesClientInput(input);
  }
  const system = [...(instructions === undefined || instructions.length === 0 ? [] : [{ type: 'text' as const, text: instructions }]), ...decoded.system];
  if (decoded.messages.length === 0) throw invalidClientField('input', 'must hold a message besides system messages');
  const offered = decodeOpenAiResponsesClientTools([{ tools: optionalClientArray(body, 'tools', '') ?? [], path: 'tools' }, ...decoded.additionalTools]);
  const tools = offered.tools.length === 0 ? undefined : offered.tools;
  const toolChoice = decodeToolChoice(body.tool_choice);
  const responseFormat = decodeTextFormat(optionalClientObject(body, 'text', ''));
  const temperature = optionalClientNumber(body, 'temperature', '');
  const topP = optionalClientNumber(body, 'top_p', '');
  const maxOutputTokens = optionalClientNumber(body, 'max_output_tokens', '');
  const reasoning = decodeReasoning(optionalClientObject(body, 'reasoning', ''), optionalClientArray(body, 'include', ''));
  const verbosity = decodeVerbosity(optionalClientObject(body, 'text', ''));
  const parallelToolCalls = optionalClientBoolean(body, 'parallel_tool_calls', '');
  const endUserId = acceptEndUserId(body.safety_identifier) ?? acceptEndUserId(body.user);
  const promptCacheKey = optionalClientString(body, 'prompt_cache_key', '');
  const compaction = decodeCompactionControl(body.context_management);
  const candidate = {
    kind: 'chat',
    ...(system.length === 0 ? {} : { system }),
    messages: decoded.messages,
    ...(tools === undefined ? {} : { tools }),
    ...(offered.hostedTools.length === 0 ? {} : { hostedTools: offered.hostedTools }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(parallelToolCalls === undefined ? {} : { parallelToolCalls }),
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(verbosity === undefined ? {} : { verbosity }),
    ...(endUserId === undefined ? {} : { endUserId }),
    ...(body.store === false ? { store: false } : {}),
    ...(temperature === undefined && topP === undefined
      ? {}
      : { sampling: { ...(temperature === undefined ? {} : { temperature }), ...(topP === undefined ? {} : { topP }) } }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(promptCacheKey === undefined ? {} : { caching: { promptCacheKey } }),
    ...(compaction === undefined ? {} : { compaction }),
    stream: optionalClientBoolean(body, 'stream', '') ?? false,
  };
  const checked = chatTaskV4Schema.safeParse(candidate);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue === undefined ? 'body' : clientFieldPath(issue.path, RESPONSES_FIELD_NAMES);
    throw invalidClientField(path, 'is out of range or malformed for a chat task');
  }
  const result: OpenAiResponsesDecodedRequestV1 = {
    task: checked.data,
    modelLabel,
    ...(offered.freeformToolNames.length === 0 ? {} : { clientFreeformToolNames: offered.freeformToolNames }),
    ...(offered.droppedHostedTools.length === 0 ? {} : { droppedHostedTools: offered.droppedHostedTools }),
    ...(offered.hostedToolNames.length === 0 ? {} : { hostedToolNames: offered.hostedToolNames }),
  };
  return result;
}

/**
 * The `compaction` entry of `context_management` (server-side compaction,
 * https://developers.openai.com/api/docs/guides/compaction): `compact_threshold` when it is a positive whole number.
 * A hint: an entry of unknown shape or type is left out.
 */
function decodeCompactionControl(value: unknown): { triggerInputTokens?: number } | undefined {
  if (!Array.isArray(value)) return undefined;
  const entry: unknown = value.find((candidate) => isClientObject(candidate) && candidate.type === 'compaction');
  if (!isClientObject(entry)) return undefined;
  const threshold = entry.compact_threshold;
  return typeof threshold === 'number' && Number.isInteger(threshold) && threshold > 0 ? { triggerInputTokens: threshold } : {};
}

/** Creates the `openai-responses/v1` ingress codec (see {@link decodeOpenAiResponsesClientRequest}). */
export function createOpenAiResponsesIngressCodec(options?: OpenAiResponsesIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_RESPONSES_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeOpenAiResponsesClientRequest(request, options),
  });
}
