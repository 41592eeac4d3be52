import {
  CodecErrorV1,
  type ChatMessageV4,
  type DocumentPartV2,
  type ImagePartV2,
  type ToolResultPartV2,
} from '@tokenforge/model-protocol';
import { formatBase64DataUrl } from '../openai-common/data-url.js';

/** `input_text` part. */
export interface OpenAiResponsesInputText {
  readonly type: 'input_text';
  readonly text: string;
}

/** `input_image` part (`detail` is always sent: the SDK marks it required). */
export interface OpenAiResponsesInputImage {
  readonly type: 'input_image';
  readonly image_url: string;
  readonly detail: 'low' | 'high' | 'auto';
}

/** `input_file` part: inline `file_data` (a data URL) with `filename`, or a `file_url`. */
export type OpenAiResponsesInputFile =
  | { readonly type: 'input_file'; readonly filename: string; readonly file_data: string }
  | { readonly type: 'input_file'; readonly file_url: string; readonly filename?: string };

/** One input item this family sends. */
export type OpenAiResponsesInputItem =
  | {
      readonly type: 'message';
      readonly role: 'user';
      readonly content: readonly (OpenAiResponsesInputText | OpenAiResponsesInputImage | OpenAiResponsesInputFile)[];
    }
  | { readonly type: 'message'; readonly role: 'assistant'; readonly content: readonly { readonly type: 'output_text'; readonly text: string }[] }
  | { readonly type: 'function_call'; readonly call_id: string; readonly name: string; readonly arguments: string }
  | {
      readonly type: 'function_call_output';
      readonly call_id: string;
      readonly output: string | readonly (OpenAiResponsesInputText | OpenAiResponsesInputImage)[];
    }
  | {
      readonly type: 'reasoning';
      readonly summary: readonly { readonly type: 'summary_text'; readonly text: string }[];
      readonly encrypted_content: string;
    }
  | {
      /** A reasoning item the provider stored, replayed by its id as the client sent it (no encrypted content). */
      readonly type: 'reasoning';
      readonly id: string;
      readonly summary: readonly { readonly type: 'summary_text'; readonly text: string }[];
    }
  | {
      /** A compaction item replayed unmodified (https://platform.openai.com/docs/api-reference/responses/compact). */
      readonly type: 'compaction';
      readonly id?: string;
      readonly encrypted_content: string;
    };

function unsupported(path: string, rule: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', `openai-responses ${path} ${rule}`, { path });
}

function imagePart(part: ImagePartV2): OpenAiResponsesInputImage {
  const url = part.source.type === 'url' ? part.source.url : formatBase64DataUrl(part.source.mediaType, part.source.data);
  return { type: 'input_image', image_url: url, detail: part.detail ?? 'auto' };
}

function filePart(part: DocumentPartV2): OpenAiResponsesInputFile {
  if (part.source.type === 'url') {
    return { type: 'input_file', file_url: part.source.url, ...(part.title === undefined ? {} : { filename: part.title }) };
  }
  const filename = part.title ?? (part.source.mediaType === 'application/pdf' ? 'document.pdf' : 'document');
  return { type: 'input_file', filename, file_data: formatBase64DataUrl(part.source.mediaType, part.source.data) };
}

function toolOutput(part: ToolResultPartV2): string | (OpenAiResponsesInputText | OpenAiResponsesInputImage)[] {
  if (part.content.every((entry) => entry.type === 'text')) return part.content.map((entry) => (entry.type === 'text' ? entry.text : '')).join('');
  return part.content.map((entry) => (entry.type === 'text' ? { type: 'input_text', text: entry.text } : imagePart(entry)));
}

/**
 * Encodes the conversation as Responses `input` items, in order.
 *
 * - user: one `message` item with `input_text`, `input_image` (URL or base64 data URL; `detail` defaults to `auto`)
 *   and `input_file` parts (inline data as a data URL with a `filename`: the title, else `document.pdf` for PDFs;
 *   a URL source as `file_url`). Audio has no Responses input part (§2.3) and is refused.
 * - assistant: each run of text parts is one `message` item with `output_text` parts (empty texts are skipped);
 *   each tool call a `function_call` item (`call_id`, `name`, `arguments`); each reasoning part with a signature a
 *   `reasoning` item replayed statelessly: `encrypted_content` is the signature and `summary` holds the reasoning
 *   text (none when empty). No item `id` is sent: with `store: false` nothing is stored to refer to, and OpenAI
 *   looks an id up and fails when it is unknown. A reasoning part without a signature but with a `storedItemId`
 *   (a stored reasoning item the client sent back by id) is replayed as that item: `id` and `summary`. Other
 *   reasoning without a signature and redacted reasoning (another dialect's opaque data) have no stateless carrier
 *   and are dropped. A compaction part is a `compaction` item: `encrypted_content` is its data, with its `id` when
 *   it has one, unmodified.
 * - tool: each result is a `function_call_output` item (`call_id`); all-text content is sent as one string, content
 *   with images as `input_text` / `input_image` parts. `isError` has no carrier (the content says what failed).
 * - Cache-control hints are dropped: OpenAI caches prompt prefixes automatically.
 *
 * @throws {CodecErrorV1} `unsupported-feature` for audio input.
 */
export function encodeOpenAiResponsesInput(messages: readonly ChatMessageV4[]): OpenAiResponsesInputItem[] {
  const items: OpenAiResponsesInputItem[] = [];
  messages.forEach((message, messageIndex) => {
    const path = `messages.${messageIndex}`;
    switch (message.role) {
      case 'user': {
        const content = message.content.map((part, partIndex) => {
          switch (part.type) {
            case 'text':
              return { type: 'input_text', text: part.text } as const;
            case 'image':
              return imagePart(part);
            case 'document':
              return filePart(part);
            case 'audio':
              throw unsupported(`${path}.content.${partIndex}`, 'audio input has no Responses input part');
            default:
              throw new CodecErrorV1('invalid-request', `openai-responses a user message cannot hold a ${part.type} part`, { path: `${path}.content.${partIndex}` });
          }
        });
        items.push({ type: 'message', role: 'user', content });
        return;
      }
      case 'assistant': {
        let texts: { type: 'output_text'; text: string }[] = [];
        const flush = (): void => {
          if (texts.length > 0) items.push({ type: 'message', role: 'assistant', content: texts });
          texts = [];
        };
        for (const part of message.content) {
          switch (part.type) {
            case 'text':
              if (part.text.length > 0) texts.push({ type: 'output_text', text: part.text });
              break;
            case 'tool-call':
              flush();
              items.push({ type: 'function_call', call_id: part.toolCallId, name: part.toolName, arguments: part.argumentsText });
              break;
            case 'reasoning':
              if (part.signature === undefined) {
                if (part.storedItemId === undefined) break;
                flush();
                items.push({ type: 'reasoning', id: part.storedItemId, summary: part.text.length === 0 ? [] : [{ type: 'summary_text', text: part.text }] });
                break;
              }
              flush();
              items.push({
                type: 'reasoning',
                summary: part.text.length === 0 ? [] : [{ type: 'summary_text', text: part.text }],
                encrypted_content: part.signature,
              });
              break;
            case 'redacted-reasoning':
              break;
            case 'compaction':
              flush();
              items.push({ type: 'compaction', ...(part.id === undefined ? {} : { id: part.id }), encrypted_content: part.data });
              break;
            default:
              throw new CodecErrorV1('invalid-request', `openai-responses an assistant message cannot hold a ${part.type} part`, { path });
          }
        }
        flush();
        return;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') {
            throw new CodecErrorV1('invalid-request', `openai-responses a tool message cannot hold a ${part.type} part`, { path });
          }
          items.push({ type: 'function_call_output', call_id: part.toolCallId, output: toolOutput(part) });
        }
        return;
      default: {
        const unknownRole: never = message.role;
        throw new CodecErrorV1('invalid-request', `openai-responses unknown role ${String(unknownRole)}`, { path: `${path}.role` });
      }
    }
  });
  return items;
}
