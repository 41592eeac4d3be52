import type { AdapterTerminalOutcome, ChatOutputPartV1, EgressContextV1, EgressHttpResponseV1 } from '@tokenforge/model-protocol';
import { EGRESS_CANCELLED_FAILURE, EGRESS_INTERNAL_FAILURE, egressCreatedSeconds } from './encode-client-common.js';
import { encodeOpenAiChatError } from './encode-client-error.js';
import { encodeOpenAiChatEgressUsage, encodeOpenAiServiceTier } from './encode-client-usage.js';
import { mapOpenAiChatEgressFinishReason } from './encode-client-finish-reason.js';

const encoder = new TextEncoder();

/**
 * The assistant message of a chat result: text blocks joined as `content` (`null` when there is no text), refusal
 * blocks joined as `refusal` (`null` when none), tool calls as `tool_calls`, reasoning blocks joined as
 * `reasoning_content`. Reasoning is carried in DeepSeek's `reasoning_content` field, the most widely used
 * carrier: OpenAI clients ignore unknown fields, and clients of reasoning hosts read it. Reasoning signatures and
 * redacted reasoning have no carrier in this dialect and are dropped. A tool-call signature travels as
 * `extra_content.google.thought_signature`, the carrier of Gemini's OpenAI-compatible endpoint (other clients
 * ignore it).
 */
function assistantMessage(content: readonly ChatOutputPartV1[]): Record<string, unknown> {
  const texts: string[] = [];
  const refusals: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: unknown[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        texts.push(part.text);
        break;
      case 'refusal':
        refusals.push(part.text);
        break;
      case 'reasoning':
        reasoning.push(part.text);
        break;
      case 'redacted-reasoning':
        break;
      case 'tool-call':
        toolCalls.push({
          id: part.toolCallId,
          type: 'function',
          function: { name: part.toolName, arguments: part.argumentsText },
          ...(part.signature === undefined ? {} : { extra_content: { google: { thought_signature: part.signature } } }),
        });
        break;
      default: {
        const unknownPart: never = part;
        void unknownPart;
      }
    }
  }
  const hasOther = refusals.length > 0 || toolCalls.length > 0;
  return {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : hasOther ? null : '',
    refusal: refusals.length > 0 ? refusals.join('') : null,
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    ...(reasoning.length === 0 ? {} : { reasoning_content: reasoning.join('') }),
  };
}

/**
 * A whole `chat.completion` response for a terminal: `id`, `model` and `created` (seconds) from the egress
 * context; one choice with the assistant message, `logprobs: null` and the finish reason; `usage` when input and
 * output counts are known. A failed terminal is the provider error envelope; a cancelled one is a 499 error; a
 * completed non-chat result cannot be written in this dialect and is a 500 error.
 */
export function encodeOpenAiChatResponse(outcome: AdapterTerminalOutcome, context: EgressContextV1): EgressHttpResponseV1 {
  switch (outcome.status) {
    case 'failed':
      return encodeOpenAiChatError({ source: 'provider', failure: outcome.failure });
    case 'cancelled':
      return encodeOpenAiChatError(EGRESS_CANCELLED_FAILURE);
    case 'completed':
      break;
    default: {
      const unknownOutcome: never = outcome;
      void unknownOutcome;
      return encodeOpenAiChatError(EGRESS_INTERNAL_FAILURE);
    }
  }
  if (outcome.result.kind !== 'chat') return encodeOpenAiChatError(EGRESS_INTERNAL_FAILURE);
  const usage = encodeOpenAiChatEgressUsage(outcome.usage);
  const body = {
    id: context.responseId,
    object: 'chat.completion',
    created: egressCreatedSeconds(context),
    model: context.modelLabel,
    choices: [
      {
        index: 0,
        message: assistantMessage(outcome.result.content),
        logprobs: null,
        finish_reason: mapOpenAiChatEgressFinishReason(outcome.finishReason),
      },
    ],
    ...(usage === undefined ? {} : { usage }),
    ...encodeOpenAiServiceTier(outcome.usage),
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(body)) };
}

