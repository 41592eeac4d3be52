import {
  CodecErrorV1,
  type ChatContentPartV4 as ChatContentPartV2,
  type ChatMessageV4 as ChatMessageV2,
  type TextPartV2,
} from '@tokenforge/model-protocol';
import { anthropicCompactionFieldsOf } from './wire-compaction-fields.js';
import { encodeAnthropicDocumentSource, encodeAnthropicImageSource } from './encode-media-source.js';
import { encodeAnthropicCacheControl } from './map-cache-control.js';
import { parseAnthropicToolArguments } from './parse-tool-arguments.js';
import type {
  AnthropicContentBlockParam,
  AnthropicMessageParam,
  AnthropicTextBlockParam,
  AnthropicToolResultBlockParam,
} from './wire-request.js';

/**
 * Encodes the conversation as Anthropic turns.
 *
 * Rules, in order:
 * - `user` and `assistant` messages keep their role; a `tool` message becomes a `user` turn whose blocks are
 *   `tool_result` blocks (Anthropic carries tool results inside user turns);
 * - empty text parts are left out (the API refuses empty text blocks and they carry nothing), and so are
 *   reasoning parts without a signature (Anthropic verifies the signature of replayed thinking: unsigned
 *   reasoning, such as another dialect's reasoning text, cannot be replayed and is not needed by the model);
 *   a message left with no block is left out;
 * - consecutive turns of the same role are merged into one, because the API wants the roles to alternate;
 *   in a merged `user` turn the `tool_result` blocks come first, in their order, then the other blocks in
 *   theirs (the API requires tool results to lead the turn that answers a tool use);
 * - cache breakpoints of text, media, `tool_use` and `tool_result` parts become `cache_control`;
 * - thinking, redacted thinking and compaction blocks (the summary in `content`, with its cache breakpoint) are
 *   replayed unmodified; a tool call's own `signature` (opaque state of another dialect) has no Anthropic field
 *   and is not sent.
 *
 * @throws {CodecErrorV1} `unsupported-feature` for audio and unsupported media types, `invalid-request` for
 * unparsable tool arguments, bad media URLs or a conversation with nothing left to send.
 */
export function encodeAnthropicMessages(messages: readonly ChatMessageV2[]): AnthropicMessageParam[] {
  const turns: { role: 'user' | 'assistant'; toolResults: AnthropicContentBlockParam[]; blocks: AnthropicContentBlockParam[] }[] = [];
  messages.forEach((message, messageIndex) => {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const toolResults: AnthropicContentBlockParam[] = [];
    const blocks: AnthropicContentBlockParam[] = [];
    message.content.forEach((part, partIndex) => {
      const block = encodePart(part, `messages.${messageIndex}.content.${partIndex}`);
      if (block === undefined) return;
      if (block.type === 'tool_result') toolResults.push(block);
      else blocks.push(block);
    });
    if (toolResults.length === 0 && blocks.length === 0) return;
    const previous = turns[turns.length - 1];
    if (previous !== undefined && previous.role === role) {
      previous.toolResults.push(...toolResults);
      previous.blocks.push(...blocks);
    } else {
      turns.push({ role, toolResults, blocks });
    }
  });
  if (turns.length === 0) throw new CodecErrorV1('invalid-request', 'the conversation has no content to send', { path: 'messages' });
  return turns.map((turn) => ({ role: turn.role, content: [...turn.toolResults, ...turn.blocks] }));
}

function encodePart(part: ChatContentPartV2, path: string): AnthropicContentBlockParam | undefined {
  switch (part.type) {
    case 'text':
      return encodeText(part);
    case 'image':
      return {
        type: 'image',
        source: encodeAnthropicImageSource(part.source, `${path}.source`),
        ...(part.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(part.cacheControl) }),
      };
    case 'document':
      return {
        type: 'document',
        source: encodeAnthropicDocumentSource(part.source, `${path}.source`),
        ...(part.title === undefined ? {} : { title: part.title }),
        ...(part.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(part.cacheControl) }),
      };
    case 'audio':
      throw new CodecErrorV1('unsupported-feature', 'Anthropic Messages does not accept audio input', { path });
    case 'tool-call':
      return {
        type: 'tool_use',
        id: part.toolCallId,
        name: part.toolName,
        input: parseAnthropicToolArguments(part.argumentsText, `${path}.argumentsText`),
        ...(part.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(part.cacheControl) }),
      };
    case 'tool-result':
      return encodeToolResult(part, path);
    case 'reasoning':
      return part.signature === undefined ? undefined : { type: 'thinking', thinking: part.text, signature: part.signature };
    case 'redacted-reasoning':
      return { type: 'redacted_thinking', data: part.data };
    case 'compaction':
      return {
        type: 'compaction',
        content: part.data,
        ...anthropicCompactionFieldsOf(part.providerFields),
        ...(part.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(part.cacheControl) }),
      };
    default: {
      const unknownPart: never = part;
      throw new CodecErrorV1('invalid-request', `unknown content part ${String((unknownPart as { type: unknown }).type)}`, { path });
    }
  }
}

function encodeText(part: TextPartV2): AnthropicTextBlockParam | undefined {
  if (part.text.length === 0) return undefined;
  return {
    type: 'text',
    text: part.text,
    ...(part.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(part.cacheControl) }),
  };
}

function encodeToolResult(part: Extract<ChatContentPartV2, { type: 'tool-result' }>, path: string): AnthropicToolResultBlockParam {
  const content: NonNullable<AnthropicToolResultBlockParam['content']>[number][] = [];
  part.content.forEach((item, itemIndex) => {
    if (item.type === 'text') {
      const text = encodeText(item);
      if (text !== undefined) content.push(text);
      return;
    }
    content.push({
      type: 'image',
      source: encodeAnthropicImageSource(item.source, `${path}.content.${itemIndex}.source`),
      ...(item.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(item.cacheControl) }),
    });
  });
  return {
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    ...(content.length === 0 ? {} : { content }),
    ...(part.isError === undefined ? {} : { is_error: part.isError }),
    ...(part.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(part.cacheControl) }),
  };
}
