import { CONTRACT_BOUNDS_V1 as BOUNDS } from '@tokenforge/model-protocol';
import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { createWireReaders, isWireRecord as isRecord, type WireRecord as JsonRecord } from '../../codec-kit/wire-readers.js';
import { readDetailCount, readDetailRecord, readServiceTier } from '../../codec-kit/usage-detail-readers.js';
import { readAnthropicCompactionFields } from './wire-compaction-fields.js';
import type { AnthropicWireUsage } from './convert-usage.js';

/*
 * Tolerant readers of what an Anthropic Messages server sends (fact sheet §3.5 to §3.9). They read only the
 * fields this family uses, allow any extra key, and throw a ProtocolViolationError naming the JSON path (never
 * the value) when a field we read is missing where §3.9 requires it, mistyped or out of range.
 *
 * Hand-written instead of a schema library, like the other families: they run once per stream event, where
 * house-style §14 asks for a check close to the cost of JSON.parse, and they return narrow typed shapes.
 */

/** Largest token count accepted: three of them still add up below `Number.MAX_SAFE_INTEGER`. */
const MAX_COUNT = 2 ** 51;
/** Largest content block index accepted (the bound of normalized stream indexes). */
export const ANTHROPIC_MAX_BLOCK_INDEX = 1_000_000;

/**
 * Documented blocks the normalized model does not carry yet: server-side tool blocks (§3.5), MCP connector blocks
 * (`mcp_tool_use`, `mcp_tool_result`) and the advisor tool's result (`advisor_tool_result`; its call is a
 * `server_tool_use`). (Context compaction blocks are read: see {@link AnthropicWireContentBlock}.) They are known and
 * harmless: the normalized result has no part for them yet, and the text and tool calls around them are complete
 * without them. They are skipped (with their streamed deltas) and never reach normalized output; an undocumented
 * block type still fails.
 */
export const ANTHROPIC_SERVER_TOOL_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
  'mcp_tool_use',
  'mcp_tool_result',
  'advisor_tool_result',
]);

/**
 * Stream event types that are known and carry nothing: `ping` (keep-alive, any position, any number).
 * Every other event type outside the mapped set fails as a protocol violation.
 */
export const ANTHROPIC_HARMLESS_STREAM_EVENT_TYPES: ReadonlySet<string> = new Set(['ping']);

/**
 * Delta types that are known and dropped: `citations_delta` (citation metadata of a text block; the
 * normalized text part has no citations).
 */
export const ANTHROPIC_HARMLESS_DELTA_TYPES: ReadonlySet<string> = new Set(['citations_delta']);

/** A response content block, as far as this family reads it. */
export type AnthropicWireContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> }
  /**
   * A server-side compaction block (beta `compact-2026-01-12`): `content` is the summary, `null` for a failed
   * compaction (a no-op) and, when streamed, at `content_block_start` (the summary then comes as one
   * `compaction_delta`). https://platform.claude.com/docs/en/build-with-claude/compaction
   */
  | { readonly type: 'compaction'; readonly content: string | null; readonly fields: Record<string, unknown> | undefined }
  /** A known server-tool block, skipped. */
  | { readonly type: 'server-tool'; readonly wireType: string };

/** The `error` object of an error envelope or a stream `error` event. */
export interface AnthropicWireError {
  /** `error.type`, e.g. `overloaded_error` (an open set). */
  readonly type?: string;
  /** `error.details.error_code`, e.g. `enforced_spend_limit_reached`. */
  readonly errorCode?: string;
  /** Whether `error.message` is Anthropic's context-overflow refusal (`prompt is too long: N tokens > M maximum`). */
  readonly promptTooLong?: boolean;
}

/** A whole (non-stream) Message. */
export interface AnthropicWireMessage {
  readonly model?: string;
  readonly content: readonly AnthropicWireContentBlock[];
  readonly stop_reason: string | null;
  readonly usage: AnthropicWireUsage;
}

/** A `content_block_delta` payload. */
export type AnthropicWireDelta =
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'input_json_delta'; readonly partial_json: string }
  | { readonly type: 'thinking_delta'; readonly thinking: string }
  | { readonly type: 'signature_delta'; readonly signature: string }
  /** The summary of a `compaction` block: its final value (`null` for a failed compaction), not a fragment. */
  | { readonly type: 'compaction_delta'; readonly content: string | null; readonly fields: Record<string, unknown> | undefined }
  /** A known delta type that is dropped (see {@link ANTHROPIC_HARMLESS_DELTA_TYPES}). */
  | { readonly type: 'harmless'; readonly wireType: string };

/** One stream event. */
export type AnthropicWireStreamEvent =
  | { readonly type: 'message_start'; readonly id: string; readonly model?: string; readonly usage: AnthropicWireUsage }
  | { readonly type: 'content_block_start'; readonly index: number; readonly block: AnthropicWireContentBlock }
  | { readonly type: 'content_block_delta'; readonly index: number; readonly delta: AnthropicWireDelta }
  | { readonly type: 'content_block_stop'; readonly index: number }
  | { readonly type: 'message_delta'; readonly stop_reason: string | null; readonly usage: AnthropicWireUsage }
  | { readonly type: 'message_stop' }
  | { readonly type: 'harmless'; readonly wireType: string }
  | { readonly type: 'error'; readonly error: AnthropicWireError };

/** The readers of this family's wire JSON (messages start with `anthropic-messages`). */
export const ANTHROPIC_MESSAGES_WIRE = createWireReaders({ family: 'anthropic-messages', maxCount: MAX_COUNT });
const wire = ANTHROPIC_MESSAGES_WIRE;
const { violation, stringValue } = wire;

function requireIndex(record: JsonRecord, path: string): number {
  const value = record.index;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > ANTHROPIC_MAX_BLOCK_INDEX) {
    throw violation(`${path}.index`, 'must be an integer from 0 to 1000000');
  }
  return value;
}

/** `stop_reason`: the key must be present (§3.9); `null` is allowed. */
function requireStopReason(record: JsonRecord, path: string): string | null {
  if (!('stop_reason' in record)) throw violation(`${path}.stop_reason`, 'is required');
  const value = record.stop_reason;
  if (value === null) return null;
  if (typeof value !== 'string') throw violation(`${path}.stop_reason`, 'must be a string or null');
  return value;
}

/** Copies the defined entries only (the contracts use exact optional properties). */
function compact<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) result[key] = entry;
  return result as T;
}

/**
 * Reads a `usage` object. `requireInput`: `input_tokens` is required (sync body, `message_start`);
 * `requireOutput`: `output_tokens` is required (sync body, `message_delta`).
 */
function readUsage(value: JsonRecord, path: string, requireInput: boolean, requireOutput: boolean): AnthropicWireUsage {
  const details = value.output_tokens_details;
  if (details !== undefined && details !== null && !isRecord(details)) {
    throw violation(`${path}.output_tokens_details`, 'must be an object');
  }
  const cacheCreation = readDetailRecord(value.cache_creation);
  const serverToolUse = readDetailRecord(value.server_tool_use);
  const compaction = readCompactionIterations(value.iterations, `${path}.iterations`);
  return compact<AnthropicWireUsage>({
    ...compaction,
    input_tokens: requireInput ? wire.requiredCount(value.input_tokens, path, 'input_tokens') : wire.optionalCount(value.input_tokens, path, 'input_tokens'),
    output_tokens: requireOutput ? wire.requiredCount(value.output_tokens, path, 'output_tokens') : wire.optionalCount(value.output_tokens, path, 'output_tokens'),
    cache_creation_input_tokens: wire.optionalCount(value.cache_creation_input_tokens, path, 'cache_creation_input_tokens'),
    cache_read_input_tokens: wire.optionalCount(value.cache_read_input_tokens, path, 'cache_read_input_tokens'),
    thinking_tokens: isRecord(details) ? wire.optionalCount(details.thinking_tokens, `${path}.output_tokens_details`, 'thinking_tokens') : undefined,
    // The billing details only add information: a malformed one is left out, never a violation.
    cache_creation_5m: readDetailCount(cacheCreation?.ephemeral_5m_input_tokens),
    cache_creation_1h: readDetailCount(cacheCreation?.ephemeral_1h_input_tokens),
    web_search_requests: readDetailCount(serverToolUse?.web_search_requests),
    web_fetch_requests: readDetailCount(serverToolUse?.web_fetch_requests),
    service_tier: readServiceTier(value.service_tier),
  });
}

/**
 * Sums the `compaction` entries of `usage.iterations` (server-side compaction, beta `compact-2026-01-12`). Their
 * tokens are billed but, as documented, not included in the top-level usage fields; `message` and other entries
 * are already in the top-level figures and are not read. `undefined` when there is no compaction entry.
 */
function readCompactionIterations(value: unknown, path: string): Partial<AnthropicWireUsage> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw violation(path, 'must be an array');
  let sums: { compaction_input_tokens: number; compaction_output_tokens: number; compaction_cache_creation_input_tokens: number; compaction_cache_read_input_tokens: number } | undefined;
  value.forEach((entry: unknown, index) => {
    const entryPath = `${path}.${index}`;
    if (!isRecord(entry)) throw violation(entryPath, 'must be an object');
    if (wire.stringValue(entry.type, entryPath, 'type') !== 'compaction') return;
    sums ??= { compaction_input_tokens: 0, compaction_output_tokens: 0, compaction_cache_creation_input_tokens: 0, compaction_cache_read_input_tokens: 0 };
    sums.compaction_input_tokens += wire.requiredCount(entry.input_tokens, entryPath, 'input_tokens');
    sums.compaction_output_tokens += wire.requiredCount(entry.output_tokens, entryPath, 'output_tokens');
    sums.compaction_cache_creation_input_tokens += wire.optionalCount(entry.cache_creation_input_tokens, entryPath, 'cache_creation_input_tokens') ?? 0;
    sums.compaction_cache_read_input_tokens += wire.optionalCount(entry.cache_read_input_tokens, entryPath, 'cache_read_input_tokens') ?? 0;
  });
  return sums;
}

function readContentBlock(value: unknown, path: string, streamed: boolean): AnthropicWireContentBlock {
  if (!isRecord(value)) throw violation(path, 'must be an object');
  const type = wire.stringValue(value.type, path, 'type');
  switch (type) {
    case 'text':
      return { type: 'text', text: wire.stringValue(value.text, path, 'text') };
    case 'thinking':
      return {
        type: 'thinking',
        thinking: wire.stringValue(value.thinking, path, 'thinking'),
        // Streams open a thinking block with an empty signature and send the real one as a delta.
        signature: streamed ? (wire.optionalString(value.signature, path, 'signature') ?? '') : wire.stringValue(value.signature, path, 'signature'),
      };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: wire.boundedString(value.data, path, 'data', Number.MAX_SAFE_INTEGER) };
    case 'tool_use': {
      const input = value.input;
      if (streamed ? input !== undefined && !isRecord(input) : !isRecord(input)) throw violation(`${path}.input`, 'must be an object');
      return {
        type: 'tool_use',
        id: wire.boundedString(value.id, path, 'id', BOUNDS.toolCallIdMaxLength),
        name: wire.boundedString(value.name, path, 'name', BOUNDS.toolNameMaxLength),
        input: isRecord(input) ? input : {},
      };
    }
    case 'compaction': {
      const content = value.content;
      if (content !== null && content !== undefined && typeof content !== 'string') throw violation(`${path}.content`, 'must be a string or null');
      if (!streamed && content === undefined) throw violation(`${path}.content`, 'is required');
      const read = readAnthropicCompactionFields(value, undefined);
      if ('malformed' in read) throw violation(`${path}.${read.malformed}`, 'is malformed');
      return { type: 'compaction', content: typeof content === 'string' && content.length > 0 ? content : null, fields: read.fields };
    }
    default:
      if (ANTHROPIC_SERVER_TOOL_BLOCK_TYPES.has(type)) return { type: 'server-tool', wireType: type };
      throw new ProtocolViolationError('unexpected-event', `anthropic-messages ${path}.type is not a known content block type`);
  }
}

/**
 * Reads the `error` object of an error envelope (`{type:"error", error:{type, message}}`). Tolerant: returns
 * `undefined` when the value is not that shape (an edge proxy's HTML page, a 413 from the gateway), so the
 * HTTP status decides. The message is only tested for the context-overflow sentence, never kept: it may quote
 * the prompt.
 */
export function readAnthropicErrorEnvelope(value: unknown): AnthropicWireError | undefined {
  if (!isRecord(value) || !isRecord(value.error)) return undefined;
  return readErrorObject(value.error);
}

/**
 * Anthropic has no error type for a prompt over the context window: it is an `invalid_request_error` (413
 * `request_too_large` through some proxies) whose message starts `prompt is too long: N tokens > M maximum`. That
 * one sentence is tested; the message itself is never kept.
 */
const PROMPT_TOO_LONG = /^\s*prompt is too long\b/i;

function readErrorObject(error: JsonRecord): AnthropicWireError {
  const type = typeof error.type === 'string' ? error.type : undefined;
  const details = isRecord(error.details) ? error.details : undefined;
  const errorCode = details !== undefined && typeof details.error_code === 'string' ? details.error_code : undefined;
  const promptTooLong = typeof error.message === 'string' && PROMPT_TOO_LONG.test(error.message) ? true : undefined;
  return compact<AnthropicWireError>({ type, errorCode, promptTooLong });
}

/**
 * Reads a whole Message body (§3.5, §3.9): `type` must be `message`; `content` an array of known blocks;
 * `stop_reason` present (null allowed); `usage` with `input_tokens` and `output_tokens`; `role`, when sent,
 * `assistant`. A body whose `type` is `error` is returned as an error.
 */
export function readAnthropicMessage(value: unknown): AnthropicWireMessage | { readonly type: 'error'; readonly error: AnthropicWireError } {
  if (!isRecord(value)) throw violation('body', 'must be an object');
  const type = wire.stringValue(value.type, 'body', 'type');
  if (type === 'error') {
    return { type: 'error', error: isRecord(value.error) ? readErrorObject(value.error) : {} };
  }
  if (type !== 'message') throw violation('body.type', 'must be message');
  if (value.role !== undefined && value.role !== 'assistant') throw violation('body.role', 'must be assistant');
  const content = value.content;
  if (!Array.isArray(content)) throw violation('body.content', 'must be an array');
  return compact<AnthropicWireMessage>({
    model: wire.optionalString(value.model, 'body', 'model'),
    content: content.map((block, index) => readContentBlock(block, `body.content.${index}`, false)),
    stop_reason: requireStopReason(value, 'body'),
    usage: readUsage(wire.requiredRecord(value.usage, 'body', 'usage'), 'body.usage', true, true),
  });
}

/**
 * Reads one stream event payload. `eventName` is the SSE `event:` field; proxies may omit it (§3.10), in
 * which case the JSON `type` decides. When both are present they must agree.
 */
export function readAnthropicStreamEvent(value: unknown, eventName: string | undefined): AnthropicWireStreamEvent {
  if (!isRecord(value)) throw violation('event', 'must be an object');
  const type = stringValue(value.type, 'event', 'type');
  if (eventName !== undefined && eventName !== type) throw violation('event.type', 'does not match the SSE event name');
  switch (type) {
    case 'message_start': {
      const message = wire.requiredRecord(value.message, 'event', 'message');
      return compact<AnthropicWireStreamEvent & { type: 'message_start' }>({
        type: 'message_start',
        id: wire.boundedString(message.id, 'event.message', 'id', BOUNDS.toolCallIdMaxLength),
        model: wire.optionalString(message.model, 'event.message', 'model'),
        usage: readUsage(wire.requiredRecord(message.usage, 'event.message', 'usage'), 'event.message.usage', true, false),
      });
    }
    case 'content_block_start':
      return {
        type: 'content_block_start',
        index: requireIndex(value, 'event'),
        block: readContentBlock(value.content_block, 'event.content_block', true),
      };
    case 'content_block_delta':
      return { type: 'content_block_delta', index: requireIndex(value, 'event'), delta: readDelta(value.delta) };
    case 'content_block_stop':
      return { type: 'content_block_stop', index: requireIndex(value, 'event') };
    case 'message_delta': {
      const delta = wire.requiredRecord(value.delta, 'event', 'delta');
      const stopReason = delta.stop_reason;
      if (stopReason !== undefined && stopReason !== null && typeof stopReason !== 'string') {
        throw violation('event.delta.stop_reason', 'must be a string or null');
      }
      return {
        type: 'message_delta',
        stop_reason: stopReason ?? null,
        usage: readUsage(wire.requiredRecord(value.usage, 'event', 'usage'), 'event.usage', false, true),
      };
    }
    case 'message_stop':
      return { type: 'message_stop' };
    case 'error':
      return { type: 'error', error: isRecord(value.error) ? readErrorObject(value.error) : {} };
    default:
      if (ANTHROPIC_HARMLESS_STREAM_EVENT_TYPES.has(type)) return { type: 'harmless', wireType: type };
      throw new ProtocolViolationError('unexpected-event', 'anthropic-messages stream event type is not known');
  }
}

function readDelta(value: unknown): AnthropicWireDelta {
  if (!isRecord(value)) throw violation('event.delta', 'must be an object');
  const type = stringValue(value.type, 'event.delta', 'type');
  switch (type) {
    case 'text_delta':
      return { type, text: stringValue(value.text, 'event.delta', 'text') };
    case 'input_json_delta':
      return { type, partial_json: stringValue(value.partial_json, 'event.delta', 'partial_json') };
    case 'thinking_delta':
      return { type, thinking: stringValue(value.thinking, 'event.delta', 'thinking') };
    case 'signature_delta':
      return { type, signature: stringValue(value.signature, 'event.delta', 'signature') };
    case 'compaction_delta': {
      const content = value.content;
      if (content !== null && content !== undefined && typeof content !== 'string') throw violation('event.delta.content', 'must be a string or null');
      const read = readAnthropicCompactionFields(value, undefined);
      if ('malformed' in read) throw violation(`event.delta.${read.malformed}`, 'is malformed');
      return { type, content: typeof content === 'string' && content.length > 0 ? content : null, fields: read.fields };
    }
    default:
      if (ANTHROPIC_HARMLESS_DELTA_TYPES.has(type)) return { type: 'harmless', wireType: type };
      throw new ProtocolViolationError('unexpected-event', 'anthropic-messages content block delta type is not known');
  }
}
