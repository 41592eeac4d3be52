import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';

/*
 * Tolerant readers of what an OpenAI Chat Completions server sends. They read only the fields this family uses,
 * allow any extra key, treat `null` like an absent optional field, and throw a ProtocolViolationError
 * (`invalid-event`) naming the JSON path (never the value) when a field we read has the wrong type or range.
 *
 * Hand-written instead of zod: they run once per stream chunk, where house-style §14 asks for a check close to
 * the cost of JSON.parse, and they return the narrow typed shapes below directly.
 */

/** Largest token count accepted in a usage object. */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;
/** Largest `choices[].index` / `tool_calls[].index` accepted (anything larger is hostile, not a real answer). */
export const OPENAI_CHAT_MAX_WIRE_INDEX = 1_000_000;

/** `usage` (both the sync body and stream chunks), the fields we read. */
export interface OpenAiChatWireUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly total_tokens?: number;
  readonly cached_tokens?: number;
  readonly cache_write_tokens?: number;
  readonly reasoning_tokens?: number;
  /** DeepSeek's top-level cache-hit count (used only when `prompt_tokens_details.cached_tokens` is absent). */
  readonly prompt_cache_hit_tokens?: number;
}

/** One `tool_calls[]` element (whole, in a message, or a fragment, in a delta). */
export interface OpenAiChatWireToolCall {
  readonly index?: number;
  readonly id?: string;
  readonly type?: string;
  readonly name?: string;
  readonly arguments?: string;
}

/** Legacy `function_call` (message or delta). */
export interface OpenAiChatWireFunctionCall {
  readonly name?: string;
  readonly arguments?: string;
}

/** `choices[].message` of a sync body, or `choices[].delta` of a chunk (every field optional in a delta). */
export interface OpenAiChatWireMessage {
  readonly role?: string;
  readonly content?: string;
  readonly refusal?: string;
  /** DeepSeek / Qwen / xAI reasoning text. */
  readonly reasoning_content?: string;
  /** OpenRouter and some gpt-oss hosts' reasoning text. */
  readonly reasoning?: string;
  readonly tool_calls?: readonly OpenAiChatWireToolCall[];
  readonly function_call?: OpenAiChatWireFunctionCall;
}

/** One `choices[]` element. */
export interface OpenAiChatWireChoice {
  readonly index: number;
  readonly message: OpenAiChatWireMessage;
  readonly finish_reason?: string;
}

/** An `error` object (HTTP error envelope, mid-stream error chunk, or an error inside a 200 body). */
export interface OpenAiChatWireError {
  readonly message?: string;
  readonly type?: string;
  readonly code?: string | number;
  readonly param?: string;
}

/** A sync body or one stream chunk. */
export interface OpenAiChatWireCompletion {
  readonly model?: string;
  readonly choices: readonly OpenAiChatWireChoice[];
  readonly usage?: OpenAiChatWireUsage;
  readonly error?: OpenAiChatWireError;
}

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function violation(path: string, rule: string): ProtocolViolationError {
  return new ProtocolViolationError('invalid-event', `openai-chat ${path} ${rule}`);
}

function optionalString(record: JsonRecord, key: string, path: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw violation(`${path}.${key}`, 'must be a string');
  return value;
}

function optionalCount(record: JsonRecord, key: string, path: string, max = MAX_COUNT): number | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw violation(`${path}.${key}`, 'must be a non-negative integer in range');
  }
  return value;
}

function optionalRecord(record: JsonRecord, key: string, path: string): JsonRecord | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw violation(`${path}.${key}`, 'must be an object');
  return value;
}

/** Copies the defined entries only (the contracts use exact optional properties). */
function compact<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) result[key] = entry;
  return result as T;
}

function readUsage(value: JsonRecord, path: string): OpenAiChatWireUsage {
  const promptDetails = optionalRecord(value, 'prompt_tokens_details', path);
  const completionDetails = optionalRecord(value, 'completion_tokens_details', path);
  return compact<OpenAiChatWireUsage>({
    prompt_tokens: optionalCount(value, 'prompt_tokens', path),
    completion_tokens: optionalCount(value, 'completion_tokens', path),
    total_tokens: optionalCount(value, 'total_tokens', path),
    cached_tokens:
      promptDetails === undefined ? undefined : optionalCount(promptDetails, 'cached_tokens', `${path}.prompt_tokens_details`),
    cache_write_tokens:
      promptDetails === undefined
        ? undefined
        : optionalCount(promptDetails, 'cache_write_tokens', `${path}.prompt_tokens_details`),
    reasoning_tokens:
      completionDetails === undefined
        ? undefined
        : optionalCount(completionDetails, 'reasoning_tokens', `${path}.completion_tokens_details`),
    prompt_cache_hit_tokens: optionalCount(value, 'prompt_cache_hit_tokens', path),
  });
}

function readToolCall(value: unknown, path: string, fragment: boolean): OpenAiChatWireToolCall {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  const fn = optionalRecord(value, 'function', path);
  if (value.custom !== undefined && value.custom !== null) throw violation(`${path}.custom`, 'custom tool calls are not supported');
  const call = compact<OpenAiChatWireToolCall>({
    index: optionalCount(value, 'index', path, OPENAI_CHAT_MAX_WIRE_INDEX),
    id: optionalString(value, 'id', path),
    type: optionalString(value, 'type', path),
    name: fn === undefined ? undefined : optionalString(fn, 'name', `${path}.function`),
    arguments: fn === undefined ? undefined : optionalString(fn, 'arguments', `${path}.function`),
  });
  if (call.type !== undefined && call.type !== 'function' && call.type !== '') {
    throw violation(`${path}.type`, 'must be "function"');
  }
  if (!fragment) {
    if (call.name === undefined || call.name.length === 0) throw violation(`${path}.function.name`, 'is required');
    if (call.arguments === undefined) throw violation(`${path}.function.arguments`, 'is required');
  }
  return call;
}

function readFunctionCall(record: JsonRecord, path: string): OpenAiChatWireFunctionCall | undefined {
  const value = optionalRecord(record, 'function_call', path);
  if (value === undefined) return undefined;
  return compact<OpenAiChatWireFunctionCall>({
    name: optionalString(value, 'name', `${path}.function_call`),
    arguments: optionalString(value, 'arguments', `${path}.function_call`),
  });
}

function readMessage(value: JsonRecord, path: string, fragment: boolean): OpenAiChatWireMessage {
  const toolCallsValue = value.tool_calls;
  let toolCalls: OpenAiChatWireToolCall[] | undefined;
  if (toolCallsValue !== undefined && toolCallsValue !== null) {
    if (!Array.isArray(toolCallsValue)) throw violation(`${path}.tool_calls`, 'must be an array');
    toolCalls = toolCallsValue.map((call, index) => readToolCall(call, `${path}.tool_calls.${index}`, fragment));
  }
  return compact<OpenAiChatWireMessage>({
    role: optionalString(value, 'role', path),
    content: optionalString(value, 'content', path),
    refusal: optionalString(value, 'refusal', path),
    reasoning_content: optionalString(value, 'reasoning_content', path),
    reasoning: optionalString(value, 'reasoning', path),
    tool_calls: toolCalls,
    function_call: readFunctionCall(value, path),
  });
}

/**
 * Reads an `error` member: an object `{message, type, code, param}` (any member may be missing; `code` may be a
 * number on compatible servers), or a bare string some proxies send. `undefined` when there is no error.
 */
export function readOpenAiChatError(value: unknown): OpenAiChatWireError | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (typeof value === 'string') return { message: value };
  if (!isRecord(value)) throw violation('error', 'must be an object');
  const code = value.code;
  if (code !== undefined && code !== null && typeof code !== 'string' && typeof code !== 'number') {
    throw violation('error.code', 'must be a string or a number');
  }
  return compact<OpenAiChatWireError>({
    message: optionalString(value, 'message', 'error'),
    type: optionalString(value, 'type', 'error'),
    code: code === null ? undefined : (code as string | number | undefined),
    param: typeof value.param === 'string' ? value.param : undefined,
  });
}

function readCompletion(value: unknown, stream: boolean): OpenAiChatWireCompletion {
  if (!isRecord(value)) throw violation(stream ? 'chunk' : 'body', 'must be a JSON object');
  const error = readOpenAiChatError(value.error);
  const choicesValue = value.choices;
  let choices: OpenAiChatWireChoice[] = [];
  if (choicesValue === undefined || choicesValue === null) {
    // Usage-only chunks of vLLM-style servers, and error-only bodies, carry no choices.
    if (!stream && error === undefined) throw violation('body.choices', 'is required');
  } else {
    if (!Array.isArray(choicesValue)) throw violation('choices', 'must be an array');
    choices = choicesValue.map((choice, position) => {
      const path = `choices.${position}`;
      if (!isRecord(choice)) throw violation(path, 'must be an object');
      const key = stream ? 'delta' : 'message';
      const messageValue = choice[key];
      let message: OpenAiChatWireMessage;
      if (messageValue === undefined || messageValue === null) {
        if (!stream) throw violation(`${path}.message`, 'is required');
        message = {};
      } else {
        if (!isRecord(messageValue)) throw violation(`${path}.${key}`, 'must be an object');
        message = readMessage(messageValue, `${path}.${key}`, stream);
      }
      // A missing index is tolerated as 0 (§1.9); only one choice is ever requested.
      const index = optionalCount(choice, 'index', path, OPENAI_CHAT_MAX_WIRE_INDEX) ?? 0;
      return compact<OpenAiChatWireChoice>({
        index,
        message,
        finish_reason: optionalString(choice, 'finish_reason', path),
      });
    });
  }
  const usageValue = optionalRecord(value, 'usage', stream ? 'chunk' : 'body');
  return compact<OpenAiChatWireCompletion>({
    model: optionalString(value, 'model', stream ? 'chunk' : 'body'),
    choices,
    usage: usageValue === undefined ? undefined : readUsage(usageValue, 'usage'),
    error,
  });
}

/** Reads a whole `chat.completion` body. Requires `choices` (unless the body is an error) and each `message`. */
export function readOpenAiChatCompletion(value: unknown): OpenAiChatWireCompletion {
  return readCompletion(value, false);
}

/** Reads one `chat.completion.chunk`. Missing or `null` `choices` and `delta` are tolerated (§1.9, §1.10). */
export function readOpenAiChatChunk(value: unknown): OpenAiChatWireCompletion {
  return readCompletion(value, true);
}
