import type {
  AdapterTerminalOutcome,
  ChatOutputPartV1,
  EgressCodecV1,
  EgressContextV1,
  EgressFailureV1,
  EgressHttpResponseV1,
  EgressStreamEncoderV1,
  NormalizedStreamEventV1,
  UsageV1,
} from '@tokenforge/model-protocol';
import { encodeSseDone, encodeSseEvent } from '../../codec-kit/index.js';
import { describeOpenAiChatEgressError, encodeOpenAiChatError } from './encode-egress-error.js';
import { encodeOpenAiChatEgressUsage } from './encode-egress-usage.js';
import { mapOpenAiChatEgressFinishReason } from './map-egress-finish-reason.js';
import { OPENAI_CHAT_PROTOCOL_FAMILY } from './protocol-family.js';

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

function createdSeconds(context: EgressContextV1): number {
  return Math.floor(context.createdAtMs / 1000);
}

function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

/** Not an engine code: anything the error table does not know is written as a 500 internal error. */
function internalFailure(): EgressFailureV1 {
  return { source: 'engine', code: 'internal' };
}

const CANCELLED_FAILURE: EgressFailureV1 = { source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' };

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
      return encodeOpenAiChatError(CANCELLED_FAILURE);
    case 'completed':
      break;
    default: {
      const unknownOutcome: never = outcome;
      void unknownOutcome;
      return encodeOpenAiChatError(internalFailure());
    }
  }
  if (outcome.result.kind !== 'chat') return encodeOpenAiChatError(internalFailure());
  const usage = encodeOpenAiChatEgressUsage(outcome.usage);
  const body = {
    id: context.responseId,
    object: 'chat.completion',
    created: createdSeconds(context),
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
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(body)) };
}

/**
 * A `chat.completion.chunk` SSE encoder. Every chunk carries `id`, `object`, `created`, `model` and `choices`
 * (what the official SDK's stream accumulator reads). The first chunk's delta carries `role: "assistant"`; text,
 * refusal and reasoning deltas become `content`, `refusal` and `reasoning_content` fragments; a tool call becomes
 * a fragment with its tool index (0, 1, ... in order of appearance), `id`, `type` and `function.name` and empty
 * arguments, then argument fragments with the index only; a tool-call signature is a last fragment with
 * `extra_content.google.thought_signature`. Other block starts and ends, redacted reasoning and reasoning
 * signatures write nothing. The terminal writes a chunk with an empty delta and the finish reason, then (when
 * usage is known) a usage chunk with `choices: []`, then `data: [DONE]`. The usage chunk is always written, as if
 * the client had asked `stream_options.include_usage`: clients that did not ask skip chunks without choices. A
 * failed or cancelled terminal writes `data: {"error":{...}}` and no `[DONE]`, so no client mistakes it for a
 * complete answer.
 */
export function createOpenAiChatStreamEncoder(context: EgressContextV1): EgressStreamEncoderV1 {
  const created = createdSeconds(context);
  const toolIndexes = new Map<number, number>();
  let roleSent = false;
  let lastUsage: UsageV1 | undefined;
  let ended = false;

  function frame(payload: Record<string, unknown>): Uint8Array {
    return encodeSseEvent({
      data: JSON.stringify({ id: context.responseId, object: 'chat.completion.chunk', created, model: context.modelLabel, ...payload }),
    });
  }

  function deltaFrame(delta: Record<string, unknown>, finishReason: string | null = null): Uint8Array {
    const withRole = roleSent ? delta : { role: 'assistant', ...delta };
    roleSent = true;
    return frame({ choices: [{ index: 0, delta: withRole, logprobs: null, finish_reason: finishReason }] });
  }

  return {
    contentType: 'text/event-stream',
    encodeEvent(event: NormalizedStreamEventV1): Uint8Array {
      if (ended) return EMPTY;
      switch (event.type) {
        case 'text-delta':
          return event.delta.length === 0 ? EMPTY : deltaFrame({ content: event.delta });
        case 'reasoning-delta':
          return event.delta.length === 0 ? EMPTY : deltaFrame({ reasoning_content: event.delta });
        case 'refusal-delta':
          return event.delta.length === 0 ? EMPTY : deltaFrame({ refusal: event.delta });
        case 'tool-call-start': {
          const toolIndex = toolIndexes.size;
          toolIndexes.set(event.index, toolIndex);
          return deltaFrame({
            tool_calls: [{ index: toolIndex, id: event.toolCallId, type: 'function', function: { name: event.toolName, arguments: '' } }],
          });
        }
        case 'tool-call-delta': {
          const toolIndex = toolIndexes.get(event.index);
          if (toolIndex === undefined || event.delta.length === 0) return EMPTY;
          return deltaFrame({ tool_calls: [{ index: toolIndex, function: { arguments: event.delta } }] });
        }
        case 'usage':
          lastUsage = event.usage;
          return EMPTY;
        case 'tool-call-end': {
          const toolIndex = toolIndexes.get(event.index);
          if (toolIndex === undefined || event.signature === undefined) return EMPTY;
          return deltaFrame({ tool_calls: [{ index: toolIndex, extra_content: { google: { thought_signature: event.signature } } }] });
        }
        case 'text-start':
        case 'text-end':
        case 'reasoning-start':
        case 'reasoning-end':
        case 'reasoning-redacted':
        case 'refusal-start':
        case 'refusal-end':
          return EMPTY;
        default: {
          const unknownEvent: never = event;
          void unknownEvent;
          return EMPTY;
        }
      }
    },
    encodeTerminal(outcome: AdapterTerminalOutcome): Uint8Array {
      if (ended) return EMPTY;
      ended = true;
      if (outcome.status !== 'completed' || outcome.result.kind !== 'chat') {
        const failure: EgressFailureV1 =
          outcome.status === 'failed'
            ? { source: 'provider', failure: outcome.failure }
            : outcome.status === 'cancelled'
              ? CANCELLED_FAILURE
              : internalFailure();
        return encodeSseEvent({ data: JSON.stringify({ error: describeOpenAiChatEgressError(failure).error }) });
      }
      const parts = [deltaFrame({}, mapOpenAiChatEgressFinishReason(outcome.finishReason))];
      const usage = encodeOpenAiChatEgressUsage(outcome.usage ?? lastUsage);
      if (usage !== undefined) parts.push(frame({ choices: [], usage }));
      parts.push(encodeSseDone());
      return joinBytes(parts);
    },
  };
}

/** Creates the `openai-chat/v1` egress codec. Pure: ids and time come from the egress context. */
export function createOpenAiChatEgressCodec(): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: OPENAI_CHAT_PROTOCOL_FAMILY,
    encodeResponse: encodeOpenAiChatResponse,
    createStreamEncoder: createOpenAiChatStreamEncoder,
    encodeError: (failure: EgressFailureV1) => encodeOpenAiChatError(failure),
  });
}
