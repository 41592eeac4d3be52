import type { AdapterTerminalOutcomeV4, ChatOutputPartV4, NormalizedProviderFailureV1, NormalizedStreamEventV4, UsageV3 } from '@tokenforge/model-protocol';
import {
  createToolCallAccumulator,
  parseSafeJson,
  ProtocolViolationError,
  SSE_DONE_DATA,
  type AdapterStreamMachine,
  type AdapterStreamStep,
  type SseItem,
} from '../../codec-kit/index.js';
import { convertOpenAiResponsesUsage } from './convert-usage.js';
import { openAiResponsesTerminal } from './decode-response.js';
import { mapOpenAiResponsesFailure } from './map-error.js';
import { OPENAI_RESPONSES_REASONING_PART_SEPARATOR, joinOpenAiResponsesReasoningText } from './reasoning-text.js';
import { isWireRecord } from '../../codec-kit/wire-readers.js';
import { OPENAI_RESPONSES_WIRE, readOpenAiResponsesError, type OpenAiResponsesWireOutputItem } from './wire-readers.js';
import { readOpenAiResponsesStreamEvent, type OpenAiResponsesTextChannel, type OpenAiResponsesWireStreamEvent } from './wire-stream-event.js';

/** The `openai-responses/v1` stream state machine over the kit's SSE items (decode with `bareJson: true`). */
export type OpenAiResponsesStreamMachine = AdapterStreamMachine<SseItem>;

interface TextBlock {
  readonly kind: 'text' | 'refusal';
  readonly index: number;
  readonly fragments: string[];
  open: boolean;
  /** The whole text, joined once when the block ends. */
  finalText?: string;
}

interface Segment {
  readonly fragments: string[];
  finalText?: string;
}

interface ReasoningBlock {
  readonly kind: 'reasoning';
  readonly index: number;
  readonly fragments: string[];
  readonly segments: Map<string, Segment>;
  open: boolean;
  signature?: string;
}

interface ToolBlock {
  readonly kind: 'tool-call';
  readonly index: number;
  readonly callId: string;
  readonly name: string;
  open: boolean;
  hasFragments: boolean;
  argumentsText?: string;
}

/** A compaction item: one whole `compaction` event once its `encrypted_content` is known (at `output_item.done`). */
interface CompactionBlock {
  readonly kind: 'compaction';
  readonly index: number;
  open: boolean;
  id?: string;
  data?: string;
}

type Block = TextBlock | ReasoningBlock | ToolBlock | CompactionBlock;

type ItemState =
  | { readonly kind: 'message'; readonly parts: Map<number, TextBlock>; done: boolean }
  | { readonly kind: 'reasoning'; readonly block: ReasoningBlock; done: boolean }
  | { readonly kind: 'function_call'; readonly block: ToolBlock; done: boolean }
  | { readonly kind: 'compaction'; readonly block: CompactionBlock; done: boolean }
  | { readonly kind: 'server-side'; done: boolean };

const TEXT_EVENTS = {
  text: { start: 'text-start', delta: 'text-delta', end: 'text-end' },
  refusal: { start: 'refusal-start', delta: 'refusal-delta', end: 'refusal-end' },
} as const;

const { violation } = OPENAI_RESPONSES_WIRE;

function textKindOf(channel: OpenAiResponsesTextChannel): 'text' | 'refusal' | undefined {
  if (channel === 'output_text') return 'text';
  if (channel === 'refusal') return 'refusal';
  return undefined;
}

/**
 * Creates the state machine that turns Responses SSE events into normalized events and one terminal.
 *
 * Rules (§2.8, §2.10, §2.11, §2.12 of the chat wire fact sheet):
 * - Frames: each SSE event's JSON `type` is read (the `event:` name, when present, must equal it); types outside the
 *   documented set fail as `unexpected-event` (see `stream-event-types.ts` for the mapped and harmless lists).
 *   Comments, empty data (keep-alives) and a `[DONE]` a gateway may add are skipped. A bare JSON `{"error":…}` body
 *   is a failed terminal.
 * - `sequence_number`: gaps are fine; an event whose number is not above the last one seen is a re-sent duplicate
 *   and is skipped; absence is tolerated.
 * - Blocks take indexes in order of appearance: each `message` content part is a text or refusal block (phase is
 *   not kept: commentary and final answers are both text, in order); each `reasoning` item is one reasoning block
 *   (its summary and reasoning-text parts in arrival order, separated by a blank line; `encrypted_content` of the
 *   item is the `reasoning-end` signature, taken from `output_item.done`, else from `output_item.added`); each
 *   `function_call` item is a tool call (`call_id` is the id, arguments accumulated linearly by the kit's
 *   accumulator, keyed by `item_id`, so interleaved parallel calls are fine); each `compaction` item is one whole
 *   `compaction` event at its `output_item.done` (`encrypted_content` as data, with its `id`; an item never done
 *   by the terminal is a violation). Server-side tool items make no block.
 * - `.done` events are authoritative: a part or arguments that were never streamed are emitted whole; streamed text
 *   must equal the `.done` text (`function_call_arguments.done` must equal the deltas), else `invalid-event`.
 * - Terminals: `response.completed` / `response.incomplete` close every open block in index order (a call cut by
 *   `max_output_tokens` ends with the arguments received so far), emit the usage of the terminal `response` (the
 *   only place Responses reports usage) and complete (see `mapOpenAiResponsesFinishReason`). When a server streamed
 *   no item at all, the blocks come from the terminal response's `output`. `response.failed` is a failed terminal
 *   from `response.error`. An `error` event (flat or nested) ends the stream as one failed terminal at once: the
 *   `response.failed` that usually follows is not read, so a client sees one error.
 * - A body that ends without a terminal event is a failed, retryable `truncated-stream` (the kit's default).
 */
export function createOpenAiResponsesStreamMachine(): OpenAiResponsesStreamMachine {
  const accumulator = createToolCallAccumulator();
  const blocks: Block[] = [];
  const items = new Map<string, ItemState>();
  let lastSequence: number | undefined;
  let usage: UsageV3 | undefined;

  function keyOf(itemId: string | undefined, outputIndex: number | undefined): string {
    if (itemId !== undefined && itemId.length > 0) return `id:${itemId}`;
    if (outputIndex !== undefined) return `index:${outputIndex}`;
    throw violation('output item has neither id nor output_index');
  }

  function itemFor(itemId: string): ItemState {
    const item = items.get(`id:${itemId}`);
    if (item === undefined) throw violation('event refers to an output item that was never added');
    if (item.done) throw violation('event arrived after its output item was done');
    return item;
  }

  function startText(kind: 'text' | 'refusal', events: NormalizedStreamEventV4[]): TextBlock {
    const block: TextBlock = { kind, index: blocks.length, fragments: [], open: true };
    blocks.push(block);
    events.push({ type: TEXT_EVENTS[kind].start, index: block.index });
    return block;
  }

  function finishText(block: TextBlock, text: string | undefined, events: NormalizedStreamEventV4[]): void {
    if (!block.open) {
      if (text !== undefined && text !== block.finalText) throw violation('done text differs from the streamed text');
      return;
    }
    if (text !== undefined) {
      if (block.fragments.length === 0) {
        if (text.length > 0) {
          block.fragments.push(text);
          events.push({ type: TEXT_EVENTS[block.kind].delta, index: block.index, delta: text });
        }
      } else if (block.fragments.join('') !== text) {
        throw violation('done text differs from the streamed text');
      }
    }
    block.open = false;
    block.finalText = block.fragments.join('');
    events.push({ type: TEXT_EVENTS[block.kind].end, index: block.index });
  }

  function messagePart(item: ItemState, partIndex: number, kind: 'text' | 'refusal', events: NormalizedStreamEventV4[]): TextBlock {
    if (item.kind !== 'message') throw violation('text event refers to an item that is not a message');
    let block = item.parts.get(partIndex);
    if (block === undefined) {
      block = startText(kind, events);
      item.parts.set(partIndex, block);
    } else if (block.kind !== kind) {
      throw violation('text and refusal events share one content part');
    }
    return block;
  }

  function segmentOf(block: ReasoningBlock, key: string, events: NormalizedStreamEventV4[]): Segment {
    let segment = block.segments.get(key);
    if (segment === undefined) {
      if (!block.open) throw violation('reasoning text arrived after its block ended');
      if (block.segments.size > 0) {
        block.fragments.push(OPENAI_RESPONSES_REASONING_PART_SEPARATOR);
        events.push({ type: 'reasoning-delta', index: block.index, delta: OPENAI_RESPONSES_REASONING_PART_SEPARATOR });
      }
      segment = { fragments: [] };
      block.segments.set(key, segment);
    }
    return segment;
  }

  function reasoningAppend(block: ReasoningBlock, segment: Segment, delta: string, events: NormalizedStreamEventV4[]): void {
    if (segment.finalText !== undefined) throw violation('reasoning text arrived after its part was done');
    if (delta.length === 0) return;
    segment.fragments.push(delta);
    block.fragments.push(delta);
    events.push({ type: 'reasoning-delta', index: block.index, delta });
  }

  function endReasoning(block: ReasoningBlock, events: NormalizedStreamEventV4[]): void {
    if (!block.open) return;
    block.open = false;
    events.push(block.signature === undefined ? { type: 'reasoning-end', index: block.index } : { type: 'reasoning-end', index: block.index, signature: block.signature });
  }

  function finishArguments(block: ToolBlock, argumentsText: string | undefined, events: NormalizedStreamEventV4[]): void {
    if (!block.open) {
      if (argumentsText !== undefined && argumentsText !== block.argumentsText) throw violation('done arguments differ from the streamed arguments');
      return;
    }
    if (argumentsText !== undefined && !block.hasFragments && argumentsText.length > 0) {
      accumulator.append(block.index, argumentsText);
      block.hasFragments = true;
      events.push({ type: 'tool-call-delta', index: block.index, delta: argumentsText });
    }
    const closed = accumulator.close(block.index);
    if (argumentsText !== undefined && closed.argumentsText !== argumentsText) throw violation('done arguments differ from the streamed arguments');
    block.open = false;
    block.argumentsText = closed.argumentsText;
    events.push({ type: 'tool-call-end', index: block.index, argumentsText: closed.argumentsText });
  }

  function addItem(key: string, item: OpenAiResponsesWireOutputItem, events: NormalizedStreamEventV4[]): ItemState {
    if (items.has(key)) throw violation('output item was added twice');
    let state: ItemState;
    switch (item.type) {
      case 'message':
        state = { kind: 'message', parts: new Map(), done: false };
        break;
      case 'reasoning': {
        const block: ReasoningBlock = { kind: 'reasoning', index: blocks.length, fragments: [], segments: new Map(), open: true };
        if (item.encryptedContent !== undefined) block.signature = item.encryptedContent;
        blocks.push(block);
        events.push({ type: 'reasoning-start', index: block.index });
        state = { kind: 'reasoning', block, done: false };
        break;
      }
      case 'function_call': {
        const block: ToolBlock = { kind: 'tool-call', index: blocks.length, callId: item.callId, name: item.name, open: true, hasFragments: false };
        blocks.push(block);
        accumulator.open(block.index);
        events.push({ type: 'tool-call-start', index: block.index, toolCallId: item.callId, toolName: item.name });
        if (item.arguments.length > 0) {
          accumulator.append(block.index, item.arguments);
          block.hasFragments = true;
          events.push({ type: 'tool-call-delta', index: block.index, delta: item.arguments });
        }
        state = { kind: 'function_call', block, done: false };
        break;
      }
      case 'compaction': {
        const block: CompactionBlock = { kind: 'compaction', index: blocks.length, open: true };
        blocks.push(block);
        state = { kind: 'compaction', block, done: false };
        break;
      }
      case 'server-side':
        state = { kind: 'server-side', done: false };
        break;
      default: {
        const unknownItem: never = item;
        throw violation(`unknown item ${String(unknownItem)}`);
      }
    }
    items.set(key, state);
    return state;
  }

  function doneItem(key: string, item: OpenAiResponsesWireOutputItem, events: NormalizedStreamEventV4[]): void {
    const state = items.get(key) ?? addItem(key, item, events);
    if (state.done) throw violation('output item was done twice');
    switch (state.kind) {
      case 'message': {
        if (item.type !== 'message') throw violation('output item changed its type');
        item.content.forEach((part, position) => {
          finishText(messagePart(state, position, part.type === 'output_text' ? 'text' : 'refusal', events), part.text, events);
        });
        for (const block of state.parts.values()) finishText(block, undefined, events);
        break;
      }
      case 'reasoning': {
        if (item.type !== 'reasoning') throw violation('output item changed its type');
        const block = state.block;
        if (block.segments.size === 0 && (item.summary.length > 0 || item.content.length > 0)) {
          const text = joinOpenAiResponsesReasoningText(item.summary, item.content);
          if (text.length > 0) {
            block.fragments.push(text);
            events.push({ type: 'reasoning-delta', index: block.index, delta: text });
          }
        }
        if (item.encryptedContent !== undefined) block.signature = item.encryptedContent;
        endReasoning(block, events);
        break;
      }
      case 'function_call':
        if (item.type !== 'function_call' || item.callId !== state.block.callId || item.name !== state.block.name) {
          throw violation('function call item changed its call id or name');
        }
        finishArguments(state.block, item.arguments, events);
        break;
      case 'compaction':
        if (item.type !== 'compaction') throw violation('output item changed its type');
        endCompaction(state.block, item.id, item.encryptedContent, events);
        break;
      case 'server-side':
        if (item.type !== 'server-side') throw violation('output item changed its type');
        break;
      default: {
        const unknownState: never = state;
        throw violation(`unknown item state ${String(unknownState)}`);
      }
    }
    state.done = true;
  }

  function onText(event: Extract<OpenAiResponsesWireStreamEvent, { kind: 'part-added' | 'text-delta' | 'text-done' }>, events: NormalizedStreamEventV4[]): void {
    const item = itemFor(event.itemId);
    const textKind = textKindOf(event.channel);
    if (textKind !== undefined) {
      const block = messagePart(item, event.partIndex, textKind, events);
      if (event.kind === 'text-done') {
        finishText(block, event.text, events);
      } else if (event.kind === 'text-delta') {
        if (!block.open) throw violation('text arrived after its part was done');
        if (event.delta.length > 0) {
          block.fragments.push(event.delta);
          events.push({ type: TEXT_EVENTS[block.kind].delta, index: block.index, delta: event.delta });
        }
      }
      return;
    }
    if (item.kind !== 'reasoning') throw violation('reasoning event refers to an item that is not reasoning');
    const segment = segmentOf(item.block, `${event.channel}:${event.partIndex}`, events);
    if (event.kind === 'text-delta') {
      reasoningAppend(item.block, segment, event.delta, events);
    } else if (event.kind === 'text-done') {
      if (segment.finalText === undefined) {
        if (segment.fragments.length === 0) reasoningAppend(item.block, segment, event.text, events);
        segment.finalText = segment.fragments.join('');
      }
      if (segment.finalText !== event.text) throw violation('done reasoning text differs from the streamed text');
    }
  }

  function endCompaction(block: CompactionBlock, id: string | undefined, data: string | undefined, events: NormalizedStreamEventV4[]): void {
    if (!block.open) return;
    block.open = false;
    if (data === undefined) throw violation('compaction item ended without its encrypted_content');
    block.data = data;
    if (id !== undefined) block.id = id;
    events.push({ type: 'compaction', index: block.index, data, ...(id === undefined ? {} : { id }) });
  }

  function closeAll(events: NormalizedStreamEventV4[]): void {
    for (const block of blocks) {
      if (!block.open) continue;
      if (block.kind === 'compaction') endCompaction(block, undefined, undefined, events);
      else if (block.kind === 'reasoning') endReasoning(block, events);
      else if (block.kind === 'tool-call') finishArguments(block, undefined, events);
      else finishText(block, undefined, events);
    }
  }

  function streamTerminalOutput(output: readonly OpenAiResponsesWireOutputItem[], events: NormalizedStreamEventV4[]): void {
    output.forEach((item, position) => doneItem(keyOf(item.id, position), item, events));
  }

  function contentOf(): ChatOutputPartV4[] {
    return blocks.map((block): ChatOutputPartV4 => {
      switch (block.kind) {
        case 'text':
        case 'refusal':
          return { type: block.kind, text: block.finalText ?? block.fragments.join('') };
        case 'reasoning':
          return { type: 'reasoning', text: block.fragments.join(''), ...(block.signature === undefined ? {} : { signature: block.signature }) };
        case 'tool-call':
          return { type: 'tool-call', toolCallId: block.callId, toolName: block.name, argumentsText: block.argumentsText ?? '' };
        case 'compaction':
          return { type: 'compaction', data: block.data ?? '', ...(block.id === undefined ? {} : { id: block.id }) };
        default: {
          const unknownBlock: never = block;
          throw violation(`unknown block ${String(unknownBlock)}`);
        }
      }
    });
  }

  function failed(failure: NormalizedProviderFailureV1): AdapterStreamStep {
    const outcome: AdapterTerminalOutcomeV4 = usage === undefined ? { status: 'failed', failure } : { status: 'failed', failure, usage };
    return { terminal: outcome };
  }

  function onEvent(event: OpenAiResponsesWireStreamEvent): AdapterStreamStep | undefined {
    if (event.sequenceNumber !== undefined) {
      if (lastSequence !== undefined && event.sequenceNumber <= lastSequence) return undefined;
      lastSequence = event.sequenceNumber;
    }
    const events: NormalizedStreamEventV4[] = [];
    switch (event.kind) {
      case 'lifecycle':
      case 'harmless':
        return undefined;
      case 'error':
        return failed(mapOpenAiResponsesFailure(event.error));
      case 'item-added':
        addItem(keyOf(event.item.id, event.outputIndex), event.item, events);
        break;
      case 'item-done':
        doneItem(keyOf(event.item.id, event.outputIndex), event.item, events);
        break;
      case 'part-added':
      case 'text-delta':
      case 'text-done':
        onText(event, events);
        break;
      case 'arguments-delta':
      case 'arguments-done': {
        const item = itemFor(event.itemId);
        if (item.kind !== 'function_call') throw violation('arguments event refers to an item that is not a function call');
        if (event.kind === 'arguments-done') {
          finishArguments(item.block, event.argumentsText, events);
        } else {
          if (!item.block.open) throw violation('arguments arrived after the call was done');
          if (event.delta.length > 0) {
            accumulator.append(item.block.index, event.delta);
            item.block.hasFragments = true;
            events.push({ type: 'tool-call-delta', index: item.block.index, delta: event.delta });
          }
        }
        break;
      }
      case 'terminal': {
        const response = event.response;
        const reported = response.usage === undefined ? undefined : convertOpenAiResponsesUsage(response.usage);
        if (reported !== undefined) usage = reported;
        if (event.type === 'response.failed') {
          return { terminal: openAiResponsesTerminal(response, 'failed', [], usage) };
        }
        if (items.size === 0) streamTerminalOutput(response.output, events);
        closeAll(events);
        const status = event.type === 'response.completed' ? 'completed' : 'incomplete';
        const terminal = openAiResponsesTerminal(response, status, contentOf(), usage);
        if (usage !== undefined) events.push({ type: 'usage', usage });
        return { events, terminal };
      }
      default: {
        const unknownEvent: never = event;
        throw violation(`unknown event ${String(unknownEvent)}`);
      }
    }
    return events.length === 0 ? undefined : { events };
  }

  return {
    onFrame(item) {
      switch (item.kind) {
        case 'comment':
          return undefined;
        case 'bare-json': {
          // A server failing after accepting the stream may write a plain JSON error body.
          const payload = parseSafeJson(item.text);
          const error = isWireRecord(payload) ? readOpenAiResponsesError(payload.error, 'error') : undefined;
          if (error === undefined) throw new ProtocolViolationError('unexpected-event', 'openai-responses stream carried JSON outside an SSE event');
          return failed(mapOpenAiResponsesFailure(error));
        }
        case 'event': {
          const data = item.data.trim();
          if (data.length === 0 || data === SSE_DONE_DATA) return undefined;
          const payload = parseSafeJson(item.data);
          if (item.event === 'error' && isWireRecord(payload) && payload.type === undefined) {
            // Chat-Completions-style named error event (`{"error":{...}}` without a type) from a compatible server.
            return failed(mapOpenAiResponsesFailure(readOpenAiResponsesError(payload.error ?? payload, 'error')));
          }
          return onEvent(readOpenAiResponsesStreamEvent(payload, item.event));
        }
        default: {
          const unknownItem: never = item;
          throw new ProtocolViolationError('unexpected-event', `openai-responses unknown SSE item ${String(unknownItem)}`);
        }
      }
    },
    onEnd() {
      return undefined;
    },
    usageSoFar: () => usage,
  };
}
