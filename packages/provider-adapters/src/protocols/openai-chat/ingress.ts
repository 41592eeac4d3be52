import {
  chatTaskV3Schema,
  REASONING_EFFORTS_V3,
  type ChatTaskV4,
  type ClientWireRequestV1,
  type IngressCodecV1,
  type IngressDecodedRequestV1,
  type ResponseFormatV2,
} from '@tokenforge/model-protocol';
import { acceptEndUserId, clientFieldPath, parseSafeJsonBytes, SNAKE_CASE_SAMPLING_NAMES, type SafeJsonLimits } from '../../codec-kit/index.js';
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
import { decodeOpenAiChatClientMessages } from './decode-client-messages.js';
import { decodeOpenAiChatClientToolChoice, decodeOpenAiChatClientTools } from './decode-client-tools.js';
import { OPENAI_CHAT_PROTOCOL_FAMILY } from './protocol-family.js';

/** A decoded Chat Completions request, with the client's names of the task's hosted tools. */
export interface OpenAiChatDecodedRequestV1 extends IngressDecodedRequestV1 {
  /** `web_search_options` when the task's hosted web search came from it (a host names a dropped one by it). */
  readonly hostedToolNames?: readonly string[];
}

/** Options of {@link createOpenAiChatIngressCodec}. */
export interface OpenAiChatIngressOptionsV1 {
  /** Limits of the body parser (defaults: 32 MiB, 64 levels). */
  readonly limits?: SafeJsonLimits;
}

function decodeResponseFormat(value: ClientJsonObject | undefined): ResponseFormatV2 | undefined {
  if (value === undefined) return undefined;
  switch (value.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json' };
    case 'json_schema': {
      const jsonSchema = optionalClientObject(value, 'json_schema', 'response_format.');
      if (jsonSchema === undefined) throw invalidClientField('response_format.json_schema', 'is required');
      const schema = optionalClientObject(jsonSchema, 'schema', 'response_format.json_schema.');
      const strict = optionalClientBoolean(jsonSchema, 'strict', 'response_format.json_schema.');
      return {
        type: 'json',
        name: requiredClientString(jsonSchema, 'name', 'response_format.json_schema.'),
        ...(schema === undefined ? {} : { schema: { ...schema } }),
        ...(strict === undefined ? {} : { strict }),
      };
    }
    default:
      throw unsupportedClientField('response_format.type', 'must be text, json_object or json_schema');
  }
}

function decodeReasoningEffort(value: string | undefined): ChatTaskV4['reasoning'] {
  if (value === undefined) return undefined;
  // The whole V3 scale is kept; `none` asks for no reasoning (a host leaves it out for a target without `none`).
  if ((REASONING_EFFORTS_V3 as readonly string[]).includes(value)) return { effort: value as (typeof REASONING_EFFORTS_V3)[number] };
  throw invalidClientField('reasoning_effort', 'is not a known effort');
}

/** `verbosity` (low, medium, high; another value is a hint and left out). */
function decodeVerbosity(value: unknown): ChatTaskV4['verbosity'] {
  return value === 'low' || value === 'medium' || value === 'high' ? value : undefined;
}

function decodeStop(value: unknown): string[] | undefined {
  if (isUnset(value)) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return [...(value as string[])];
  throw invalidClientField('stop', 'must be a string or an array of strings');
}

/** Features whose loss would change the answer and that a task cannot carry: refused when set. */
function refuseUnrepresentable(body: ClientJsonObject): void {
  const n = body.n;
  if (!isUnset(n) && n !== 1) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw invalidClientField('n', 'must be a positive integer');
    throw unsupportedClientField('n', 'more than one choice is not supported');
  }
  if (!isUnset(body.functions)) throw unsupportedClientField('functions', 'legacy functions are not supported; use tools');
  if (!isUnset(body.function_call)) throw unsupportedClientField('function_call', 'legacy function_call is not supported; use tool_choice');
  if (body.logprobs === true) throw unsupportedClientField('logprobs', 'log probabilities are not supported');
  if (typeof body.top_logprobs === 'number' && body.top_logprobs > 0) throw unsupportedClientField('top_logprobs', 'log probabilities are not supported');
  if (isClientObject(body.logit_bias) && Object.keys(body.logit_bias).length > 0) throw unsupportedClientField('logit_bias', 'logit bias is not supported');
  if (!isUnset(body.audio) || (Array.isArray(body.modalities) && body.modalities.some((modality) => modality !== 'text'))) {
    throw unsupportedClientField('modalities', 'audio output is not supported');
  }
  if (!isUnset(body.prediction)) throw unsupportedClientField('prediction', 'predicted outputs are not supported');
}

/**
 * Decodes a Chat Completions request body into a chat task. Pure; the body is parsed with the kit's safe JSON
 * parser.
 *
 * Mapping (the reverse of the request encoder): `model` is the model label; `messages` by
 * `decodeOpenAiChatClientMessages`; function `tools` (missing `parameters` = no arguments) and `tool_choice`;
 * `response_format` (`json_object` is JSON without a schema); `temperature`, `top_p`, `frequency_penalty`,
 * `presence_penalty`, `seed`; `max_completion_tokens`, else the deprecated `max_tokens`; `stop`;
 * `reasoning_effort` over none … max unchanged; `parallel_tool_calls` → `parallelToolCalls`; `verbosity`;
 * `safety_identifier` (else `user`) → `endUserId` (left out when not a printable string within the bound);
 * `web_search_options` → a hosted `web-search` tool (its context size and location are hints, dropped);
 * `prompt_cache_key`; `stream`.
 *
 * Ignored on purpose (host or transport concerns, or hints whose absence leaves the answer valid):
 * `stream_options` (the egress stream always ends with a usage chunk), `metadata`, `store`, `service_tier`,
 * `prompt_cache_retention`, `prompt_cache_options`, `name` on messages, and every unknown field.
 *
 * Refused as `unsupported-feature`: `n > 1`, legacy `functions` / `function_call` / `function` messages,
 * `logprobs`, `logit_bias`, audio output, `prediction`, custom tools, `allowed_tools`,
 * `file_id` file parts.
 *
 * @throws {CodecErrorV1} the parser's codes for bad bytes or JSON; `invalid-request` for a malformed request
 * (with the JSON path); `unsupported-feature` as listed.
 */
export function decodeOpenAiChatClientRequest(request: ClientWireRequestV1, options?: OpenAiChatIngressOptionsV1): OpenAiChatDecodedRequestV1 {
  const body = parseSafeJsonBytes(request.body, options?.limits);
  if (!isClientObject(body)) throw invalidClientField('body', 'must be a JSON object');
  refuseUnrepresentable(body);
  const modelLabel = requiredClientString(body, 'model', '');
  if (modelLabel.length === 0 || modelLabel.length > 256) throw invalidClientField('model', 'must be 1 to 256 characters');
  const rawMessages = optionalClientArray(body, 'messages', '');
  if (rawMessages === undefined || rawMessages.length === 0) throw invalidClientField('messages', 'must be a non-empty array');
  const { system, messages } = decodeOpenAiChatClientMessages(rawMessages);
  if (messages.length === 0) throw invalidClientField('messages', 'must hold a message besides system messages');
  const rawTools = optionalClientArray(body, 'tools', '');
  const tools = rawTools === undefined || rawTools.length === 0 ? undefined : decodeOpenAiChatClientTools(rawTools);
  const toolChoice = decodeOpenAiChatClientToolChoice(body.tool_choice);
  const responseFormat = decodeResponseFormat(optionalClientObject(body, 'response_format', ''));
  const sampling = {
    temperature: optionalClientNumber(body, 'temperature', ''),
    topP: optionalClientNumber(body, 'top_p', ''),
    frequencyPenalty: optionalClientNumber(body, 'frequency_penalty', ''),
    presencePenalty: optionalClientNumber(body, 'presence_penalty', ''),
    seed: optionalClientNumber(body, 'seed', ''),
  };
  const definedSampling = Object.fromEntries(Object.entries(sampling).filter(([, value]) => value !== undefined));
  const maxOutputTokens = optionalClientNumber(body, 'max_completion_tokens', '') ?? optionalClientNumber(body, 'max_tokens', '');
  const stopSequences = decodeStop(body.stop);
  const reasoning = decodeReasoningEffort(optionalClientString(body, 'reasoning_effort', ''));
  const promptCacheKey = optionalClientString(body, 'prompt_cache_key', '');
  const webSearch = !isUnset(body.web_search_options);
  const parallelToolCalls = optionalClientBoolean(body, 'parallel_tool_calls', '');
  const verbosity = decodeVerbosity(body.verbosity);
  const endUserId = acceptEndUserId(body.safety_identifier) ?? acceptEndUserId(body.user);
  const candidate = {
    kind: 'chat',
    ...(system.length === 0 ? {} : { system }),
    messages,
    ...(tools === undefined ? {} : { tools }),
    ...(webSearch ? { hostedTools: [{ kind: 'web-search' }] } : {}),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(parallelToolCalls === undefined ? {} : { parallelToolCalls }),
    ...(verbosity === undefined ? {} : { verbosity }),
    ...(endUserId === undefined ? {} : { endUserId }),
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(Object.keys(definedSampling).length === 0 ? {} : { sampling: definedSampling }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(stopSequences === undefined || stopSequences.length === 0 ? {} : { stopSequences }),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(promptCacheKey === undefined ? {} : { caching: { promptCacheKey } }),
    stream: optionalClientBoolean(body, 'stream', '') ?? false,
  };
  const checked = chatTaskV3Schema.safeParse(candidate);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const names = { ...SNAKE_CASE_SAMPLING_NAMES, maxOutputTokens: body.max_completion_tokens === undefined ? 'max_tokens' : 'max_completion_tokens', stopSequences: 'stop' };
    const path = issue === undefined ? 'body' : clientFieldPath(issue.path, names);
    throw invalidClientField(path, 'is out of range or malformed for a chat task');
  }
  return { task: checked.data, modelLabel, ...(webSearch ? { hostedToolNames: ['web_search_options'] } : {}) };
}

/** Creates the `openai-chat/v1` ingress codec (see {@link decodeOpenAiChatClientRequest}). */
export function createOpenAiChatIngressCodec(options?: OpenAiChatIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_CHAT_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeOpenAiChatClientRequest(request, options),
  });
}
