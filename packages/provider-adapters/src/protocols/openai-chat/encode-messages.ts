import {
  CodecErrorV1,
  type AudioPartV2,
  type ChatMessageV4 as ChatMessageV2,
  type DocumentPartV2,
  type ImagePartV2,
  type TextPartV2,
  type ToolResultPartV2,
} from '@tokenforge/model-protocol';
import { formatBase64DataUrl, parseBase64DataUrl } from '../openai-common/data-url.js';
import type { ResolvedOpenAiChatProtocolOptionsV1 } from './protocol-options.js';

/** A content part of a request message. */
export type OpenAiChatRequestContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image_url'; readonly image_url: { readonly url: string; readonly detail?: 'low' | 'high' | 'auto' } }
  | { readonly type: 'input_audio'; readonly input_audio: { readonly data: string; readonly format: 'wav' | 'mp3' } }
  | { readonly type: 'file'; readonly file: { readonly file_data: string; readonly filename: string } };

/** A tool call in an assistant history message. */
export interface OpenAiChatRequestToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
  /** Only with the `toolCallSignatures: 'google-extra-content'` option. */
  readonly extra_content?: { readonly google: { readonly thought_signature: string } };
}

/** A request message. */
export type OpenAiChatRequestMessage =
  | { readonly role: 'system' | 'developer'; readonly content: string | readonly OpenAiChatRequestContentPart[] }
  | { readonly role: 'user'; readonly content: string | readonly OpenAiChatRequestContentPart[] }
  | {
      readonly role: 'assistant';
      readonly content: string | readonly OpenAiChatRequestContentPart[] | null;
      readonly tool_calls?: readonly OpenAiChatRequestToolCall[];
      readonly reasoning_content?: string;
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string | readonly OpenAiChatRequestContentPart[] };

function unsupported(message: string, path: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', `openai-chat ${message}`, { path });
}

/** One text part is sent as a plain string (the form every compatible server accepts); more as an array. */
function textContent(parts: readonly TextPartV2[]): string | readonly OpenAiChatRequestContentPart[] {
  if (parts.length === 1) return (parts[0] as TextPartV2).text;
  return parts.map((part) => ({ type: 'text', text: part.text }));
}

function mediaUrl(part: ImagePartV2): string {
  return part.source.type === 'url' ? part.source.url : formatBase64DataUrl(part.source.mediaType, part.source.data);
}

function encodeImage(part: ImagePartV2): OpenAiChatRequestContentPart {
  return {
    type: 'image_url',
    image_url: { url: mediaUrl(part), ...(part.detail === undefined ? {} : { detail: part.detail }) },
  };
}

const AUDIO_FORMATS: ReadonlyMap<string, 'wav' | 'mp3'> = new Map([
  ['audio/wav', 'wav'],
  ['audio/wave', 'wav'],
  ['audio/x-wav', 'wav'],
  ['audio/vnd.wave', 'wav'],
  ['audio/mpeg', 'mp3'],
  ['audio/mp3', 'mp3'],
]);

/** `input_audio` takes inline base64 WAV or MP3 only: a URL (other than a `data:` URL) or another format is refused. */
function encodeAudio(part: AudioPartV2, path: string): OpenAiChatRequestContentPart {
  const inline =
    part.source.type === 'base64' ? { mediaType: part.source.mediaType.toLowerCase(), data: part.source.data } : parseBase64DataUrl(part.source.url);
  if (inline === undefined) throw unsupported('audio input must be inline base64', path);
  const format = AUDIO_FORMATS.get(inline.mediaType);
  if (format === undefined) throw unsupported('audio input must be WAV or MP3', path);
  return { type: 'input_audio', input_audio: { data: inline.data, format } };
}

/**
 * `file` parts carry inline PDF data (`file_data` as a data URL). A document URL (other than a `data:` URL) and
 * non-PDF documents are refused. The file name is the part's title, else `document-<n>.pdf`.
 */
function encodeDocument(part: DocumentPartV2, path: string, ordinal: number): OpenAiChatRequestContentPart {
  const inline =
    part.source.type === 'base64' ? { mediaType: part.source.mediaType.toLowerCase(), data: part.source.data } : parseBase64DataUrl(part.source.url);
  if (inline === undefined) throw unsupported('documents must be inline base64', path);
  if (inline.mediaType !== 'application/pdf') throw unsupported('documents must be PDF', path);
  return {
    type: 'file',
    file: { file_data: formatBase64DataUrl('application/pdf', inline.data), filename: part.title ?? `document-${ordinal}.pdf` },
  };
}

function encodeUser(message: ChatMessageV2, path: string, documents: { count: number }): OpenAiChatRequestMessage {
  if (message.content.every((part) => part.type === 'text')) {
    return { role: 'user', content: textContent(message.content as TextPartV2[]) };
  }
  const content = message.content.map((part, index): OpenAiChatRequestContentPart => {
    const partPath = `${path}.content.${index}`;
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return encodeImage(part);
      case 'audio':
        return encodeAudio(part, partPath);
      case 'document':
        documents.count += 1;
        return encodeDocument(part, partPath, documents.count);
      case 'tool-call':
      case 'tool-result':
      case 'reasoning':
      case 'redacted-reasoning':
      case 'compaction':
        throw new CodecErrorV1('invalid-request', `a user message cannot hold a ${part.type} part`, { path: partPath });
      default: {
        const unknownPart: never = part;
        throw new CodecErrorV1('invalid-request', `unknown part ${String(unknownPart)}`, { path: partPath });
      }
    }
  });
  return { role: 'user', content };
}

/** `undefined` when the message held only reasoning this dialect drops: it then has nothing to send. */
function encodeAssistant(
  message: ChatMessageV2,
  path: string,
  options: ResolvedOpenAiChatProtocolOptionsV1,
): OpenAiChatRequestMessage | undefined {
  const texts: TextPartV2[] = [];
  const toolCalls: OpenAiChatRequestToolCall[] = [];
  const reasoning: string[] = [];
  message.content.forEach((part, index) => {
    switch (part.type) {
      case 'text':
        texts.push(part);
        return;
      case 'tool-call':
        toolCalls.push({
          id: part.toolCallId,
          type: 'function',
          function: { name: part.toolName, arguments: part.argumentsText },
          ...(part.signature !== undefined && options.toolCallSignatures === 'google-extra-content'
            ? { extra_content: { google: { thought_signature: part.signature } } }
            : {}),
        });
        return;
      case 'reasoning':
        if (options.reasoningReplay === 'reasoning-content' && part.text.length > 0) reasoning.push(part.text);
        return;
      case 'redacted-reasoning':
      // Another family's compaction: chat completions has no carrier for it.
      case 'compaction':
        return;
      case 'image':
      case 'document':
      case 'audio':
      case 'tool-result':
        throw new CodecErrorV1('invalid-request', `an assistant message cannot hold a ${part.type} part`, {
          path: `${path}.content.${index}`,
        });
      default: {
        const unknownPart: never = part;
        throw new CodecErrorV1('invalid-request', `unknown part ${String(unknownPart)}`, { path: `${path}.content.${index}` });
      }
    }
  });
  if (texts.length === 0 && toolCalls.length === 0 && reasoning.length === 0) return undefined;
  return {
    role: 'assistant',
    content: texts.length === 0 ? (toolCalls.length > 0 ? null : '') : textContent(texts),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    ...(reasoning.length === 0 ? {} : { reasoning_content: reasoning.join('\n\n') }),
  };
}

/**
 * Each tool result becomes its own `tool` message. Tool messages take text only, so an image in a result is
 * refused. `isError` has no wire field: the result text is expected to describe the failure, and is sent as is.
 */
function encodeToolResult(part: ToolResultPartV2, path: string): OpenAiChatRequestMessage {
  const texts: TextPartV2[] = [];
  part.content.forEach((item, index) => {
    if (item.type !== 'text') throw unsupported('tool results can hold text only', `${path}.content.${index}`);
    texts.push(item);
  });
  return { role: 'tool', tool_call_id: part.toolCallId, content: texts.length === 0 ? '' : textContent(texts) };
}

/**
 * Encodes the system instructions and the conversation.
 *
 * Rules: system text parts become one leading `system` (or `developer`, by option) message; a user message of
 * one text part is a plain string, otherwise an array of `text` / `image_url` (with `detail`) / `input_audio` /
 * `file` parts; an assistant message carries its text and `tool_calls`; reasoning parts are dropped unless the
 * `reasoningReplay` option asks for `reasoning_content`; tool-call signatures are dropped unless the
 * `toolCallSignatures` option asks for Gemini's `extra_content`; an assistant message left with nothing to send is
 * omitted; each tool result is a `tool` message. Cache-control hints are dropped: OpenAI caches prompt prefixes
 * automatically and the dialect has no per-part breakpoint every compatible server accepts.
 *
 * @throws {CodecErrorV1} `unsupported-feature` for media the dialect cannot carry (document or audio by URL,
 * non-PDF documents, audio other than WAV/MP3, images in tool results).
 */
export function encodeOpenAiChatMessages(
  system: readonly TextPartV2[] | undefined,
  messages: readonly ChatMessageV2[],
  options: ResolvedOpenAiChatProtocolOptionsV1,
): OpenAiChatRequestMessage[] {
  const encoded: OpenAiChatRequestMessage[] = [];
  if (system !== undefined && system.length > 0) encoded.push({ role: options.systemRole, content: textContent(system) });
  const documents = { count: 0 };
  messages.forEach((message, index) => {
    const path = `messages.${index}`;
    switch (message.role) {
      case 'user':
        encoded.push(encodeUser(message, path, documents));
        return;
      case 'assistant': {
        const assistant = encodeAssistant(message, path, options);
        if (assistant !== undefined) encoded.push(assistant);
        return;
      }
      case 'tool':
        message.content.forEach((part, partIndex) => {
          const partPath = `${path}.content.${partIndex}`;
          if (part.type !== 'tool-result') {
            throw new CodecErrorV1('invalid-request', `a tool message cannot hold a ${part.type} part`, { path: partPath });
          }
          encoded.push(encodeToolResult(part, partPath));
        });
        return;
      default: {
        const unknownRole: never = message.role;
        throw new CodecErrorV1('invalid-request', `unknown role ${String(unknownRole)}`, { path });
      }
    }
  });
  return encoded;
}
