import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { OPENAI_RESPONSES_HARMLESS_EVENT_TYPES } from './stream-event-types.js';
import { isWireRecord, type WireRecord } from '../../codec-kit/wire-readers.js';
import {
  OPENAI_RESPONSES_MAX_WIRE_INDEX,
  OPENAI_RESPONSES_WIRE as wire,
  readOpenAiResponsesError,
  readOpenAiResponsesOutputItem,
  readOpenAiResponsesResponse,
  type OpenAiResponsesWireError,
  type OpenAiResponsesWireOutputItem,
  type OpenAiResponsesWireResponse,
} from './wire-readers.js';

/** Which text a text-like event carries. */
export type OpenAiResponsesTextChannel = 'output_text' | 'refusal' | 'reasoning_text' | 'summary_text';

/** The body of one stream event, read and reduced to what the state machine needs. */
export type OpenAiResponsesWireStreamEventBody =
  | { readonly kind: 'lifecycle' }
  | {
      readonly kind: 'terminal';
      readonly type: 'response.completed' | 'response.incomplete' | 'response.failed';
      readonly response: OpenAiResponsesWireResponse;
    }
  | { readonly kind: 'error'; readonly error: OpenAiResponsesWireError }
  | { readonly kind: 'item-added' | 'item-done'; readonly outputIndex: number | undefined; readonly item: OpenAiResponsesWireOutputItem }
  | {
      /** `content_part.added` / `reasoning_summary_part.added`: a segment of an item opens. */
      readonly kind: 'part-added';
      readonly channel: OpenAiResponsesTextChannel;
      readonly itemId: string;
      readonly partIndex: number;
    }
  | {
      readonly kind: 'text-delta';
      readonly channel: OpenAiResponsesTextChannel;
      readonly itemId: string;
      readonly partIndex: number;
      readonly delta: string;
    }
  | {
      /** `*.done` of a text channel, or `content_part.done` / `reasoning_summary_part.done` with the part's text. */
      readonly kind: 'text-done';
      readonly channel: OpenAiResponsesTextChannel;
      readonly itemId: string;
      readonly partIndex: number;
      readonly text: string;
    }
  | { readonly kind: 'arguments-delta'; readonly itemId: string; readonly delta: string }
  | { readonly kind: 'arguments-done'; readonly itemId: string; readonly argumentsText: string }
  | { readonly kind: 'harmless' };

/** One stream event with its `sequence_number` (absent on some compatible servers). */
export type OpenAiResponsesWireStreamEvent = OpenAiResponsesWireStreamEventBody & { readonly sequenceNumber: number | undefined };

const TEXT_DELTA_CHANNELS: Readonly<Record<string, OpenAiResponsesTextChannel>> = {
  'response.output_text.delta': 'output_text',
  'response.refusal.delta': 'refusal',
  'response.reasoning_text.delta': 'reasoning_text',
  'response.reasoning_summary_text.delta': 'summary_text',
};

const TEXT_DONE_CHANNELS: Readonly<Record<string, { channel: OpenAiResponsesTextChannel; field: string }>> = {
  'response.output_text.done': { channel: 'output_text', field: 'text' },
  'response.refusal.done': { channel: 'refusal', field: 'refusal' },
  'response.reasoning_text.done': { channel: 'reasoning_text', field: 'text' },
  'response.reasoning_summary_text.done': { channel: 'summary_text', field: 'text' },
};

function itemIdOf(record: WireRecord, type: string): string {
  const itemId = wire.requiredString(record.item_id, type, 'item_id');
  if (itemId.length === 0) throw wire.violation(`${type}.item_id`, 'must not be empty');
  return itemId;
}

/** The index of a content part (`content_index`) or summary part (`summary_index`); absent is read as 0. */
function partIndexOf(record: WireRecord, type: string, key: 'content_index' | 'summary_index'): number {
  return wire.optionalCount(record[key], type, key, OPENAI_RESPONSES_MAX_WIRE_INDEX) ?? 0;
}

/** A content part of `content_part.added` / `.done`: its channel and, when done, its text. */
function readPart(record: WireRecord, type: string): { channel: OpenAiResponsesTextChannel; text: string | undefined } {
  const part = wire.optionalRecord(record.part, type, 'part');
  if (part === undefined) throw wire.violation(`${type}.part`, 'is required');
  const partType = wire.requiredString(part.type, `${type}.part`, 'type');
  switch (partType) {
    case 'output_text':
      return { channel: 'output_text', text: wire.optionalString(part.text, `${type}.part`, 'text') };
    case 'refusal':
      return { channel: 'refusal', text: wire.optionalString(part.refusal, `${type}.part`, 'refusal') };
    case 'reasoning_text':
      return { channel: 'reasoning_text', text: wire.optionalString(part.text, `${type}.part`, 'text') };
    default:
      throw new ProtocolViolationError('unexpected-event', 'openai-responses content part has an unknown type');
  }
}

function readBody(record: WireRecord, type: string): OpenAiResponsesWireStreamEventBody {
  const deltaChannel = TEXT_DELTA_CHANNELS[type];
  if (deltaChannel !== undefined) {
    return {
      kind: 'text-delta',
      channel: deltaChannel,
      itemId: itemIdOf(record, type),
      partIndex: partIndexOf(record, type, deltaChannel === 'summary_text' ? 'summary_index' : 'content_index'),
      delta: wire.requiredString(record.delta, type, 'delta'),
    };
  }
  const done = TEXT_DONE_CHANNELS[type];
  if (done !== undefined) {
    return {
      kind: 'text-done',
      channel: done.channel,
      itemId: itemIdOf(record, type),
      partIndex: partIndexOf(record, type, done.channel === 'summary_text' ? 'summary_index' : 'content_index'),
      text: wire.requiredString(record[done.field], type, done.field),
    };
  }
  switch (type) {
    case 'response.queued':
    case 'response.created':
    case 'response.in_progress':
      if (!isWireRecord(record.response)) throw wire.violation(`${type}.response`, 'must be an object');
      return { kind: 'lifecycle' };
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed':
      return { kind: 'terminal', type, response: readOpenAiResponsesResponse(record.response, `${type}.response`) };
    case 'error': {
      // Two shapes (§2.8): documented flat `{code, message, param}`, observed nested `{error:{type, code, ...}}`.
      // In the flat shape `type` is the event's own type (`error`), not an error type.
      const nested = readOpenAiResponsesError(record.error, 'error.error');
      return { kind: 'error', error: nested ?? readOpenAiResponsesError({ code: record.code, message: record.message, param: record.param }, 'error') ?? {} };
    }
    case 'response.output_item.added':
    case 'response.output_item.done':
      return {
        kind: type === 'response.output_item.added' ? 'item-added' : 'item-done',
        outputIndex: wire.optionalCount(record.output_index, type, 'output_index', OPENAI_RESPONSES_MAX_WIRE_INDEX),
        item: readOpenAiResponsesOutputItem(record.item, `${type}.item`, type === 'response.output_item.added'),
      };
    case 'response.content_part.added':
    case 'response.content_part.done': {
      const part = readPart(record, type);
      const itemId = itemIdOf(record, type);
      const partIndex = partIndexOf(record, type, 'content_index');
      if (type === 'response.content_part.added') return { kind: 'part-added', channel: part.channel, itemId, partIndex };
      if (part.text === undefined) throw wire.violation(`${type}.part`, 'needs its text');
      return { kind: 'text-done', channel: part.channel, itemId, partIndex, text: part.text };
    }
    case 'response.reasoning_summary_part.added':
    case 'response.reasoning_summary_part.done': {
      const itemId = itemIdOf(record, type);
      const partIndex = partIndexOf(record, type, 'summary_index');
      if (type === 'response.reasoning_summary_part.added') return { kind: 'part-added', channel: 'summary_text', itemId, partIndex };
      const part = wire.optionalRecord(record.part, type, 'part');
      const text = part === undefined ? undefined : wire.optionalString(part.text, `${type}.part`, 'text');
      if (text === undefined) throw wire.violation(`${type}.part.text`, 'is required');
      return { kind: 'text-done', channel: 'summary_text', itemId, partIndex, text };
    }
    case 'response.function_call_arguments.delta':
      return { kind: 'arguments-delta', itemId: itemIdOf(record, type), delta: wire.requiredString(record.delta, type, 'delta') };
    case 'response.function_call_arguments.done':
      return { kind: 'arguments-done', itemId: itemIdOf(record, type), argumentsText: wire.requiredString(record.arguments, type, 'arguments') };
    default:
      if (OPENAI_RESPONSES_HARMLESS_EVENT_TYPES.includes(type)) return { kind: 'harmless' };
      throw new ProtocolViolationError('unexpected-event', 'openai-responses stream sent an unknown event type');
  }
}

/**
 * Reads one stream event payload (already parsed by the safe JSON parser). `eventName` is the SSE `event:` field:
 * when present it must equal the payload `type` (§2.1). `sequence_number` is optional (§2.10) and must be a
 * non-negative integer when present.
 *
 * @throws {ProtocolViolationError} `unexpected-event` for a type outside the documented set (mapped or harmless, see
 * `stream-event-types.ts`); `invalid-event` for a malformed event.
 */
export function readOpenAiResponsesStreamEvent(payload: unknown, eventName: string | undefined): OpenAiResponsesWireStreamEvent {
  if (!isWireRecord(payload)) throw wire.violation('event', 'must be a JSON object');
  const type = wire.requiredString(payload.type, 'event', 'type');
  if (eventName !== undefined && eventName !== type) {
    throw new ProtocolViolationError('invalid-event', 'openai-responses SSE event name differs from the payload type');
  }
  const sequenceNumber = wire.optionalCount(payload.sequence_number, 'event', 'sequence_number');
  return { ...readBody(payload, type), sequenceNumber };
}
