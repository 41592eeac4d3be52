import type { AdapterTerminalOutcomeV4, ChatOutputPartV4 } from '@tokenforge/model-protocol';
import { assertUsageConsistent, dropInconsistentUsageDetails } from '../../codec-kit/index.js';
import { anthropicCompactionFieldsText } from './wire-compaction-fields.js';
import { convertAnthropicUsage } from './convert-usage.js';
import { mapAnthropicError } from './map-error.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { readAnthropicMessage, type AnthropicWireContentBlock } from './wire-readers.js';

/** Input of {@link decodeAnthropicMessagesResponse}. */
export interface DecodeAnthropicMessagesResponseInput {
  /** The parsed 2xx body. */
  readonly body: unknown;
  /** Response headers with lower-case names (for retry hints of an error inside a 2xx body). */
  readonly headers: Readonly<Record<string, string>>;
  /** The HTTP status. */
  readonly status: number;
  /** The current time in epoch milliseconds. */
  readonly nowMs: number;
}

/** A decoded whole response. */
export interface DecodedAnthropicMessagesResponse {
  /** The terminal outcome. */
  readonly terminal: AdapterTerminalOutcomeV4;
  /** The model the provider reported serving. */
  readonly providerModel?: string;
}

/**
 * Decodes a whole Message body into a terminal. Blocks map in order: `text` → text, `thinking` → reasoning
 * (with its signature when not empty), `redacted_thinking` → redacted reasoning, `tool_use` → tool call whose
 * `argumentsText` is `JSON.stringify(input)` (so an empty `input` is `{}`, as the stream decoder yields for
 * an empty `partial_json` stream); `compaction` → compaction (its `content` as the opaque data; a failed
 * compaction, `content: null`, is a no-op and left out); server-tool blocks are skipped (see
 * `ANTHROPIC_SERVER_TOOL_BLOCK_TYPES`).
 * Citations are not carried. A 2xx body of `type: "error"` is a failed terminal.
 *
 * @throws {ProtocolViolationError} when the body breaks the Messages shape.
 */
export function decodeAnthropicMessagesResponse(input: DecodeAnthropicMessagesResponseInput): DecodedAnthropicMessagesResponse {
  const message = readAnthropicMessage(input.body);
  if ('type' in message) {
    return {
      terminal: {
        status: 'failed',
        failure: mapAnthropicError({ status: input.status, headers: input.headers, error: message.error, nowMs: input.nowMs }),
      },
    };
  }
  const content: ChatOutputPartV4[] = [];
  for (const block of message.content) {
    const part = toOutputPart(block);
    if (part !== undefined) content.push(part);
  }
  const usage = assertUsageConsistent(dropInconsistentUsageDetails(convertAnthropicUsage(message.usage)));
  return {
    terminal: {
      status: 'completed',
      result: { kind: 'chat', content },
      finishReason: mapAnthropicStopReason(message.stop_reason),
      usage,
    },
    ...(message.model === undefined || message.model.length === 0 || message.model.length > 256 ? {} : { providerModel: message.model }),
  };
}

function optionalFields(providerFields: string | undefined): { providerFields?: string } {
  return providerFields === undefined ? {} : { providerFields };
}

function toOutputPart(block: AnthropicWireContentBlock): ChatOutputPartV4 | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'reasoning', text: block.thinking, ...(block.signature.length === 0 ? {} : { signature: block.signature }) };
    case 'redacted_thinking':
      return { type: 'redacted-reasoning', data: block.data };
    case 'tool_use':
      return { type: 'tool-call', toolCallId: block.id, toolName: block.name, argumentsText: JSON.stringify(block.input) };
    case 'compaction':
      if (block.content === null) return undefined;
      return { type: 'compaction', data: block.content, ...optionalFields(anthropicCompactionFieldsText(block.fields)) };
    case 'server-tool':
      return undefined;
    default: {
      const unknownBlock: never = block;
      return unknownBlock;
    }
  }
}
