import {
  EGRESS_STREAM_EVENT_TEXT_V1,
  type AdapterTerminalOutcome,
  type EgressContextV1,
  type EgressFailureV3,
  type EgressStreamEncoderV1,
  type EgressStreamEventTextV1,
  type NormalizedStreamEventV1,
  type UsageV3,
} from '@tokenforge/model-protocol';
import { encodeSseDone, encodeSseEvent, formatSseEvent } from '../../codec-kit/index.js';
import { EGRESS_CANCELLED_FAILURE, EGRESS_INTERNAL_FAILURE, egressCreatedSeconds } from './encode-client-common.js';
import { describeOpenAiChatEgressError } from './encode-client-error.js';
import { encodeOpenAiChatEgressUsage, encodeOpenAiServiceTier } from './encode-client-usage.js';
import { mapOpenAiChatEgressFinishReason } from './encode-client-finish-reason.js';

const EMPTY = new Uint8Array(0);
const textEncoder = new TextEncoder();

/** Options of {@link createOpenAiChatStreamEncoder}. */
export interface OpenAiChatStreamEncoderOptions {
  /**
   * Whether text, reasoning, refusal and tool-argument deltas after the first chunk are written from a template
   * (the chunk's fixed parts serialised once per stream, the delta alone per event) instead of serialising the
   * whole chunk object. Same bytes either way (a property test holds them equal); `false` only for that test.
   * Default true.
   */
  readonly deltaTemplates?: boolean;
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
export function createOpenAiChatStreamEncoder(context: EgressContextV1, options: OpenAiChatStreamEncoderOptions = {}): EgressStreamEncoderV1 & EgressStreamEventTextV1 {
  const created = egressCreatedSeconds(context);
  const toolIndexes = new Map<number, number>();
  let roleSent = false;
  let lastUsage: UsageV3 | undefined;
  let ended = false;
  // `data: {"id":...,"choices":[{"index":0,"delta":{` before a delta's members, and what follows them: the same
  // text JSON.stringify writes for the chunk object of `frame` below.
  const templates = options.deltaTemplates !== false && typeof context.responseId === 'string' && typeof context.modelLabel === 'string';
  const head = `data: {"id":${JSON.stringify(context.responseId)},"object":"chat.completion.chunk","created":${JSON.stringify(created)},"model":${JSON.stringify(context.modelLabel)},"choices":[{"index":0,"delta":{`;
  const tail = '},"logprobs":null,"finish_reason":null}]}\n\n';

  /** A chunk whose delta is `{"<member>":<text>}`, from the template (role already sent). */
  function textDelta(member: string, text: string): string {
    return `${head}"${member}":${JSON.stringify(text)}${tail}`;
  }

  function frameData(payload: Record<string, unknown>): string {
    return JSON.stringify({ id: context.responseId, object: 'chat.completion.chunk', created, model: context.modelLabel, ...payload });
  }

  function frame(payload: Record<string, unknown>): Uint8Array {
    return encodeSseEvent({ data: frameData(payload) });
  }

  function deltaFrame(delta: Record<string, unknown>, finishReason: string | null = null): string {
    const withRole = roleSent ? delta : { role: 'assistant', ...delta };
    roleSent = true;
    return formatSseEvent({ data: frameData({ choices: [{ index: 0, delta: withRole, logprobs: null, finish_reason: finishReason }] }) });
  }

  /** The SSE text of one event (`''` for none). */
  function eventText(event: NormalizedStreamEventV1): string {
    if (ended) return '';
    switch (event.type) {
      case 'text-delta':
        if (event.delta.length === 0) return '';
        return templates && roleSent ? textDelta('content', event.delta) : deltaFrame({ content: event.delta });
      case 'reasoning-delta':
        if (event.delta.length === 0) return '';
        return templates && roleSent ? textDelta('reasoning_content', event.delta) : deltaFrame({ reasoning_content: event.delta });
      case 'refusal-delta':
        if (event.delta.length === 0) return '';
        return templates && roleSent ? textDelta('refusal', event.delta) : deltaFrame({ refusal: event.delta });
      case 'tool-call-start': {
        const toolIndex = toolIndexes.size;
        toolIndexes.set(event.index, toolIndex);
        return deltaFrame({
          tool_calls: [{ index: toolIndex, id: event.toolCallId, type: 'function', function: { name: event.toolName, arguments: '' } }],
        });
      }
      case 'tool-call-delta': {
        const toolIndex = toolIndexes.get(event.index);
        if (toolIndex === undefined || event.delta.length === 0) return '';
        if (templates && roleSent) return `${head}"tool_calls":[{"index":${toolIndex},"function":{"arguments":${JSON.stringify(event.delta)}}}]${tail}`;
        return deltaFrame({ tool_calls: [{ index: toolIndex, function: { arguments: event.delta } }] });
      }
      case 'usage':
        lastUsage = event.usage;
        return '';
      case 'tool-call-end': {
        const toolIndex = toolIndexes.get(event.index);
        if (toolIndex === undefined || event.signature === undefined) return '';
        return deltaFrame({ tool_calls: [{ index: toolIndex, extra_content: { google: { thought_signature: event.signature } } }] });
      }
      case 'text-start':
      case 'text-end':
      case 'reasoning-start':
      case 'reasoning-end':
      case 'reasoning-redacted':
      case 'refusal-start':
      case 'refusal-end':
        return '';
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
        return '';
      }
    }
  }

  return {
    contentType: 'text/event-stream',
    encodeEvent(event: NormalizedStreamEventV1): Uint8Array {
      const text = eventText(event);
      return text.length === 0 ? EMPTY : textEncoder.encode(text);
    },
    [EGRESS_STREAM_EVENT_TEXT_V1]: eventText,
    encodeTerminal(outcome: AdapterTerminalOutcome): Uint8Array {
      if (ended) return EMPTY;
      ended = true;
      if (outcome.status !== 'completed' || outcome.result.kind !== 'chat') {
        const failure: EgressFailureV3 =
          outcome.status === 'failed'
            ? { source: 'provider', failure: outcome.failure }
            : outcome.status === 'cancelled'
              ? EGRESS_CANCELLED_FAILURE
              : EGRESS_INTERNAL_FAILURE;
        return encodeSseEvent({ data: JSON.stringify({ error: describeOpenAiChatEgressError(failure).error }) });
      }
      const parts: Uint8Array[] = [textEncoder.encode(deltaFrame({}, mapOpenAiChatEgressFinishReason(outcome.finishReason)))];
      const usage = encodeOpenAiChatEgressUsage(outcome.usage ?? lastUsage);
      if (usage !== undefined) parts.push(frame({ choices: [], usage, ...encodeOpenAiServiceTier(outcome.usage ?? lastUsage) }));
      parts.push(encodeSseDone());
      return joinBytes(parts);
    },
  };
}

