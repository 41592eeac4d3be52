import {
  type ChatContentPartV2,
  type ChatMessageV2,
  type MediaSourceV2,
  type ToolResultContentPartV2,
} from '@tokenforge/model-protocol';
import { invalidClientRequest, unsupportedClientFeature } from './client-readers.js';
import { isBase64 } from './is-base64.js';
import { deriveRequestToolCallId } from './tool-call-id.js';
import { isJsonObject } from './wire-readers.js';

/** Part keys of server-side tool and code execution traffic: history the task cannot carry. */
const UNSUPPORTED_PART_KEYS = ['executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse'] as const;

function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalidClientRequest('field is not a string', path);
  return value;
}

function optionalSignature(part: Record<string, unknown>, path: string): string | undefined {
  const signature = part.thoughtSignature;
  if (signature === undefined || signature === null) return undefined;
  const text = requireString(signature, `${path}.thoughtSignature`);
  return text.length === 0 ? undefined : text;
}

/** A pending function call of the history, for linking responses without id (by name, first unanswered first). */
interface PendingCall {
  readonly toolName: string;
  readonly toolCallId: string;
}

/**
 * Turns a client's `contents` into task messages, by these rules:
 * - a `user` turn (or one without role) becomes a `user` message (text, images, PDFs and text documents,
 *   audio; `fileData` needs an `https:` URI and a `mimeType`) and, for its `functionResponse` parts, `tool`
 *   messages, keeping the part order (consecutive parts of one kind share a message);
 * - a `model` turn becomes an `assistant` message: text; `thought: true` parts as reasoning with their
 *   signature; a signature on a visible text part as an empty reasoning part right after it (the reverse of
 *   the response decoder); `functionCall` parts as tool calls (arguments as `JSON.stringify` writes them,
 *   signature kept, id from `functionCall.id` or derived from the part position, see `deriveRequestToolCallId`);
 * - a `functionResponse` links to `functionResponse.id` when present, else to the first earlier unanswered
 *   call with the same name; a response that matches no call is refused. Its `response` becomes the result
 *   text: `{output: "..."}` gives that text, `{error: "..."}` that text as an error result, anything else the
 *   JSON text of the whole object; image `parts` become image content;
 * - media output, video, `gs:` URIs and code execution or server-side tool parts are refused as unsupported.
 *
 * @throws {CodecErrorV1}
 */
export function decodeClientContents(contents: unknown): ChatMessageV2[] {
  if (!Array.isArray(contents) || contents.length === 0) throw invalidClientRequest('contents must be a non-empty array', 'contents');
  const messages: ChatMessageV2[] = [];
  const pending: PendingCall[] = [];
  // The last message of the previous turn: each turn starts new messages, even after a turn of the same role.
  let boundary: ChatMessageV2 | undefined;
  const push = (role: ChatMessageV2['role'], part: ChatContentPartV2): void => {
    const last = messages[messages.length - 1];
    if (last !== undefined && last !== boundary && last.role === role) last.content.push(part);
    else messages.push({ role, content: [part] });
  };
  contents.forEach((content: unknown, contentIndex) => {
    const path = `contents.${contentIndex}`;
    if (!isJsonObject(content)) throw invalidClientRequest('content is not an object', path);
    const role = content.role ?? 'user';
    if (role !== 'user' && role !== 'model') throw invalidClientRequest('content role must be user or model', `${path}.role`);
    if (!Array.isArray(content.parts) || content.parts.length === 0) throw invalidClientRequest('content needs at least one part', `${path}.parts`);
    boundary = messages[messages.length - 1];
    content.parts.forEach((part: unknown, partIndex) => {
      const partPath = `${path}.parts.${partIndex}`;
      if (!isJsonObject(part)) throw invalidClientRequest('part is not an object', partPath);
      for (const key of UNSUPPORTED_PART_KEYS) {
        if (part[key] !== undefined) throw unsupportedClientFeature('part kind is not supported', `${partPath}.${key}`);
      }
      if (role === 'model') {
        for (const decoded of decodeModelPart(part, partPath, contentIndex, partIndex, pending)) push('assistant', decoded);
      } else if (part.functionResponse !== undefined) {
        push('tool', decodeFunctionResponse(part.functionResponse, `${partPath}.functionResponse`, pending));
      } else {
        push('user', decodeUserPart(part, partPath));
      }
    });
  });
  return messages;
}

function decodeUserPart(part: Record<string, unknown>, path: string): ChatContentPartV2 {
  if (part.thought === true) throw invalidClientRequest('a user turn cannot hold thoughts', `${path}.thought`);
  if (typeof part.text === 'string') return { type: 'text', text: part.text };
  if (part.inlineData !== undefined || part.fileData !== undefined) {
    const media = decodeMedia(part, path);
    if (media.kind === 'image') return { type: 'image', source: media.source };
    if (media.kind === 'document') return { type: 'document', source: media.source };
    return { type: 'audio', source: media.source };
  }
  if (part.functionCall !== undefined) throw invalidClientRequest('a user turn cannot hold a functionCall', `${path}.functionCall`);
  throw invalidClientRequest('part has no known data key', path);
}

function decodeModelPart(
  part: Record<string, unknown>,
  path: string,
  contentIndex: number,
  partIndex: number,
  pending: PendingCall[],
): ChatContentPartV2[] {
  const signature = optionalSignature(part, path);
  if (part.functionCall !== undefined) {
    const call = part.functionCall;
    if (!isJsonObject(call)) throw invalidClientRequest('functionCall is not an object', `${path}.functionCall`);
    const toolName = requireString(call.name, `${path}.functionCall.name`);
    const id = call.id === undefined || call.id === null ? undefined : requireString(call.id, `${path}.functionCall.id`);
    const args = call.args ?? {};
    if (!isJsonObject(args)) throw invalidClientRequest('functionCall.args is not an object', `${path}.functionCall.args`);
    const toolCallId = id !== undefined && id.length > 0 ? id : deriveRequestToolCallId(contentIndex, partIndex);
    pending.push({ toolName, toolCallId });
    return [{ type: 'tool-call', toolCallId, toolName, argumentsText: JSON.stringify(args), ...(signature === undefined ? {} : { signature }) }];
  }
  if (part.inlineData !== undefined || part.fileData !== undefined) throw unsupportedClientFeature('media in a model turn is not supported', path);
  if (part.functionResponse !== undefined) throw invalidClientRequest('a model turn cannot hold a functionResponse', `${path}.functionResponse`);
  if (part.text !== undefined || signature !== undefined || part.thought === true) {
    const text = part.text === undefined ? '' : requireString(part.text, `${path}.text`);
    if (part.thought === true) return [{ type: 'reasoning', text, ...(signature === undefined ? {} : { signature }) }];
    const parts: ChatContentPartV2[] = [];
    if (text.length > 0 || signature === undefined) parts.push({ type: 'text', text });
    if (signature !== undefined) parts.push({ type: 'reasoning', text: '', signature });
    return parts;
  }
  throw invalidClientRequest('part has no known data key', path);
}

function decodeFunctionResponse(value: unknown, path: string, pending: PendingCall[]): ChatContentPartV2 {
  if (!isJsonObject(value)) throw invalidClientRequest('functionResponse is not an object', path);
  const toolName = requireString(value.name, `${path}.name`);
  const id = value.id === undefined || value.id === null ? undefined : requireString(value.id, `${path}.id`);
  let toolCallId: string;
  const matchIndex = pending.findIndex((call) => (id !== undefined && id.length > 0 ? call.toolCallId === id : call.toolName === toolName));
  if (matchIndex >= 0) {
    toolCallId = (pending[matchIndex] as PendingCall).toolCallId;
    pending.splice(matchIndex, 1);
  } else if (id !== undefined && id.length > 0) {
    toolCallId = id;
  } else {
    throw invalidClientRequest('functionResponse matches no earlier functionCall', path);
  }
  const response = value.response ?? {};
  if (!isJsonObject(response)) throw invalidClientRequest('functionResponse.response is not an object', `${path}.response`);
  const keys = Object.keys(response);
  let text: string;
  let isError = false;
  if (keys.length === 1 && typeof response.output === 'string') text = response.output;
  else if (keys.length === 1 && typeof response.error === 'string') {
    text = response.error;
    isError = true;
  } else text = JSON.stringify(response);
  const content: ToolResultContentPartV2[] = [{ type: 'text', text }];
  if (value.parts !== undefined) {
    if (!Array.isArray(value.parts)) throw invalidClientRequest('functionResponse.parts is not an array', `${path}.parts`);
    value.parts.forEach((part: unknown, index) => {
      const partPath = `${path}.parts.${index}`;
      if (!isJsonObject(part)) throw invalidClientRequest('part is not an object', partPath);
      const media = decodeMedia(part, partPath);
      if (media.kind !== 'image') throw unsupportedClientFeature('only images are supported in function responses', partPath);
      content.push({ type: 'image', source: media.source });
    });
  }
  return { type: 'tool-result', toolCallId, toolName, content, ...(isError ? { isError } : {}) };
}

interface DecodedMedia {
  readonly kind: 'image' | 'document' | 'audio';
  readonly source: MediaSourceV2;
}

function mediaKind(mimeType: string, path: string): DecodedMedia['kind'] {
  const type = mimeType.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf' || type.startsWith('text/')) return 'document';
  throw unsupportedClientFeature('media type is not supported', path);
}

function decodeMedia(part: Record<string, unknown>, path: string): DecodedMedia {
  if (part.inlineData !== undefined) {
    const inline = part.inlineData;
    if (!isJsonObject(inline)) throw invalidClientRequest('inlineData is not an object', `${path}.inlineData`);
    const mimeType = requireString(inline.mimeType, `${path}.inlineData.mimeType`);
    const data = requireString(inline.data, `${path}.inlineData.data`);
    if (mimeType.length < 3 || mimeType.length > 255) throw invalidClientRequest('inlineData.mimeType is not a media type', `${path}.inlineData.mimeType`);
    if (!isBase64(data)) throw invalidClientRequest('inlineData.data is not base64', `${path}.inlineData.data`);
    return { kind: mediaKind(mimeType, `${path}.inlineData.mimeType`), source: { type: 'base64', mediaType: mimeType, data } };
  }
  const file = part.fileData;
  if (!isJsonObject(file)) throw invalidClientRequest('fileData is not an object', `${path}.fileData`);
  const uri = requireString(file.fileUri, `${path}.fileData.fileUri`);
  if (file.mimeType === undefined) throw invalidClientRequest('fileData needs a mimeType', `${path}.fileData.mimeType`);
  const mimeType = requireString(file.mimeType, `${path}.fileData.mimeType`);
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    throw invalidClientRequest('fileData.fileUri is not an absolute URI', `${path}.fileData.fileUri`);
  }
  if (parsed.protocol !== 'https:') throw unsupportedClientFeature('only https file URIs are supported', `${path}.fileData.fileUri`);
  if (parsed.username !== '' || parsed.password !== '') throw invalidClientRequest('fileData.fileUri carries user info', `${path}.fileData.fileUri`);
  return { kind: mediaKind(mimeType, `${path}.fileData.mimeType`), source: { type: 'url', url: uri } };
}
