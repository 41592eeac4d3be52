import type {
  CacheControlV2,
  ChatContentPartV4 as ChatContentPartV2,
  ChatMessageV4 as ChatMessageV2,
  MediaSourceV2,
  TextPartV2,
  ToolResultContentPartV2,
} from '@tokenforge/model-protocol';
import { anthropicCompactionFieldsText, readAnthropicCompactionFields } from './wire-compaction-fields.js';
import { decodeAnthropicCacheControl } from './map-cache-control.js';
import {
  compact,
  invalid,
  isRecord,
  optionalBoolean,
  optionalString,
  requireNonEmptyString,
  requireRecord,
  requireString,
  unsupported,
  type JsonRecord,
} from './client-readers.js';

const encoder = new TextEncoder();

/** Reads an optional `cache_control` into a normalized breakpoint. */
export function readCacheControl(record: JsonRecord, path: string): CacheControlV2 | undefined {
  const value = record.cache_control;
  if (value === undefined || value === null) return undefined;
  const control = requireRecord(value, `${path}.cache_control`);
  if (control.type !== 'ephemeral') throw invalid(`${path}.cache_control.type`, 'must be ephemeral');
  const ttl = control.ttl;
  if (ttl !== undefined && ttl !== null && ttl !== '5m' && ttl !== '1h') throw invalid(`${path}.cache_control.ttl`, 'must be 5m or 1h');
  return decodeAnthropicCacheControl(ttl === '5m' || ttl === '1h' ? { type: 'ephemeral', ttl } : { type: 'ephemeral' });
}

/** Reads a `text` block. */
export function readTextBlock(block: JsonRecord, path: string): TextPartV2 {
  const cacheControl = readCacheControl(block, path);
  return compact<TextPartV2>({ type: 'text', text: requireString(block, 'text', path), cacheControl });
}

function readImageSource(source: JsonRecord, path: string): MediaSourceV2 {
  switch (source.type) {
    case 'base64':
      return { type: 'base64', mediaType: requireNonEmptyString(source, 'media_type', path), data: requireNonEmptyString(source, 'data', path) };
    case 'url':
      return { type: 'url', url: requireNonEmptyString(source, 'url', path) };
    case 'file':
      throw unsupported(path, 'a provider file reference');
    default:
      throw invalid(`${path}.type`, 'is not a known source type');
  }
}

function readImageBlock(block: JsonRecord, path: string): ChatContentPartV2 & ToolResultContentPartV2 {
  const cacheControl = readCacheControl(block, path);
  return compact({
    type: 'image' as const,
    source: readImageSource(requireRecord(block.source, `${path}.source`), `${path}.source`),
    cacheControl,
  });
}

function readDocumentBlock(block: JsonRecord, path: string): ChatContentPartV2 {
  const sourcePath = `${path}.source`;
  const source = requireRecord(block.source, sourcePath);
  if (block.context !== undefined && block.context !== null) throw unsupported(`${path}.context`, 'document context');
  let media: MediaSourceV2;
  switch (source.type) {
    case 'base64':
    case 'url':
      media = readImageSource(source, sourcePath);
      break;
    case 'text':
      // Plain-text documents travel as base64 text/plain in the normalized task.
      media = { type: 'base64', mediaType: 'text/plain', data: toBase64(requireString(source, 'data', sourcePath)) };
      break;
    case 'content':
    case 'file':
      throw unsupported(sourcePath, `a ${String(source.type)} document source`);
    default:
      throw invalid(`${sourcePath}.type`, 'is not a known source type');
  }
  const cacheControl = readCacheControl(block, path);
  return compact({ type: 'document' as const, source: media, title: optionalString(block, 'title', path), cacheControl });
}

function toBase64(text: string): string {
  const bytes = encoder.encode(text);
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

/** The content of a turn as blocks (`content` may be a string). */
function contentBlocks(message: JsonRecord, path: string): JsonRecord[] {
  const content = message.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalid(`${path}.content`, 'must be a string or an array');
  if (content.length === 0) throw invalid(`${path}.content`, 'must not be empty');
  return content.map((block, index) => requireRecord(block, `${path}.content.${index}`));
}

function readToolResultContent(block: JsonRecord, path: string): ToolResultContentPartV2[] {
  const content = block.content;
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalid(`${path}.content`, 'must be a string or an array');
  return content.map((item, index) => {
    const itemPath = `${path}.content.${index}`;
    const record = requireRecord(item, itemPath);
    if (record.type === 'text') return readTextBlock(record, itemPath);
    if (record.type === 'image') return readImageBlock(record, itemPath);
    throw unsupported(`${itemPath}.type`, 'this tool result block');
  });
}

/**
 * Reads the `messages` array into normalized messages.
 *
 * - A `user` turn's `tool_result` blocks become `tool` messages (consecutive ones together), and its other
 *   blocks `user` messages, keeping their order. The tool name each result needs is the name of the earlier
 *   assistant `tool_use` with the same id; a result for an unknown id is refused (the API refuses it too).
 * - An `assistant` turn keeps `text`, `tool_use` (its `input` object serialized as the argument text),
 *   `thinking` (with its signature), `redacted_thinking` and `compaction` (its `content` as the part's opaque
 *   data; a `null` content, a failed compaction the API ignores, is left out, and so is a turn left empty).
 * - `cache_control` on text, image, document, `tool_use` and `tool_result` blocks becomes a breakpoint; on
 *   thinking blocks the normalized part has no breakpoint and it is dropped (it changes cost, not the answer).
 *   Citations settings are ignored. Server-tool blocks, search results, file references, document `context` and
 *   content-block documents cannot be represented and are refused.
 * - A `system` turn inside the conversation (text only) is appended to `lateSystem` when the caller passes it
 *   (the task's system has no position in the conversation, so the instruction joins the top-level system after
 *   what came before it); its own `output_config` is ignored. Without `lateSystem` it is refused.
 */
export function readAnthropicMessages(messages: readonly unknown[], lateSystem?: TextPartV2[]): ChatMessageV2[] {
  const toolNames = new Map<string, string>();
  const result: ChatMessageV2[] = [];
  messages.forEach((value, messageIndex) => {
    const path = `messages.${messageIndex}`;
    const message = requireRecord(value, path);
    const role = message.role;
    const blocks = contentBlocks(message, path);
    if (role === 'assistant') {
      const content: ChatContentPartV2[] = [];
      blocks.forEach((block, index) => {
        const part = readAssistantBlock(block, `${path}.content.${index}`, toolNames);
        if (part !== undefined) content.push(part);
      });
      if (content.length > 0) result.push({ role: 'assistant', content });
      return;
    }
    if (role === 'system') {
      if (lateSystem === undefined) throw unsupported(`${path}.role`, 'a system message inside the conversation');
      blocks.forEach((block, index) => {
        if (block.type !== 'text') throw invalid(`${path}.content.${index}.type`, 'must be text in a system message');
        lateSystem.push(readTextBlock(block, `${path}.content.${index}`));
      });
      return;
    }
    if (role !== 'user') {
      throw invalid(`${path}.role`, 'must be user or assistant');
    }
    let current: ChatMessageV2 | undefined;
    blocks.forEach((block, index) => {
      const blockPath = `${path}.content.${index}`;
      const wanted = block.type === 'tool_result' ? 'tool' : 'user';
      const part = wanted === 'tool' ? readToolResult(block, blockPath, toolNames) : readUserBlock(block, blockPath);
      if (current?.role !== wanted) {
        current = { role: wanted, content: [] };
        result.push(current);
      }
      current.content.push(part);
    });
  });
  return result;
}

function readUserBlock(block: JsonRecord, path: string): ChatContentPartV2 {
  switch (block.type) {
    case 'text':
      return readTextBlock(block, path);
    case 'image':
      return readImageBlock(block, path);
    case 'document':
      return readDocumentBlock(block, path);
    default:
      throw unsupportedBlock(block, path);
  }
}

function readToolResult(block: JsonRecord, path: string, toolNames: ReadonlyMap<string, string>): ChatContentPartV2 {
  const toolCallId = requireNonEmptyString(block, 'tool_use_id', path);
  const toolName = toolNames.get(toolCallId);
  if (toolName === undefined) throw invalid(`${path}.tool_use_id`, 'does not answer an earlier tool_use');
  return compact({
    type: 'tool-result' as const,
    toolCallId,
    toolName,
    content: readToolResultContent(block, path),
    isError: optionalBoolean(block, 'is_error', path),
    cacheControl: readCacheControl(block, path),
  });
}

/**
 * A `compaction` block (compaction beta): its `content` summary is the part's opaque data, unmodified, with its
 * verbatim members (`encrypted_content`, `signature`, `tool_changes`) as `providerFields` and its cache breakpoint. `content: null` marks a failed compaction, which the API treats as a no-op: it is left out.
 * https://platform.claude.com/docs/en/build-with-claude/compaction
 */
function readCompactionBlock(block: JsonRecord, path: string): ChatContentPartV2 | undefined {
  if (block.content === null) return undefined;
  const read = readAnthropicCompactionFields(block, undefined);
  if ('malformed' in read) throw invalid(`${path}.${read.malformed}`, 'is malformed');
  return compact({
    type: 'compaction' as const,
    data: requireNonEmptyString(block, 'content', path),
    providerFields: anthropicCompactionFieldsText(read.fields),
    cacheControl: readCacheControl(block, path),
  });
}

function readAssistantBlock(block: JsonRecord, path: string, toolNames: Map<string, string>): ChatContentPartV2 | undefined {
  switch (block.type) {
    case 'text':
      return readTextBlock(block, path);
    case 'tool_use': {
      const toolCallId = requireNonEmptyString(block, 'id', path);
      const toolName = requireNonEmptyString(block, 'name', path);
      if (!isRecord(block.input)) throw invalid(`${path}.input`, 'must be an object');
      toolNames.set(toolCallId, toolName);
      return compact({ type: 'tool-call' as const, toolCallId, toolName, argumentsText: JSON.stringify(block.input), cacheControl: readCacheControl(block, path) });
    }
    case 'thinking': {
      const signature = requireString(block, 'signature', path);
      return compact({ type: 'reasoning' as const, text: requireString(block, 'thinking', path), signature: signature.length === 0 ? undefined : signature });
    }
    case 'redacted_thinking':
      return { type: 'redacted-reasoning', data: requireNonEmptyString(block, 'data', path) };
    case 'compaction':
      return readCompactionBlock(block, path);
    default:
      throw unsupportedBlock(block, path);
  }
}

function unsupportedBlock(block: JsonRecord, path: string): Error {
  if (typeof block.type !== 'string') return invalid(`${path}.type`, 'must be a string');
  return unsupported(`${path}.type`, 'this content block');
}
