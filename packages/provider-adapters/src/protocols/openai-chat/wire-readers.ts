import { createWireReaders, isWireRecord as isRecord, type WireRecord as JsonRecord } from '../../codec-kit/wire-readers.js';
import { readDetailCount, readServiceTier } from '../../codec-kit/usage-detail-readers.js';

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
  /** `prompt_tokens_details.{text,image,audio}_tokens`: the prompt by modality (details; malformed ones left out). */
  readonly prompt_text_tokens?: number;
  readonly prompt_image_tokens?: number;
  readonly prompt_audio_tokens?: number;
  /** `completion_tokens_details.{text,audio}_tokens`: the completion by modality. */
  readonly completion_text_tokens?: number;
  readonly completion_audio_tokens?: number;
  /** The envelope's `service_tier` beside this usage (`default`, `flex`, `priority`, ...), when readable. */
  readonly service_tier?: string;
  /** `usage.cost` as sent, when it is a number (read only where the host declared its currency). */
  readonly cost?: number;
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

/**
 * `choices[].message` of a sync body, or `choices[].delta` of a chunk (every field optional in a delta). Every key
 * is present, `undefined` when the server left it out or sent `null`: one object shape for every chunk.
 */
export interface OpenAiChatWireMessage {
  readonly role: string | undefined;
  readonly content: string | undefined;
  readonly refusal: string | undefined;
  /** DeepSeek / Qwen / xAI reasoning text. */
  readonly reasoning_content: string | undefined;
  /** OpenRouter and some gpt-oss hosts' reasoning text. */
  readonly reasoning: string | undefined;
  readonly tool_calls: readonly OpenAiChatWireToolCall[] | undefined;
  readonly function_call: OpenAiChatWireFunctionCall | undefined;
}

/** One `choices[]` element. */
export interface OpenAiChatWireChoice {
  readonly index: number;
  readonly message: OpenAiChatWireMessage;
  readonly finish_reason: string | undefined;
}

/** An `error` object (HTTP error envelope, mid-stream error chunk, or an error inside a 200 body). */
export interface OpenAiChatWireError {
  readonly message?: string;
  readonly type?: string;
  readonly code?: string | number;
  readonly param?: string;
}

/** A sync body or one stream chunk (every key present, `undefined` when absent). */
export interface OpenAiChatWireCompletion {
  readonly model: string | undefined;
  readonly choices: readonly OpenAiChatWireChoice[];
  readonly usage: OpenAiChatWireUsage | undefined;
  readonly error: OpenAiChatWireError | undefined;
}

/** The readers of this family's wire JSON (messages start with `openai-chat`). */
export const OPENAI_CHAT_WIRE = createWireReaders({ family: 'openai-chat', maxCount: MAX_COUNT });
const { violation, optionalString, optionalCount, optionalRecord } = OPENAI_CHAT_WIRE;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function readUsage(value: JsonRecord, path: string, serviceTier: string | undefined): OpenAiChatWireUsage {
  const usage: Mutable<OpenAiChatWireUsage> = {};
  const promptTokens = optionalCount(value.prompt_tokens, path, 'prompt_tokens');
  if (promptTokens !== undefined) usage.prompt_tokens = promptTokens;
  const completionTokens = optionalCount(value.completion_tokens, path, 'completion_tokens');
  if (completionTokens !== undefined) usage.completion_tokens = completionTokens;
  const totalTokens = optionalCount(value.total_tokens, path, 'total_tokens');
  if (totalTokens !== undefined) usage.total_tokens = totalTokens;
  const hitTokens = optionalCount(value.prompt_cache_hit_tokens, path, 'prompt_cache_hit_tokens');
  if (hitTokens !== undefined) usage.prompt_cache_hit_tokens = hitTokens;
  const promptDetails = optionalRecord(value.prompt_tokens_details, path, 'prompt_tokens_details');
  if (promptDetails !== undefined) {
    const detailsPath = `${path}.prompt_tokens_details`;
    const cached = optionalCount(promptDetails.cached_tokens, detailsPath, 'cached_tokens');
    if (cached !== undefined) usage.cached_tokens = cached;
    const cacheWrite = optionalCount(promptDetails.cache_write_tokens, detailsPath, 'cache_write_tokens');
    if (cacheWrite !== undefined) usage.cache_write_tokens = cacheWrite;
    // The modality split only adds information: a malformed figure is left out, never a violation.
    const text = readDetailCount(promptDetails.text_tokens);
    if (text !== undefined) usage.prompt_text_tokens = text;
    const image = readDetailCount(promptDetails.image_tokens);
    if (image !== undefined) usage.prompt_image_tokens = image;
    const audio = readDetailCount(promptDetails.audio_tokens);
    if (audio !== undefined) usage.prompt_audio_tokens = audio;
  }
  const completionDetails = optionalRecord(value.completion_tokens_details, path, 'completion_tokens_details');
  if (completionDetails !== undefined) {
    const reasoning = optionalCount(completionDetails.reasoning_tokens, `${path}.completion_tokens_details`, 'reasoning_tokens');
    if (reasoning !== undefined) usage.reasoning_tokens = reasoning;
    const text = readDetailCount(completionDetails.text_tokens);
    if (text !== undefined) usage.completion_text_tokens = text;
    const audio = readDetailCount(completionDetails.audio_tokens);
    if (audio !== undefined) usage.completion_audio_tokens = audio;
  }
  if (serviceTier !== undefined) usage.service_tier = serviceTier;
  if (typeof value.cost === 'number') usage.cost = value.cost;
  return usage;
}

function readToolCall(value: unknown, path: string, fragment: boolean): OpenAiChatWireToolCall {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  if (value.custom !== undefined && value.custom !== null) throw violation(`${path}.custom`, 'custom tool calls are not supported');
  const call: Mutable<OpenAiChatWireToolCall> = {};
  const index = optionalCount(value.index, path, 'index', OPENAI_CHAT_MAX_WIRE_INDEX);
  if (index !== undefined) call.index = index;
  const id = optionalString(value.id, path, 'id');
  if (id !== undefined) call.id = id;
  const type = optionalString(value.type, path, 'type');
  if (type !== undefined) {
    if (type !== 'function' && type !== '') throw violation(`${path}.type`, 'must be "function"');
    call.type = type;
  }
  const fn = optionalRecord(value.function, path, 'function');
  if (fn !== undefined) {
    const name = optionalString(fn.name, `${path}.function`, 'name');
    if (name !== undefined) call.name = name;
    const argumentsText = optionalString(fn.arguments, `${path}.function`, 'arguments');
    if (argumentsText !== undefined) call.arguments = argumentsText;
  }
  const extra = optionalRecord(value.extra_content, path, 'extra_content');
  const google = extra === undefined ? undefined : optionalRecord(extra.google, `${path}.extra_content`, 'google');
  const signature = google === undefined ? undefined : optionalString(google.thought_signature, `${path}.extra_content.google`, 'thought_signature');
  if (signature !== undefined && signature.length > 0) call.signature = signature;
  if (!fragment) {
    if (call.name === undefined || call.name.length === 0) throw violation(`${path}.function.name`, 'is required');
    // Tolerance of real traffic: OpenAI's schema requires the member, but compatible relays leave it out of a
    // call with no arguments.
    if (call.arguments === undefined) call.arguments = '{}';
  }
  return call;
}

function readFunctionCall(value: unknown, path: string): OpenAiChatWireFunctionCall | undefined {
  const record = optionalRecord(value, path, 'function_call');
  if (record === undefined) return undefined;
  const call: Mutable<OpenAiChatWireFunctionCall> = {};
  const name = optionalString(record.name, `${path}.function_call`, 'name');
  if (name !== undefined) call.name = name;
  const argumentsText = optionalString(record.arguments, `${path}.function_call`, 'arguments');
  if (argumentsText !== undefined) call.arguments = argumentsText;
  return call;
}

/** `choices.N.delta` or `choices.N.message`, built only for an error message or a nested reader. */
function messagePath(position: number, key: string): string {
  return `choices.${position}.${key}`;
}

/** Whether a value is absent, `null` or a string: the check of the optional text fields of a message. */
function isOptionalString(value: unknown): value is string | null | undefined {
  return value === undefined || value === null || typeof value === 'string';
}

/** Chunk types of typed content that carry no text of the answer (Mistral `reference`: citation ids). */
const TEXTLESS_CHUNK_TYPES: ReadonlySet<string> = new Set(['reference']);

function readChunkText(value: unknown, path: string): string {
  if (!isRecord(value) || value.type !== 'text' || typeof value.text !== 'string') throw violation(path, 'must be a text chunk');
  return value.text;
}

/**
 * Reads `content` sent as a list of typed chunks (Mistral, docs.mistral.ai "Reasoning": `TextChunk` `{type: "text",
 * text}`, `ThinkChunk` `{type: "thinking", thinking: [TextChunk...]}`, `ReferenceChunk`), in a sync message or a
 * stream delta: the text chunks joined are the content, the thinking chunks joined the reasoning. A `reference`
 * chunk carries no text and is skipped; any other chunk type is refused (it could carry content we would lose).
 */
function readTypedContent(chunks: readonly unknown[], path: string): { text: string | undefined; thinking: string | undefined } {
  let text: string | undefined;
  let thinking: string | undefined;
  chunks.forEach((chunk: unknown, index) => {
    const chunkPath = `${path}.${index}`;
    if (!isRecord(chunk) || typeof chunk.type !== 'string') throw violation(`${chunkPath}.type`, 'must be a string');
    if (chunk.type === 'text') {
      text = (text ?? '') + readChunkText(chunk, chunkPath);
    } else if (chunk.type === 'thinking') {
      const parts = chunk.thinking;
      if (!Array.isArray(parts)) throw violation(`${chunkPath}.thinking`, 'must be a list of text chunks');
      parts.forEach((part: unknown, partIndex) => {
        thinking = (thinking ?? '') + readChunkText(part, `${chunkPath}.thinking.${partIndex}`);
      });
    } else if (!TEXTLESS_CHUNK_TYPES.has(chunk.type)) {
      throw violation(`${chunkPath}.type`, 'must be text, thinking or reference');
    }
  });
  return { text, thinking };
}

function readMessage(value: JsonRecord, position: number, key: string, fragment: boolean): OpenAiChatWireMessage {
  const role = value.role;
  if (!isOptionalString(role)) throw violation(`${messagePath(position, key)}.role`, 'must be a string');
  const typed = Array.isArray(value.content) ? readTypedContent(value.content, `${messagePath(position, key)}.content`) : undefined;
  const content = typed === undefined ? value.content : typed.text;
  if (!isOptionalString(content)) throw violation(`${messagePath(position, key)}.content`, 'must be a string or a list of typed chunks');
  const refusal = value.refusal;
  if (!isOptionalString(refusal)) throw violation(`${messagePath(position, key)}.refusal`, 'must be a string');
  const reasoningContent = value.reasoning_content ?? typed?.thinking;
  if (!isOptionalString(reasoningContent)) throw violation(`${messagePath(position, key)}.reasoning_content`, 'must be a string');
  const reasoning = value.reasoning;
  if (!isOptionalString(reasoning)) throw violation(`${messagePath(position, key)}.reasoning`, 'must be a string');
  const toolCallsValue = value.tool_calls;
  let toolCalls: OpenAiChatWireToolCall[] | undefined;
  if (toolCallsValue !== undefined && toolCallsValue !== null) {
    const path = messagePath(position, key);
    if (!Array.isArray(toolCallsValue)) throw violation(`${path}.tool_calls`, 'must be an array');
    toolCalls = [];
    for (let index = 0; index < toolCallsValue.length; index += 1) {
      toolCalls.push(readToolCall(toolCallsValue[index], `${path}.tool_calls.${index}`, fragment));
    }
  }
  const functionCallValue = value.function_call;
  const functionCall =
    functionCallValue === undefined || functionCallValue === null ? undefined : readFunctionCall(functionCallValue, messagePath(position, key));
  return {
    role: role ?? undefined,
    content: content ?? undefined,
    refusal: refusal ?? undefined,
    reasoning_content: reasoningContent ?? undefined,
    reasoning: reasoning ?? undefined,
    tool_calls: toolCalls,
    function_call: functionCall,
  };
}

const EMPTY_MESSAGE: OpenAiChatWireMessage = Object.freeze({
  role: undefined,
  content: undefined,
  refusal: undefined,
  reasoning_content: undefined,
  reasoning: undefined,
  tool_calls: undefined,
  function_call: undefined,
});

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
  const message = optionalString(value.message, 'error', 'message');
  if (message !== undefined) error.message = message;
  const type = optionalString(value.type, 'error', 'type');
  if (type !== undefined) error.type = type;
  if (typeof code === 'string' || typeof code === 'number') error.code = code;
  if (typeof value.param === 'string') error.param = value.param;
  return error;
}

function readChoice(choice: unknown, position: number, stream: boolean): OpenAiChatWireChoice {
  if (!isRecord(choice)) throw violation(`choices.${position}`, 'must be an object');
  const key = stream ? 'delta' : 'message';
  const messageValue = stream ? choice.delta : choice.message;
  let message: OpenAiChatWireMessage;
  if (messageValue === undefined || messageValue === null) {
    if (!stream) throw violation(`choices.${position}.message`, 'is required');
    message = EMPTY_MESSAGE;
  } else {
    if (!isRecord(messageValue)) throw violation(messagePath(position, key), 'must be an object');
    message = readMessage(messageValue, position, key, stream);
  }
  // A missing index is tolerated as 0 (§1.9); only one choice is ever requested.
  const indexValue = choice.index;
  const index = indexValue === 0 ? 0 : (optionalCount(indexValue, `choices.${position}`, 'index', OPENAI_CHAT_MAX_WIRE_INDEX) ?? 0);
  const finishValue = choice.finish_reason;
  const finishReason = typeof finishValue === 'string' ? finishValue : optionalString(finishValue, `choices.${position}`, 'finish_reason');
  return { index, message, finish_reason: finishReason };
}

const NO_CHOICES: readonly OpenAiChatWireChoice[] = Object.freeze([]);

function readCompletion(value: unknown, stream: boolean): OpenAiChatWireCompletion {
  const where = stream ? 'chunk' : 'body';
  if (!isRecord(value)) throw violation(where, 'must be a JSON object');
  const errorValue = value.error;
  const error = errorValue === undefined ? undefined : readOpenAiChatError(errorValue);
  const choicesValue = value.choices;
  let choices = NO_CHOICES;
  if (choicesValue === undefined || choicesValue === null) {
    // Usage-only chunks of vLLM-style servers, and error-only bodies, carry no choices.
    if (!stream && error === undefined) throw violation('body.choices', 'is required');
  } else {
    if (!Array.isArray(choicesValue)) throw violation('choices', 'must be an array');
    if (choicesValue.length > 0) {
      const read: OpenAiChatWireChoice[] = [];
      for (let position = 0; position < choicesValue.length; position += 1) read.push(readChoice(choicesValue[position], position, stream));
      choices = read;
    }
  }
  const model = optionalString(value.model, where, 'model');
  const usageValue = optionalRecord(value.usage, where, 'usage');
  return {
    choices,
    model,
    usage: usageValue === undefined ? undefined : readUsage(usageValue, 'usage', readServiceTier(value.service_tier)),
    error,
  };
}

/** Reads a whole `chat.completion` body. Requires `choices` (unless the body is an error) and each `message`. */
export function readOpenAiChatCompletion(value: unknown): OpenAiChatWireCompletion {
  return readCompletion(value, false);
}

/** Reads one `chat.completion.chunk`. Missing or `null` `choices` and `delta` are tolerated (§1.9, §1.10). */
export function readOpenAiChatChunk(value: unknown): OpenAiChatWireCompletion {
  return readCompletion(value, true);
}
