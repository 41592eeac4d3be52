import type { ChatContentPartV4 as ChatContentPartV2, ChatMessageV4 as ChatMessageV2, MediaSourceV2, TextPartV2, ToolResultContentPartV2 } from '@tokenforge/model-protocol';
import {
  invalidClientField,
  isClientObject,
  isUnset,
  optionalClientArray,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
  type ClientJsonObject,
} from '../openai-common/client-json.js';
import { parseBase64DataUrl } from '../openai-common/data-url.js';
import { OPENAI_RESPONSES_FREEFORM_INPUT_PROPERTY } from './decode-client-tools.js';
import { OPENAI_RESPONSES_REASONING_PART_SEPARATOR } from './reasoning-text.js';

/** The system instructions (from `input` system/developer messages) and conversation of a client request. */
export interface DecodedClientInput {
  readonly system: TextPartV2[];
  readonly messages: ChatMessageV2[];
  /** The tool lists of `additional_tools` items, with their JSON paths. */
  readonly additionalTools: { readonly tools: readonly unknown[]; readonly path: string }[];
}

function mediaSource(url: string, path: string): MediaSourceV2 {
  const inline = parseBase64DataUrl(url);
  if (inline !== undefined) return { type: 'base64', mediaType: inline.mediaType, data: inline.data };
  if (!url.startsWith('https://')) throw invalidClientField(path, 'must be an https or base64 data URL');
  return { type: 'url', url };
}

function imagePart(part: ClientJsonObject, path: string): ChatContentPartV2 & { type: 'image' } {
  if (!isUnset(part.file_id)) throw unsupportedClientField(`${path}.file_id`, 'uploaded file references are not supported');
  const url = requiredClientString(part, 'image_url', `${path}.`);
  const detail = optionalClientString(part, 'detail', `${path}.`);
  if (detail === 'original') throw unsupportedClientField(`${path}.detail`, 'original detail has no task equivalent');
  if (detail !== undefined && detail !== 'low' && detail !== 'high' && detail !== 'auto') throw invalidClientField(`${path}.detail`, 'must be low, high or auto');
  return { type: 'image', source: mediaSource(url, `${path}.image_url`), ...(detail === undefined ? {} : { detail }) };
}

function filePart(part: ClientJsonObject, path: string): ChatContentPartV2 {
  if (!isUnset(part.file_id)) throw unsupportedClientField(`${path}.file_id`, 'uploaded file references are not supported');
  const filename = optionalClientString(part, 'filename', `${path}.`);
  const title = filename === undefined || filename.length === 0 ? {} : { title: filename };
  const fileUrl = optionalClientString(part, 'file_url', `${path}.`);
  if (fileUrl !== undefined) return { type: 'document', source: mediaSource(fileUrl, `${path}.file_url`), ...title };
  const fileData = requiredClientString(part, 'file_data', `${path}.`);
  if (fileData.length === 0) throw invalidClientField(`${path}.file_data`, 'must not be empty');
  const inline = parseBase64DataUrl(fileData);
  return {
    type: 'document',
    source: inline === undefined ? { type: 'base64', mediaType: 'application/pdf', data: fileData } : { type: 'base64', ...inline },
    ...title,
  };
}

function userParts(content: unknown, path: string): ChatContentPartV2[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidClientField(path, 'must be a string or an array of parts');
  return content.map((part, index) => {
    const partPath = `${path}.${index}`;
    if (!isClientObject(part)) throw invalidClientField(partPath, 'must be an object');
    switch (part.type) {
      case 'input_text':
        return { type: 'text', text: requiredClientString(part, 'text', `${partPath}.`) };
      case 'input_image':
        return imagePart(part, partPath);
      case 'input_file':
        return filePart(part, partPath);
      default:
        throw unsupportedClientField(`${partPath}.type`, 'is not a supported input part');
    }
  });
}

function textParts(content: unknown, path: string): TextPartV2[] {
  if (typeof content === 'string') return content.length === 0 ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidClientField(path, 'must be a string or an array of parts');
  return content.map((part, index) => {
    const partPath = `${path}.${index}`;
    if (!isClientObject(part)) throw invalidClientField(partPath, 'must be an object');
    if (part.type === 'input_text' || part.type === 'output_text') return { type: 'text', text: requiredClientString(part, 'text', `${partPath}.`) };
    // The task has no refusal input part: an earlier refusal is replayed as the text it was.
    if (part.type === 'refusal') return { type: 'text', text: requiredClientString(part, 'refusal', `${partPath}.`) };
    throw invalidClientField(`${partPath}.type`, 'is not allowed here');
  });
}

function toolOutput(output: unknown, path: string): ToolResultContentPartV2[] {
  if (typeof output === 'string') return output.length === 0 ? [] : [{ type: 'text', text: output }];
  if (!Array.isArray(output)) throw invalidClientField(path, 'must be a string or an array of parts');
  return output.map((part, index) => {
    const partPath = `${path}.${index}`;
    if (!isClientObject(part)) throw invalidClientField(partPath, 'must be an object');
    if (part.type === 'input_text') return { type: 'text', text: requiredClientString(part, 'text', `${partPath}.`) };
    if (part.type === 'input_image') return imagePart(part, partPath);
    throw unsupportedClientField(`${partPath}.type`, 'only text and images are supported in tool outputs');
  });
}

function summaryText(item: ClientJsonObject, path: string): string {
  const texts: string[] = [];
  for (const key of ['summary', 'content'] as const) {
    (optionalClientArray(item, key, `${path}.`) ?? []).forEach((entry, index) => {
      if (!isClientObject(entry)) throw invalidClientField(`${path}.${key}.${index}`, 'must be an object');
      texts.push(requiredClientString(entry, 'text', `${path}.${key}.${index}.`));
    });
  }
  return texts.join(OPENAI_RESPONSES_REASONING_PART_SEPARATOR);
}

/** The item ids the task carries (a V4 stored item id). */
const STORED_ITEM_ID = /^[\x21-\x7E]{1,512}$/;

/** Items that only make sense with conversation state kept by the server, or with tools this codec refuses. */
const STATEFUL_OR_UNSUPPORTED_ITEMS = 'is not supported (server-side state or a tool other than function)';

/**
 * Decodes `input` items of a Responses request (§2.3 of the chat wire fact sheet).
 *
 * Rules: `system` / `developer` messages before the conversation become system text (later ones cannot keep their
 * position in a task and are refused as unsupported); a user message keeps `input_text`, `input_image` (https or
 * base64 data URLs, `detail` low/high/auto) and `input_file` (`file_data`, PDF unless its data URL says otherwise,
 * or `file_url`) parts, while `file_id` references and other parts are refused; assistant messages (`output_text`,
 * refusals as text, `input_text`), `function_call` and `reasoning` items that follow each other form one assistant
 * message; a `reasoning` item's `encrypted_content` is the part's signature (summary and reasoning texts joined
 * by a blank line are its text); a `reasoning` item without it refers to reasoning the server stored and keeps its
 * `id` as the part's `storedItemId` (an item with neither is refused); a `compaction` item is a compaction part
 * (`encrypted_content` its data, with its `id`), both replayed unmodified to a Responses target only;
 * consecutive `function_call_output` items form one tool message whose results take the name of the call they
 * answer. `custom_tool_call` items are tool calls whose `input` text becomes the one `input` property of the
 * arguments (see `decodeOpenAiResponsesClientTools`), and `custom_tool_call_output` items tool results like
 * function call outputs. `additional_tools` items carry more tools (read with the request's `tools`); they hold
 * no conversation. `item_reference`, `phase` and item ids are server-state conveniences: references are refused,
 * phases and other ids ignored. Any other item type is refused as unsupported.
 */
export function decodeOpenAiResponsesClientInput(value: readonly unknown[]): DecodedClientInput {
  const system: TextPartV2[] = [];
  const messages: ChatMessageV2[] = [];
  const toolNames = new Map<string, string>();
  const additionalTools: { readonly tools: readonly unknown[]; readonly path: string }[] = [];

  function pushToolResult(result: ChatContentPartV2): void {
    const last = messages.at(-1);
    if (last !== undefined && last.role === 'tool') last.content.push(result);
    else messages.push({ role: 'tool', content: [result] });
  }

  function assistantParts(): ChatContentPartV2[] {
    const last = messages.at(-1);
    if (last !== undefined && last.role === 'assistant') return last.content;
    const message: ChatMessageV2 = { role: 'assistant', content: [] };
    messages.push(message);
    return message.content;
  }

  value.forEach((item, index) => {
    const path = `input.${index}`;
    if (!isClientObject(item)) throw invalidClientField(path, 'must be an object');
    const type = item.type ?? 'message';
    switch (type) {
      case 'message':
        switch (item.role) {
          case 'system':
          case 'developer':
            if (messages.length > 0) throw unsupportedClientField(`${path}.role`, 'system messages after the conversation started are not supported');
            system.push(...textParts(item.content, `${path}.content`));
            return;
          case 'user': {
            const content = userParts(item.content, `${path}.content`);
            if (content.length === 0) throw invalidClientField(`${path}.content`, 'must not be empty');
            messages.push({ role: 'user', content });
            return;
          }
          case 'assistant': {
            const parts = textParts(item.content, `${path}.content`);
            assistantParts().push(...(parts.length === 0 ? [{ type: 'text', text: '' } as const] : parts));
            return;
          }
          default:
            throw invalidClientField(`${path}.role`, 'must be system, developer, user or assistant');
        }
      case 'function_call': {
        const toolCallId = requiredClientString(item, 'call_id', `${path}.`);
        const toolName = requiredClientString(item, 'name', `${path}.`);
        toolNames.set(toolCallId, toolName);
        assistantParts().push({ type: 'tool-call', toolCallId, toolName, argumentsText: requiredClientString(item, 'arguments', `${path}.`) });
        return;
      }
      case 'reasoning': {
        const signature = optionalClientString(item, 'encrypted_content', `${path}.`);
        if (signature !== undefined && signature.length > 0) {
          assistantParts().push({ type: 'reasoning', text: summaryText(item, path), signature });
          return;
        }
        // Without encrypted content the item refers to reasoning the provider stored: its id is what replays it.
        const storedItemId = optionalClientString(item, 'id', `${path}.`);
        if (storedItemId === undefined || storedItemId.length === 0) {
          throw unsupportedClientField(`${path}.encrypted_content`, 'is required when the reasoning item has no id');
        }
        if (!STORED_ITEM_ID.test(storedItemId)) throw invalidClientField(`${path}.id`, 'must be 1 to 512 printable characters without spaces');
        assistantParts().push({ type: 'reasoning', text: summaryText(item, path), storedItemId });
        return;
      }
      case 'compaction': {
        const data = requiredClientString(item, 'encrypted_content', `${path}.`);
        if (data.length === 0) throw invalidClientField(`${path}.encrypted_content`, 'must not be empty');
        const id = optionalClientString(item, 'id', `${path}.`);
        if (id !== undefined && !STORED_ITEM_ID.test(id)) throw invalidClientField(`${path}.id`, 'must be 1 to 512 printable characters without spaces');
        assistantParts().push({ type: 'compaction', data, ...(id === undefined ? {} : { id }) });
        return;
      }
      case 'function_call_output': {
        const toolCallId = requiredClientString(item, 'call_id', `${path}.`);
        const toolName = toolNames.get(toolCallId);
        if (toolName === undefined) throw invalidClientField(`${path}.call_id`, 'answers no earlier function call');
        pushToolResult({ type: 'tool-result', toolCallId, toolName, content: toolOutput(item.output, `${path}.output`) });
        return;
      }
      case 'custom_tool_call': {
        const toolCallId = requiredClientString(item, 'call_id', `${path}.`);
        const toolName = requiredClientString(item, 'name', `${path}.`);
        toolNames.set(toolCallId, toolName);
        const argumentsText = JSON.stringify({ [OPENAI_RESPONSES_FREEFORM_INPUT_PROPERTY]: requiredClientString(item, 'input', `${path}.`) });
        assistantParts().push({ type: 'tool-call', toolCallId, toolName, argumentsText });
        return;
      }
      case 'custom_tool_call_output': {
        const toolCallId = requiredClientString(item, 'call_id', `${path}.`);
        const toolName = toolNames.get(toolCallId);
        if (toolName === undefined) throw invalidClientField(`${path}.call_id`, 'answers no earlier custom tool call');
        pushToolResult({ type: 'tool-result', toolCallId, toolName, content: toolOutput(item.output, `${path}.output`) });
        return;
      }
      case 'additional_tools':
        additionalTools.push({ tools: optionalClientArray(item, 'tools', `${path}.`) ?? [], path: `${path}.tools` });
        return;
      default:
        if (typeof type !== 'string') throw invalidClientField(`${path}.type`, 'must be a string');
        throw unsupportedClientField(`${path}.type`, STATEFUL_OR_UNSUPPORTED_ITEMS);
    }
  });
  return { system, messages, additionalTools };
}
