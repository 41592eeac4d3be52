import type {
  AdapterTerminalOutcome,
  EgressContextV1,
  EgressFailureV3,
  EgressStreamEncoderV1,
  NormalizedStreamEventV4,
  UsageV3,
} from '@tokenforge/model-protocol';
import { formatSseEvent } from '../../codec-kit/index.js';
import {
  egressContentPart,
  egressCustomToolCallItem,
  egressCompactionItem,
  egressMessageItem,
  egressToolCallItem,
  freeformToolInput,
  type OpenAiResponsesEgressOptionsV1,
  egressReasoningItem,
  openAiResponsesEgressItemId,
  openAiResponsesEgressObject,
  openAiResponsesEgressStatus,
  type OpenAiResponsesEgressItem,
} from './encode-client-response.js';
import { describeOpenAiResponsesEgressError } from './encode-client-error.js';

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** Not an engine code: anything the error table does not know is written as an internal error. */
const INTERNAL_FAILURE: EgressFailureV3 = { source: 'engine', code: 'internal' };
const CANCELLED_FAILURE: EgressFailureV3 = { source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' };

interface OutputState {
  readonly kind: 'text' | 'refusal' | 'reasoning' | 'tool-call' | 'compaction';
  readonly outputIndex: number;
  readonly itemId: string;
  readonly fragments: string[];
  readonly call?: { readonly toolCallId: string; readonly toolName: string };
  /** The finished item, once its block ended. */
  item?: OpenAiResponsesEgressItem;
}

/**
 * A Responses SSE stream encoder: every event is `event: <type>` + `data: <json>` with the same `type` and an
 * increasing `sequence_number` from 0, in the order the official SDK's stream helpers accumulate.
 *
 * - The first event (or the terminal) is preceded by `response.created` and `response.in_progress` carrying an
 *   `in_progress` Response with empty output.
 * - Each block is one output item at the next `output_index`: text → `message` with `output_item.added`,
 *   `content_part.added` (`output_text`), `output_text.delta` per delta (`logprobs: []`), then at its end
 *   `output_text.done`, `content_part.done` and `output_item.done`; refusal the same with `refusal` parts and
 *   `response.refusal.*` events; reasoning → `reasoning` item whose text streams as summary part 0
 *   (`reasoning_summary_part.added` at the first delta, `reasoning_summary_text.delta`, then `.done` events) and whose
 *   signature is the `encrypted_content` of `output_item.done`; tool calls → `function_call` item with
 *   `function_call_arguments.delta` / `.done`; a call of a freeform tool of `options` → `custom_tool_call` item whose
 *   input is written whole at the call's end (`custom_tool_call_input.delta` then `.done`: the arguments arrive as
 *   JSON, so the text is known only then); a compaction → a `compaction` item, `output_item.added` and `.done` at
 *   once. Redacted reasoning has no carrier and writes nothing; usage is kept for
 *   the terminal.
 * - A completed terminal writes `response.completed` (or `response.incomplete` for `length` / `content-filter`)
 *   with the whole Response: every output item and the usage. A failed or cancelled terminal writes an `error` event
 *   (`code`, `message`, `param: null`) then `response.failed` with the same `{code, message}` as `response.error`.
 * - Events after the terminal write nothing.
 */
export function createOpenAiResponsesStreamEncoder(context: EgressContextV1, options?: OpenAiResponsesEgressOptionsV1): EgressStreamEncoderV1 {
  const isFreeform = (name: string): boolean => options?.freeformToolNames?.includes(name) === true;
  const outputs: OutputState[] = [];
  const byBlock = new Map<number, OutputState>();
  let sequence = 0;
  let started = false;
  let ended = false;
  let lastUsage: UsageV3 | undefined;

  function frame(type: string, payload: Record<string, unknown>): string {
    const text = formatSseEvent({ event: type, data: JSON.stringify({ type, sequence_number: sequence, ...payload }) });
    sequence += 1;
    return text;
  }

  function opening(): string {
    if (started) return '';
    started = true;
    const response = openAiResponsesEgressObject({ status: 'in_progress', output: [] }, context);
    return frame('response.created', { response }) + frame('response.in_progress', { response });
  }

  function open(event: { index: number }, kind: OutputState['kind'], call?: OutputState['call']): OutputState {
    const outputIndex = outputs.length;
    const prefix = kind === 'reasoning' ? 'rs' : kind === 'tool-call' || kind === 'compaction' ? 'fc' : 'msg';
    const state: OutputState = { kind, outputIndex, itemId: openAiResponsesEgressItemId(prefix, context, outputIndex), fragments: [], ...(call === undefined ? {} : { call }) };
    outputs.push(state);
    byBlock.set(event.index, state);
    return state;
  }

  function where(state: OutputState): Record<string, unknown> {
    return { item_id: state.itemId, output_index: state.outputIndex };
  }

  function encodeEventText(event: NormalizedStreamEventV4): string {
    switch (event.type) {
      case 'text-start':
      case 'refusal-start': {
        const kind = event.type === 'text-start' ? 'text' : 'refusal';
        const state = open(event, kind);
        return (
          frame('response.output_item.added', { output_index: state.outputIndex, item: egressMessageItem(state.itemId, kind, '', 'in_progress') }) +
          frame('response.content_part.added', { ...where(state), content_index: 0, part: egressContentPart(kind, '') })
        );
      }
      case 'text-delta':
      case 'refusal-delta': {
        const state = byBlock.get(event.index);
        if (state === undefined || state.item !== undefined || event.delta.length === 0) return '';
        state.fragments.push(event.delta);
        return event.type === 'text-delta'
          ? frame('response.output_text.delta', { ...where(state), content_index: 0, delta: event.delta, logprobs: [] })
          : frame('response.refusal.delta', { ...where(state), content_index: 0, delta: event.delta });
      }
      case 'text-end':
      case 'refusal-end': {
        const state = byBlock.get(event.index);
        if (state === undefined || state.item !== undefined || (state.kind !== 'text' && state.kind !== 'refusal')) return '';
        const text = state.fragments.join('');
        state.item = egressMessageItem(state.itemId, state.kind, text, 'completed');
        const done =
          state.kind === 'text'
            ? frame('response.output_text.done', { ...where(state), content_index: 0, text, logprobs: [] })
            : frame('response.refusal.done', { ...where(state), content_index: 0, refusal: text });
        return (
          done +
          frame('response.content_part.done', { ...where(state), content_index: 0, part: egressContentPart(state.kind, text) }) +
          frame('response.output_item.done', { output_index: state.outputIndex, item: state.item })
        );
      }
      case 'reasoning-start': {
        const state = open(event, 'reasoning');
        return frame('response.output_item.added', { output_index: state.outputIndex, item: egressReasoningItem(state.itemId, '', undefined) });
      }
      case 'reasoning-delta': {
        const state = byBlock.get(event.index);
        if (state === undefined || state.item !== undefined || event.delta.length === 0) return '';
        const partAdded =
          state.fragments.length === 0
            ? frame('response.reasoning_summary_part.added', { ...where(state), summary_index: 0, part: { type: 'summary_text', text: '' } })
            : '';
        state.fragments.push(event.delta);
        return partAdded + frame('response.reasoning_summary_text.delta', { ...where(state), summary_index: 0, delta: event.delta });
      }
      case 'reasoning-end': {
        const state = byBlock.get(event.index);
        if (state === undefined || state.item !== undefined || state.kind !== 'reasoning') return '';
        const text = state.fragments.join('');
        state.item = egressReasoningItem(state.itemId, text, event.signature);
        const summaryDone =
          text.length === 0
            ? ''
            : frame('response.reasoning_summary_text.done', { ...where(state), summary_index: 0, text }) +
              frame('response.reasoning_summary_part.done', { ...where(state), summary_index: 0, part: { type: 'summary_text', text } });
        return summaryDone + frame('response.output_item.done', { output_index: state.outputIndex, item: state.item });
      }
      case 'tool-call-start': {
        const call = { toolCallId: event.toolCallId, toolName: event.toolName };
        const state = open(event, 'tool-call', call);
        return frame('response.output_item.added', { output_index: state.outputIndex, item: egressToolCallItem(state.itemId, call, '', 'in_progress', options) });
      }
      case 'tool-call-delta': {
        const state = byBlock.get(event.index);
        if (state === undefined || state.item !== undefined || event.delta.length === 0) return '';
        state.fragments.push(event.delta);
        if (state.call !== undefined && isFreeform(state.call.toolName)) return '';
        return frame('response.function_call_arguments.delta', { ...where(state), delta: event.delta });
      }
      case 'tool-call-end': {
        const state = byBlock.get(event.index);
        if (state === undefined || state.item !== undefined || state.call === undefined) return '';
        if (isFreeform(state.call.toolName)) {
          const input = freeformToolInput(event.argumentsText);
          state.item = egressCustomToolCallItem(state.itemId, state.call, input, 'completed');
          return (
            frame('response.custom_tool_call_input.delta', { ...where(state), delta: input }) +
            frame('response.custom_tool_call_input.done', { ...where(state), input }) +
            frame('response.output_item.done', { output_index: state.outputIndex, item: state.item })
          );
        }
        state.item = egressToolCallItem(state.itemId, state.call, event.argumentsText, 'completed', options);
        return (
          frame('response.function_call_arguments.done', { ...where(state), arguments: event.argumentsText }) +
          frame('response.output_item.done', { output_index: state.outputIndex, item: state.item })
        );
      }
      case 'usage':
        lastUsage = event.usage;
        return '';
      case 'reasoning-redacted':
        return '';
      case 'compaction': {
        // A whole item: added and done at once, as a server that compacted before answering streams it.
        const state = open(event, 'compaction');
        state.item = egressCompactionItem(event);
        return (
          frame('response.output_item.added', { output_index: state.outputIndex, item: state.item }) +
          frame('response.output_item.done', { output_index: state.outputIndex, item: state.item })
        );
      }
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
        return '';
      }
    }
  }

  /** The output so far: finished items as they ended, unfinished ones as their text so far. */
  function outputSoFar(): OpenAiResponsesEgressItem[] {
    return outputs.map((state) => {
      if (state.item !== undefined) return state.item;
      const text = state.fragments.join('');
      switch (state.kind) {
        case 'text':
        case 'refusal':
          return egressMessageItem(state.itemId, state.kind, text, 'completed');
        case 'reasoning':
          return egressReasoningItem(state.itemId, text, undefined);
        case 'tool-call':
          return egressToolCallItem(state.itemId, state.call ?? { toolCallId: state.itemId, toolName: 'unknown' }, text, 'completed', options);
        case 'compaction':
          return { id: state.itemId, type: 'compaction' };
        default: {
          const unknownKind: never = state.kind;
          return { id: state.itemId, type: String(unknownKind) };
        }
      }
    });
  }

  return {
    contentType: 'text/event-stream',
    encodeEvent(event: NormalizedStreamEventV4): Uint8Array {
      if (ended || event.type === 'usage' || event.type === 'reasoning-redacted') {
        if (!ended) encodeEventText(event);
        return EMPTY;
      }
      // The opening events take the first sequence numbers, so they are written before the event's own.
      const text = opening() + encodeEventText(event);
      return text.length === 0 ? EMPTY : encoder.encode(text);
    },
    encodeTerminal(outcome: AdapterTerminalOutcome): Uint8Array {
      if (ended) return EMPTY;
      ended = true;
      const head = opening();
      const usage = outcome.status === 'cancelled' ? lastUsage : (outcome.usage ?? lastUsage);
      if (outcome.status === 'completed' && outcome.result.kind === 'chat') {
        const { status, incompleteDetails } = openAiResponsesEgressStatus(outcome.finishReason);
        const response = openAiResponsesEgressObject({ status, output: outputSoFar(), usage, incompleteDetails }, context);
        return encoder.encode(head + frame(status === 'completed' ? 'response.completed' : 'response.incomplete', { response }));
      }
      const failure: EgressFailureV3 =
        outcome.status === 'failed' ? { source: 'provider', failure: outcome.failure } : outcome.status === 'cancelled' ? CANCELLED_FAILURE : INTERNAL_FAILURE;
      const { error } = describeOpenAiResponsesEgressError(failure);
      const response = openAiResponsesEgressObject(
        { status: 'failed', output: outputSoFar(), usage, error: { code: error.code, message: error.message } },
        context,
      );
      return encoder.encode(
        head + frame('error', { code: error.code, message: error.message, param: null }) + frame('response.failed', { response }),
      );
    },
  };
}
