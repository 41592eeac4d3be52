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
  /** Gemini's OpenAI-compatible `extra_content.google.thought_signature`: opaque state to replay with the call. */
  readonly signature?: string;
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

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function readUsage(value: JsonRecord, path: string): OpenAiChatWireUsage {
  const usage: Mutable<OpenAiChatWireUsage> = {};
  const promptTokens = optionalCount(value, 'prompt_tokens', path);
  if (promptTokens !== undefined) usage.prompt_tokens = promptTokens;
  const completionTokens = optionalCount(value, 'completion_tokens', path);
  if (completionTokens !== undefined) usage.completion_tokens = completionTokens;
  const totalTokens = optionalCount(value, 'total_tokens', path);
  if (totalTokens !== undefined) usage.total_tokens = totalTokens;
  const hitTokens = optionalCount(value, 'prompt_cache_hit_tokens', path);
  if (hitTokens !== undefined) usage.prompt_cache_hit_tokens = hitTokens;
  const promptDetails = optionalRecord(value, 'prompt_tokens_details', path);
  if (promptDetails !== undefined) {
    const cached = optionalCount(promptDetails, 'cached_tokens', `${path}.prompt_tokens_details`);
    if (cached !== undefined) usage.cached_tokens = cached;
    const cacheWrite = optionalCount(promptDetails, 'cache_write_tokens', `${path}.prompt_tokens_details`);
    if (cacheWrite !== undefined) usage.cache_write_tokens = cacheWrite;
  }
  const completionDetails = optionalRecord(value, 'completion_tokens_details', path);
  if (completionDetails !== undefined) {
    const reasoning = optionalCount(completionDetails, 'reasoning_tokens', `${path}.completion_tokens_details`);
    if (reasoning !== undefined) usage.reasoning_tokens = reasoning;
  }
  return usage;
}

function readToolCall(value: unknown, path: string, fragment: boolean): OpenAiChatWireToolCall {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  if (value.custom !== undefined && value.custom !== null) throw violation(`${path}.custom`, 'custom tool calls are not supported');
  const call: Mutable<OpenAiChatWireToolCall> = {};
  const index = optionalCount(value, 'index', path, OPENAI_CHAT_MAX_WIRE_INDEX);
  if (index !== undefined) call.index = index;
  const id = optionalString(value, 'id', path);
  if (id !== undefined) call.id = id;
  const type = optionalString(value, 'type', path);
  if (type !== undefined) {
    if (type !== 'function' && type !== '') throw violation(`${path}.type`, 'must be "function"');
    call.type = type;
  }
  const fn = optionalRecord(value, 'function', path);
  if (fn !== undefined) {
    const name = optionalString(fn, 'name', `${path}.function`);
    if (name !== undefined) call.name = name;
    const argumentsText = optionalString(fn, 'arguments', `${path}.function`);
    if (argumentsText !== undefined) call.arguments = argumentsText;
  }
  const extra = optionalRecord(value, 'extra_content', path);
  const google = extra === undefined ? undefined : optionalRecord(extra, 'google', `${path}.extra_content`);
  const signature = google === undefined ? undefined : optionalString(google, 'thought_signature', `${path}.extra_content.google`);
  if (signature !== undefined && signature.length > 0) call.signature = signature;
  if (!fragment) {
    if (call.name === undefined || call.name.length === 0) throw violation(`${path}.function.name`, 'is required');
    if (call.arguments === undefined) throw violation(`${path}.function.arguments`, 'is required');
  }
  return call;
}

function readFunctionCall(record: JsonRecord, path: string): OpenAiChatWireFunctionCall | undefined {
  const value = optionalRecord(record, 'function_call', path);
  if (value === undefined) return undefined;
  const call: Mutable<OpenAiChatWireFunctionCall> = {};
  const name = optionalString(value, 'name', `${path}.function_call`);
  if (name !== undefined) call.name = name;
  const argumentsText = optionalString(value, 'arguments', `${path}.function_call`);
  if (argumentsText !== undefined) call.arguments = argumentsText;
  return call;
}

const MESSAGE_TEXT_FIELDS = ['role', 'content', 'refusal', 'reasoning_content', 'reasoning'] as const;

function readMessage(value: JsonRecord, path: string, fragment: boolean): OpenAiChatWireMessage {
  const message: Mutable<OpenAiChatWireMessage> = {};
  for (const key of MESSAGE_TEXT_FIELDS) {
    const text = optionalString(value, key, path);
    if (text !== undefined) message[key] = text;
  }
  const toolCallsValue = value.tool_calls;
  if (toolCallsValue !== undefined && toolCallsValue !== null) {
    if (!Array.isArray(toolCallsValue)) throw violation(`${path}.tool_calls`, 'must be an array');
    message.tool_calls = toolCallsValue.map((call, index) => readToolCall(call, `${path}.tool_calls.${index}`, fragment));
  }
  if (value.function_call !== undefined && value.function_call !== null) {
    message.function_call = readFunctionCall(value, path) as OpenAiChatWireFunctionCall;
  }
  return message;
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
  const error: Mutable<OpenAiChatWireError> = {};
  const message = optionalString(value, 'message', 'error');
  if (message !== undefined) error.message = message;
  const type = optionalString(value, 'type', 'error');
  if (type !== undefined) error.type = type;
  if (typeof code === 'string' || typeof code === 'number') error.code = code;
  if (typeof value.param === 'string') error.param = value.param;
  return error;
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
      const finishReason = optionalString(choice, 'finish_reason', path);
      return finishReason === undefined ? { index, message } : { index, message, finish_reason: finishReason };
    });
  }
  const completion: Mutable<OpenAiChatWireCompletion> = { choices };
  const model = optionalString(value, 'model', stream ? 'chunk' : 'body');
  if (model !== undefined) completion.model = model;
  const usageValue = optionalRecord(value, 'usage', stream ? 'chunk' : 'body');
  if (usageValue !== undefined) completion.usage = readUsage(usageValue, 'usage');
  if (error !== undefined) completion.error = error;
  return completion;
}

/** Reads a whole `chat.completion` body. Requires `choices` (unless the body is an error) and each `message`. */
export function readOpenAiChatCompletion(value: unknown): OpenAiChatWireCompletion {
  return readCompletion(value, false);
}

/** Reads one `chat.completion.chunk`. Missing or `null` `choices` and `delta` are tolerated (§1.9, §1.10). */
export function readOpenAiChatChunk(value: unknown): OpenAiChatWireCompletion {
  return readCompletion(value, true);
}
