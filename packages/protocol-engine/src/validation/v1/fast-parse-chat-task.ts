import { CONTRACT_BOUNDS_V1 as BOUNDS, type ChatTaskV2 } from '@tokenforge/model-protocol';
import { TOOL_CALL_ID_MAX, TOOL_NAME_MAX, reasoningPart, redactedReasoningPart, toolCallPart } from './fast-parse-shared-parts.js';
import {
  booleanCheck,
  checkArray,
  checkRecord,
  copyOptional,
  countKnownKeys,
  enumCheck,
  hasOnlyKeys,
  integerCheck,
  isString,
  nonEmptyString,
  numberCheck,
  optionalFieldsCheck,
  plainObject,
  stringCheck,
  type Check,
  type Loose,
} from './plain-data-checks.js';

/*
 * A hand-written equivalent of model-protocol's `chatTaskV2Schema` for plain data: the same bounds, patterns and
 * role rules, and the same output (a fresh copy, keys in schema order, present `undefined` kept). It answers
 * `undefined` whenever the input is not a valid plain-data chat task, and the engine then asks the schema, which
 * decides and words the error. Zod costs hundreds of microseconds a task once its code is out of the CPU caches
 * (as it is between requests); this costs a few. Agreement with the schema is proven by property tests in
 * fast-parse-chat-task.test.ts: change both together.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]+$/;
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const FORMAT_NAME = /^[A-Za-z0-9_-]+$/;

const TASK_KEYS = new Set([
  'kind',
  'idempotencyKey',
  'system',
  'messages',
  'tools',
  'toolChoice',
  'responseFormat',
  'sampling',
  'maxOutputTokens',
  'stopSequences',
  'reasoning',
  'caching',
  'stream',
]);
const MESSAGE_KEYS = new Set(['role', 'content']);
const TEXT_KEYS = new Set(['type', 'text', 'cacheControl']);
const IMAGE_KEYS = new Set(['type', 'source', 'detail', 'cacheControl']);
const DOCUMENT_KEYS = new Set(['type', 'source', 'title', 'cacheControl']);
const AUDIO_KEYS = new Set(['type', 'source']);
const TOOL_RESULT_KEYS = new Set(['type', 'toolCallId', 'toolName', 'content', 'isError']);
const CACHE_CONTROL_KEYS = new Set(['type', 'ttlSeconds']);
const URL_SOURCE_KEYS = new Set(['type', 'url']);
const BASE64_SOURCE_KEYS = new Set(['type', 'mediaType', 'data']);
const TOOL_KEYS = new Set(['name', 'description', 'inputSchema', 'strict', 'cacheControl']);
const TYPE_ONLY_KEYS = new Set(['type']);
const TOOL_CHOICE_TOOL_KEYS = new Set(['type', 'toolName']);
const JSON_FORMAT_KEYS = new Set(['type', 'schema', 'name', 'strict']);

const USER_PARTS = new Set(['text', 'image', 'document', 'audio']);
const ASSISTANT_PARTS = new Set(['text', 'tool-call', 'reasoning', 'redacted-reasoning']);
const TOOL_PARTS = new Set(['tool-result']);
const DETAILS = new Set(['low', 'high', 'auto']);
const EFFORTS = new Set(['minimal', 'low', 'medium', 'high']);

const idempotencyKey = stringCheck(1, BOUNDS.idempotencyKeyMaxLength, IDEMPOTENCY_KEY);
const ttlSeconds = integerCheck(1, BOUNDS.cacheTtlSecondsMax);
const detail = enumCheck(DETAILS);
const documentTitle = stringCheck(0, BOUNDS.documentTitleMaxLength);
const toolDescription = stringCheck(0, BOUNDS.toolDescriptionMaxLength);
const formatName = stringCheck(1, BOUNDS.responseFormatNameMaxLength, FORMAT_NAME);

function cacheControl(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined || source.type !== 'ephemeral' || !hasOnlyKeys(source, CACHE_CONTROL_KEYS)) return undefined;
  const out: Loose = { type: 'ephemeral' };
  return copyOptional(source, 'ttlSeconds', out, ttlSeconds) ? out : undefined;
}

function mediaSource(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined) return undefined;
  if (source.type === 'url') {
    const url = source.url;
    if (!hasOnlyKeys(source, URL_SOURCE_KEYS) || !isString(url, 1, BOUNDS.mediaUrlMaxLength)) return undefined;
    return { type: 'url', url };
  }
  if (source.type === 'base64') {
    const { mediaType, data } = source;
    if (!hasOnlyKeys(source, BASE64_SOURCE_KEYS) || !isString(mediaType, BOUNDS.mediaTypeMinLength, BOUNDS.mediaTypeMaxLength) || !isString(data, 1, MAX_SAFE)) return undefined;
    return { type: 'base64', mediaType, data };
  }
  return undefined;
}

function textPart(source: Loose): Loose | undefined {
  const text = source.text;
  if (!hasOnlyKeys(source, TEXT_KEYS) || typeof text !== 'string') return undefined;
  const out: Loose = { type: 'text', text };
  return copyOptional(source, 'cacheControl', out, cacheControl) ? out : undefined;
}

function imagePart(source: Loose): Loose | undefined {
  if (!hasOnlyKeys(source, IMAGE_KEYS)) return undefined;
  const media = mediaSource(source.source);
  if (media === undefined) return undefined;
  const out: Loose = { type: 'image', source: media };
  return copyOptional(source, 'detail', out, detail) && copyOptional(source, 'cacheControl', out, cacheControl) ? out : undefined;
}

function contentPart(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined) return undefined;
  switch (source.type) {
    case 'text':
      return textPart(source);
    case 'image':
      return imagePart(source);
    case 'document': {
      if (!hasOnlyKeys(source, DOCUMENT_KEYS)) return undefined;
      const media = mediaSource(source.source);
      if (media === undefined) return undefined;
      const out: Loose = { type: 'document', source: media };
      return copyOptional(source, 'title', out, documentTitle) && copyOptional(source, 'cacheControl', out, cacheControl) ? out : undefined;
    }
    case 'audio': {
      if (!hasOnlyKeys(source, AUDIO_KEYS)) return undefined;
      const media = mediaSource(source.source);
      return media === undefined ? undefined : { type: 'audio', source: media };
    }
    case 'tool-call':
      return toolCallPart(source);
    case 'tool-result': {
      const { toolCallId, toolName } = source;
      if (!hasOnlyKeys(source, TOOL_RESULT_KEYS) || !isString(toolCallId, 1, TOOL_CALL_ID_MAX) || !isString(toolName, 1, TOOL_NAME_MAX)) return undefined;
      const content = checkArray(source.content, 0, MAX_SAFE, toolResultContentPart);
      if (content === undefined) return undefined;
      const out: Loose = { type: 'tool-result', toolCallId, toolName, content };
      return copyOptional(source, 'isError', out, booleanCheck) ? out : undefined;
    }
    case 'reasoning':
      return reasoningPart(source);
    case 'redacted-reasoning':
      return redactedReasoningPart(source);
    default:
      return undefined;
  }
}

function toolResultContentPart(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined) return undefined;
  if (source.type === 'text') return textPart(source);
  if (source.type === 'image') return imagePart(source);
  return undefined;
}

function systemPart(value: unknown): Loose | undefined {
  const source = plainObject(value);
  return source === undefined || source.type !== 'text' ? undefined : textPart(source);
}

function message(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined || !hasOnlyKeys(source, MESSAGE_KEYS)) return undefined;
  const role = source.role;
  const allowed = role === 'user' ? USER_PARTS : role === 'assistant' ? ASSISTANT_PARTS : role === 'tool' ? TOOL_PARTS : undefined;
  if (allowed === undefined) return undefined;
  const content = checkArray(source.content, 1, MAX_SAFE, contentPart);
  if (content === undefined) return undefined;
  for (const part of content) if (!allowed.has(part.type as string)) return undefined;
  return { role, content };
}

function tool(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined || !hasOnlyKeys(source, TOOL_KEYS)) return undefined;
  const name = source.name;
  if (!isString(name, 1, BOUNDS.declaredToolNameMaxLength) || !TOOL_NAME.test(name)) return undefined;
  const out: Loose = { name };
  if (!copyOptional(source, 'description', out, toolDescription)) return undefined;
  const inputSchema = checkRecord(source.inputSchema);
  if (inputSchema === undefined) return undefined;
  out.inputSchema = inputSchema;
  return copyOptional(source, 'strict', out, booleanCheck) && copyOptional(source, 'cacheControl', out, cacheControl) ? out : undefined;
}

function toolChoice(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined) return undefined;
  const type = source.type;
  if (type === 'auto' || type === 'none' || type === 'required') return hasOnlyKeys(source, TYPE_ONLY_KEYS) ? { type } : undefined;
  if (type !== 'tool') return undefined;
  const toolName = source.toolName;
  return hasOnlyKeys(source, TOOL_CHOICE_TOOL_KEYS) && isString(toolName, 1, BOUNDS.declaredToolNameMaxLength) ? { type, toolName } : undefined;
}

function responseFormat(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined) return undefined;
  if (source.type === 'text') return hasOnlyKeys(source, TYPE_ONLY_KEYS) ? { type: 'text' } : undefined;
  if (source.type !== 'json' || !hasOnlyKeys(source, JSON_FORMAT_KEYS)) return undefined;
  const out: Loose = { type: 'json' };
  return copyOptional(source, 'schema', out, checkRecord) &&
    copyOptional(source, 'name', out, formatName) &&
    copyOptional(source, 'strict', out, booleanCheck)
    ? out
    : undefined;
}

const sampling = optionalFieldsCheck([
  ['temperature', numberCheck(BOUNDS.temperatureMin, BOUNDS.temperatureMax)],
  ['topP', numberCheck(BOUNDS.topPMin, BOUNDS.topPMax)],
  ['topK', integerCheck(1, MAX_SAFE)],
  ['frequencyPenalty', numberCheck(BOUNDS.penaltyMin, BOUNDS.penaltyMax)],
  ['presencePenalty', numberCheck(BOUNDS.penaltyMin, BOUNDS.penaltyMax)],
  ['seed', integerCheck(-MAX_SAFE, MAX_SAFE)],
]);
const reasoningControl = optionalFieldsCheck([
  ['effort', enumCheck(EFFORTS)],
  ['budgetTokens', integerCheck(0, MAX_SAFE)],
  ['includeReasoning', booleanCheck],
]);
const caching = optionalFieldsCheck([['promptCacheKey', stringCheck(1, BOUNDS.promptCacheKeyMaxLength)]]);

const systemParts: Check = (value) => checkArray(value, 0, MAX_SAFE, systemPart);
const tools: Check = (value) => checkArray(value, 0, MAX_SAFE, tool);
const stopSequences: Check = (value) => checkArray(value, 0, BOUNDS.stopSequencesMaxCount, nonEmptyString);
const maxOutputTokens = integerCheck(1, MAX_SAFE);

/**
 * The chat task as `chatTaskV2Schema` would parse it, or `undefined` when the input is not a valid plain-data
 * chat task (then the schema decides). Never throws for plain data.
 */
export function fastParseChatTask(value: unknown): ChatTaskV2 | undefined {
  const source = plainObject(value);
  if (source === undefined || source.kind !== 'chat') return undefined;
  const keyCount = countKnownKeys(source, TASK_KEYS);
  if (keyCount < 0) return undefined;
  // kind, messages and stream are required: with no other key, the optional copies below have nothing to find.
  const optional = keyCount > 3;
  const out: Loose = { kind: 'chat' };
  if (optional && (!copyOptional(source, 'idempotencyKey', out, idempotencyKey) || !copyOptional(source, 'system', out, systemParts))) {
    return undefined;
  }
  const messages = checkArray(source.messages, 1, MAX_SAFE, message);
  if (messages === undefined) return undefined;
  out.messages = messages;
  const decided =
    !optional ||
    (copyOptional(source, 'tools', out, tools) &&
      copyOptional(source, 'toolChoice', out, toolChoice) &&
      copyOptional(source, 'responseFormat', out, responseFormat) &&
      copyOptional(source, 'sampling', out, sampling) &&
      copyOptional(source, 'maxOutputTokens', out, maxOutputTokens) &&
      copyOptional(source, 'stopSequences', out, stopSequences) &&
      copyOptional(source, 'reasoning', out, reasoningControl) &&
      copyOptional(source, 'caching', out, caching));
  if (!decided || typeof source.stream !== 'boolean') return undefined;
  out.stream = source.stream;
  return out as ChatTaskV2;
}
