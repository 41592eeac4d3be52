import type { ChatOutputPartV4, EgressContextV1, FinishReasonV1, UsageV3 } from '@tokenforge/model-protocol';
import { parseSafeJson } from '../../codec-kit/index.js';
import { anthropicCompactionFieldsOf, type AnthropicCompactionFields } from './wire-compaction-fields.js';
import { encodeAnthropicStopReason } from './encode-client-finish-reason.js';
import { encodeAnthropicWireUsage, type AnthropicEgressUsage } from './encode-client-usage.js';

/** A response content block as written to an Anthropic client. */
export type AnthropicEgressContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Record<string, unknown> }
  | ({ readonly type: 'compaction'; readonly content: string } & AnthropicCompactionFields);

/** A whole Message as written to an Anthropic client. */
export interface AnthropicEgressMessage {
  readonly id: string;
  readonly type: 'message';
  readonly role: 'assistant';
  readonly model: string;
  readonly content: AnthropicEgressContentBlock[];
  readonly stop_reason: string;
  readonly stop_sequence: null;
  readonly usage: AnthropicEgressUsage;
}

/**
 * The tool input object for an argument text: `{}` for empty text, the parsed object otherwise, `undefined`
 * when the text is not a JSON object (a call the provider cut off at the token limit).
 */
export function parseEgressToolInput(argumentsText: string): Record<string, unknown> | undefined {
  if (argumentsText.trim().length === 0) return {};
  try {
    const value = parseSafeJson(argumentsText);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Maps one normalized output part to an Anthropic content block: text → `text`; reasoning → `thinking` (an
 * absent signature is written as `""`, which Anthropic clients accept and a replay drops); redacted reasoning
 * → `redacted_thinking`; tool call → `tool_use` with the parsed input; refusal → `text` (Anthropic has no
 * refusal block; the `refusal` stop reason says it); compaction → `compaction` with the data as its `content` and its
 * verbatim members (`encrypted_content`, `signature`, `tool_changes`) after it, unmodified (the gateway's seal leaves another family's compaction out before this). A tool call whose arguments are not a JSON object (cut
 * off by the token limit) cannot be written as `tool_use` and is left out, deliberately.
 */
export function encodeAnthropicEgressBlock(part: ChatOutputPartV4): AnthropicEgressContentBlock | undefined {
  switch (part.type) {
    case 'text':
    case 'refusal':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
    case 'redacted-reasoning':
      return { type: 'redacted_thinking', data: part.data };
    case 'tool-call': {
      const input = parseEgressToolInput(part.argumentsText);
      return input === undefined ? undefined : { type: 'tool_use', id: part.toolCallId, name: part.toolName, input };
    }
    case 'compaction':
      return { type: 'compaction', content: part.data, ...anthropicCompactionFieldsOf(part.providerFields) };
    default: {
      const unknownPart: never = part;
      void unknownPart;
      return undefined;
    }
  }
}

/** Builds the Message body for a completed chat terminal. */
export function encodeAnthropicEgressMessage(
  content: readonly ChatOutputPartV4[],
  finishReason: FinishReasonV1 | undefined,
  usage: UsageV3 | undefined,
  context: EgressContextV1,
): AnthropicEgressMessage {
  const blocks: AnthropicEgressContentBlock[] = [];
  for (const part of content) {
    const block = encodeAnthropicEgressBlock(part);
    if (block !== undefined) blocks.push(block);
  }
  return {
    id: context.responseId,
    type: 'message',
    role: 'assistant',
    model: context.modelLabel,
    content: blocks,
    stop_reason: encodeAnthropicStopReason(finishReason),
    stop_sequence: null,
    usage: encodeAnthropicWireUsage(usage),
  };
}
