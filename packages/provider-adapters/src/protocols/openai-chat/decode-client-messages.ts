import type { ChatContentPartV2, ChatMessageV2, MediaSourceV2, TextPartV2 } from '@tokenforge/model-protocol';
import {
  invalidClientField,
  isClientObject,
  isUnset,
  optionalClientArray,
  optionalClientObject,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
  type ClientJsonObject,
} from '../openai-common/client-json.js';
import { parseBase64DataUrl } from '../openai-common/data-url.js';
import { readClientCacheControl } from './decode-client-cache-control.js';

/** The system instructions and conversation of a client request. */
export interface DecodedClientMessages {
  readonly system: TextPartV2[];
  readonly messages: ChatMessageV2[];
}

/** A text part with its `cache_control` breakpoint, if any. */
function cachedText(part: ClientJsonObject, path: string): TextPartV2 {
  const cacheControl = readClientCacheControl(part, path);
  return { type: 'text', text: requiredClientString(part, 'text', path), ...(cacheControl === undefined ? {} : { cacheControl }) };
}

function textParts(content: unknown, path: string, allowRefusal: boolean): TextPartV2[] {
  if (typeof content === 'string') return content.length === 0 ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidClientField(path, 'must be a string or an array of parts');
  return content.map((part, index) => {
    const partPath = `${path}.${index}`;
    if (!isClientObject(part)) throw invalidClientField(partPath, 'must be an object');
    if (part.type === 'text') return cachedText(part, `${partPath}.`);
    if (allowRefusal && part.type === 'refusal') return { type: 'text', text: requiredClientString(part, 'refusal', `${partPath}.`) };
    throw invalidClientField(`${partPath}.type`, 'is not allowed here');
  });
}

function mediaSource(url: string, path: string): MediaSourceV2 {
  const inline = parseBase64DataUrl(url);
  if (inline !== undefined) return { type: 'base64', mediaType: inline.mediaType, data: inline.data };
  if (!url.startsWith('https://')) throw invalidClientField(path, 'must be an https or base64 data URL');
  return { type: 'url', url };
}

const AUDIO_MEDIA_TYPES: Readonly<Record<string, string>> = { wav: 'audio/wav', mp3: 'audio/mpeg' };

function userPart(part: unknown, path: string): ChatContentPartV2 {
  if (!isClientObject(part)) throw invalidClientField(path, 'must be an object');
  switch (part.type) {
    case 'text':
      return cachedText(part, `${path}.`);
    case 'image_url': {
      const image = optionalClientObject(part, 'image_url', `${path}.`);
      if (image === undefined) throw invalidClientField(`${path}.image_url`, 'is required');
      const url = requiredClientString(image, 'url', `${path}.image_url.`);
      const detail = optionalClientString(image, 'detail', `${path}.image_url.`);
      if (detail !== undefined && detail !== 'low' && detail !== 'high' && detail !== 'auto') {
        throw invalidClientField(`${path}.image_url.detail`, 'must be low, high or auto');
      }
      return { type: 'image', source: mediaSource(url, `${path}.image_url.url`), ...(detail === undefined ? {} : { detail }) };
    }
    case 'input_audio': {
      const audio = optionalClientObject(part, 'input_audio', `${path}.`);
      if (audio === undefined) throw invalidClientField(`${path}.input_audio`, 'is required');
      const data = requiredClientString(audio, 'data', `${path}.input_audio.`);
      const format = requiredClientString(audio, 'format', `${path}.input_audio.`);
      const mediaType = AUDIO_MEDIA_TYPES[format];
      if (mediaType === undefined) throw unsupportedClientField(`${path}.input_audio.format`, 'must be wav or mp3');
      if (data.length === 0) throw invalidClientField(`${path}.input_audio.data`, 'must not be empty');
      return { type: 'audio', source: { type: 'base64', mediaType, data } };
    }
    case 'file': {
      const file = optionalClientObject(part, 'file', `${path}.`);
      if (file === undefined) throw invalidClientField(`${path}.file`, 'is required');
      if (!isUnset(file.file_id)) throw unsupportedClientField(`${path}.file.file_id`, 'uploaded file references are not supported');
      const fileData = requiredClientString(file, 'file_data', `${path}.file.`);
      const filename = optionalClientString(file, 'filename', `${path}.file.`);
      const inline = parseBase64DataUrl(fileData);
      if (fileData.length === 0) throw invalidClientField(`${path}.file.file_data`, 'must not be empty');
      return {
        type: 'document',
        source: inline === undefined ? { type: 'base64', mediaType: 'application/pdf', data: fileData } : { type: 'base64', ...inline },
        ...(filename === undefined || filename.length === 0 ? {} : { title: filename }),
      };
    }
    default:
      throw unsupportedClientField(`${path}.type`, 'is not a supported content part');
  }
}

function userMessage(message: ClientJsonObject, path: string): ChatMessageV2 {
  const content = message.content;
  const parts = typeof content === 'string' ? [{ type: 'text', text: content } as const] : Array.isArray(content) ? content.map((part, index) => userPart(part, `${path}.content.${index}`)) : undefined;
  if (parts === undefined) throw invalidClientField(`${path}.content`, 'must be a string or an array of parts');
  if (parts.length === 0) throw invalidClientField(`${path}.content`, 'must not be empty');
  return { role: 'user', content: parts };
}

function assistantMessage(message: ClientJsonObject, path: string, toolNames: Map<string, string>): ChatMessageV2 {
  if (!isUnset(message.function_call)) throw unsupportedClientField(`${path}.function_call`, 'legacy function calls are not supported; use tool_calls');
  if (!isUnset(message.audio)) throw unsupportedClientField(`${path}.audio`, 'assistant audio references are not supported');
  const parts: ChatContentPartV2[] = [];
  const reasoning = optionalClientString(message, 'reasoning_content', `${path}.`);
  if (reasoning !== undefined && reasoning.length > 0) parts.push({ type: 'reasoning', text: reasoning });
  if (!isUnset(message.content)) parts.push(...textParts(message.content, `${path}.content`, true));
  const refusal = optionalClientString(message, 'refusal', `${path}.`);
  if (refusal !== undefined && refusal.length > 0) parts.push({ type: 'text', text: refusal });
  const toolCalls = optionalClientArray(message, 'tool_calls', `${path}.`) ?? [];
  toolCalls.forEach((call, index) => {
    const callPath = `${path}.tool_calls.${index}`;
    if (!isClientObject(call)) throw invalidClientField(callPath, 'must be an object');
    if (call.type !== undefined && call.type !== 'function') throw unsupportedClientField(`${callPath}.type`, 'only function tool calls are supported');
    const fn = optionalClientObject(call, 'function', `${callPath}.`);
    if (fn === undefined) throw invalidClientField(`${callPath}.function`, 'is required');
    const toolCallId = requiredClientString(call, 'id', `${callPath}.`);
    const toolName = requiredClientString(fn, 'name', `${callPath}.function.`);
    toolNames.set(toolCallId, toolName);
    const extra = optionalClientObject(call, 'extra_content', `${callPath}.`);
    const google = extra === undefined ? undefined : optionalClientObject(extra, 'google', `${callPath}.extra_content.`);
    const signature = google === undefined ? undefined : optionalClientString(google, 'thought_signature', `${callPath}.extra_content.google.`);
    parts.push({
      type: 'tool-call',
      toolCallId,
      toolName,
      argumentsText: optionalClientString(fn, 'arguments', `${callPath}.function.`) ?? '',
      ...(signature === undefined || signature.length === 0 ? {} : { signature }),
    });
  });
  if (parts.length === 0) parts.push({ type: 'text', text: '' });
  return { role: 'assistant', content: parts };
}

/**
 * Decodes `messages` of a Chat Completions request.
 *
 * Rules: leading `system` / `developer` messages become the task's system text (a system message after the
 * conversation started cannot keep its position in a task and is refused as unsupported); `name` fields are
 * ignored; a user string is one text part, user arrays take `text` (with a router-style `cache_control` breakpoint,
 * also on system and tool-result text parts), `image_url` (https or base64 data URLs,
 * with `detail`), `input_audio` (wav, mp3) and `file` (inline `file_data`, PDF unless its data URL says otherwise;
 * `file_id` is refused); an assistant message keeps `reasoning_content` (as a reasoning part, first), its text,
 * `refusal` text (as text: the task has no refusal input part), and `tool_calls` (with Gemini's
 * `extra_content.google.thought_signature` as the call signature); consecutive `tool` messages
 * become one tool message whose results take the tool name of the call they answer. Legacy `function` messages
 * and `function_call` are refused as unsupported.
 */
export function decodeOpenAiChatClientMessages(value: readonly unknown[]): DecodedClientMessages {
  const system: TextPartV2[] = [];
  const messages: ChatMessageV2[] = [];
  const toolNames = new Map<string, string>();
  value.forEach((message, index) => {
    const path = `messages.${index}`;
    if (!isClientObject(message)) throw invalidClientField(path, 'must be an object');
    switch (message.role) {
      case 'system':
      case 'developer':
        if (messages.length > 0) throw unsupportedClientField(`${path}.role`, 'system messages after the conversation started are not supported');
        system.push(...textParts(message.content, `${path}.content`, false));
        return;
      case 'user':
        messages.push(userMessage(message, path));
        return;
      case 'assistant':
        messages.push(assistantMessage(message, path, toolNames));
        return;
      case 'tool': {
        const toolCallId = requiredClientString(message, 'tool_call_id', `${path}.`);
        const toolName = toolNames.get(toolCallId);
        if (toolName === undefined) throw invalidClientField(`${path}.tool_call_id`, 'answers no earlier tool call');
        const result: ChatContentPartV2 = { type: 'tool-result', toolCallId, toolName, content: isUnset(message.content) ? [] : textParts(message.content, `${path}.content`, false) };
        const previous = messages.at(-1);
        if (previous !== undefined && previous.role === 'tool') previous.content.push(result);
        else messages.push({ role: 'tool', content: [result] });
        return;
      }
      case 'function':
        throw unsupportedClientField(`${path}.role`, 'legacy function messages are not supported; use tool messages');
      default:
        throw invalidClientField(`${path}.role`, 'must be system, developer, user, assistant or tool');
    }
  });
  return { system, messages };
}
