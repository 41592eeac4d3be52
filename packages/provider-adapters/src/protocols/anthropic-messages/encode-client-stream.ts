import {
  CodecErrorV1,
  EGRESS_STREAM_EVENT_TEXT_V1,
  type AdapterTerminalOutcome,
  type EgressContextV1,
  type EgressStreamEncoderV1,
  type EgressStreamEventTextV1,
  type NormalizedStreamEventV4,
  type UsageV3,
} from '@tokenforge/model-protocol';
import { formatSseEvent } from '../../codec-kit/index.js';
import { ANTHROPIC_CANCELLED_ERROR, mapAnthropicEgressError } from './encode-client-error.js';
import { encodeAnthropicStopReason } from './encode-client-finish-reason.js';
import { encodeAnthropicWireUsage } from './encode-client-usage.js';
import { anthropicCompactionFieldsOf } from './wire-compaction-fields.js';

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

type WireBlockKind = 'text' | 'thinking' | 'tool_use' | 'compaction';

interface WireBlock {
  readonly wireIndex: number;
  readonly kind: WireBlockKind;
  /** Characters of `input_json_delta` written (tool blocks). */
  argumentLength: number;
}

/** Options of {@link createAnthropicMessagesStreamEncoder}. */
export interface AnthropicMessagesStreamEncoderOptions {
  /**
   * Whether text, refusal, reasoning and tool-argument deltas after the first event are written from a template
   * (their fixed parts as text, the fragment alone serialised) instead of serialising the whole event object. Same
   * bytes either way (a property test holds them equal); `false` only for that test. Default true.
   */
  readonly deltaTemplates?: boolean;
}

/** The start of a `content_block_delta` event, up to its block index. */
const DELTA_HEAD = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":';
/** A delta's type and the key of its string member, as written between `{"type":` and the member's value. */
const TEXT_DELTA_MEMBER = '"text_delta","text"';
const THINKING_DELTA_MEMBER = '"thinking_delta","thinking"';
const INPUT_JSON_DELTA_MEMBER = '"input_json_delta","partial_json"';
const TEXT_KINDS: readonly WireBlockKind[] = ['text'];
const THINKING_KINDS: readonly WireBlockKind[] = ['thinking'];
const TOOL_KINDS: readonly WireBlockKind[] = ['tool_use'];

/**
 * Creates the Anthropic SSE encoder for one stream. It writes the event sequence an Anthropic client (and the
 * official SDK's stream accumulator) expects:
 * - `message_start` first (with the usage known so far, Anthropic arithmetic), written before the first
 *   content event, or from the first `usage` event;
 * - each normalized block becomes a content block whose wire `index` is its position in start order (the SDK
 *   addresses `content[index]`): text and refusal → `text` with `text_delta`; reasoning → `thinking` with
 *   `thinking_delta`, and its signature as one `signature_delta` before `content_block_stop`; redacted
 *   reasoning → a whole `redacted_thinking` block; tool calls → `tool_use` (`input: {}`) with
 *   `input_json_delta` fragments (if no fragment came, the final argument text is written as one); a compaction
 *   → a `compaction` block opened with `content: null`, its data as one `compaction_delta`, then closed;
 * - later `usage` events are remembered, not written: Anthropic carries final usage on `message_delta`;
 * - a completed terminal closes any open block, then writes `message_delta` (stop reason, `stop_sequence:
 *   null`, cumulative usage including input and cache figures) and `message_stop`; a failed or cancelled
 *   terminal writes one `event: error` with the Anthropic error envelope (no `message_stop`, as Anthropic does).
 * Events after the terminal produce no bytes. An event for a block that was never started (or started twice)
 * throws `CodecErrorV1` `invalid-request`: the engine never produces one.
 */
export function createAnthropicMessagesStreamEncoder(context: EgressContextV1, options: AnthropicMessagesStreamEncoderOptions = {}): EgressStreamEncoderV1 & EgressStreamEventTextV1 {
  const templates = options.deltaTemplates !== false;
  let started = false;
  let finished = false;
  let nextWireIndex = 0;
  let usage: UsageV3 | undefined;
  const blocks = new Map<number, WireBlock>();
  const open = new Set<number>();

  function write(out: string[], type: string, payload: Record<string, unknown>): void {
    out.push(formatSseEvent({ event: type, data: JSON.stringify({ type, ...payload }) }));
  }

  function ensureStarted(out: string[]): void {
    if (started) return;
    started = true;
    write(out, 'message_start', {
      message: {
        id: context.responseId,
        type: 'message',
        role: 'assistant',
        model: context.modelLabel,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: encodeAnthropicWireUsage(usage),
      },
    });
  }

  function startBlock(out: string[], index: number, kind: WireBlockKind, contentBlock: Record<string, unknown>): number {
    if (blocks.has(index)) throw new CodecErrorV1('invalid-request', `stream block ${index} started twice`);
    const block: WireBlock = { wireIndex: nextWireIndex, kind, argumentLength: 0 };
    nextWireIndex += 1;
    blocks.set(index, block);
    open.add(index);
    write(out, 'content_block_start', { index: block.wireIndex, content_block: contentBlock });
    return block.wireIndex;
  }

  function openBlock(index: number, kinds: readonly WireBlockKind[]): WireBlock {
    const block = blocks.get(index);
    if (block === undefined || !open.has(index) || !kinds.includes(block.kind)) {
      throw new CodecErrorV1('invalid-request', `stream event for block ${index}, which is not open with that kind`);
    }
    return block;
  }

  function stopBlock(out: string[], index: number, block: WireBlock): void {
    open.delete(index);
    write(out, 'content_block_stop', { index: block.wireIndex });
  }

  function delta(out: string[], block: WireBlock, payload: Record<string, unknown>): void {
    write(out, 'content_block_delta', { index: block.wireIndex, delta: payload });
  }

  function bytes(out: readonly string[]): Uint8Array {
    return out.length === 0 ? EMPTY : encoder.encode(out.join(''));
  }

  /**
   * A `content_block_delta` of an open block from the template: the same text JSON.stringify writes for the event
   * object of `delta`, with the fragment alone serialised (`member` is the delta's type and its string member).
   */
  function templatedDelta(block: WireBlock, member: string, fragment: string): string {
    return `${DELTA_HEAD}${block.wireIndex},"delta":{"type":${member}:${JSON.stringify(fragment)}}}\n\n`;
  }

  /** The SSE text of one event (`''` for none). */
  function eventText(event: NormalizedStreamEventV4): string {
    if (finished) return '';
    if (templates && started) {
      // The deltas of a long answer, once `message_start` is out: no event object, no array of parts.
      switch (event.type) {
        case 'text-delta':
        case 'refusal-delta':
          return templatedDelta(openBlock(event.index, TEXT_KINDS), TEXT_DELTA_MEMBER, event.delta);
        case 'reasoning-delta':
          return templatedDelta(openBlock(event.index, THINKING_KINDS), THINKING_DELTA_MEMBER, event.delta);
        case 'tool-call-delta': {
          const block = openBlock(event.index, TOOL_KINDS);
          if (event.delta.length === 0) return '';
          block.argumentLength += event.delta.length;
          return templatedDelta(block, INPUT_JSON_DELTA_MEMBER, event.delta);
        }
        default:
          break;
      }
    }
    const out: string[] = [];
    if (event.type === 'usage') {
      usage = event.usage;
      ensureStarted(out);
      return out.join('');
    }
    ensureStarted(out);
    switch (event.type) {
      case 'text-start':
      case 'refusal-start':
        startBlock(out, event.index, 'text', { type: 'text', text: '' });
        break;
      case 'text-delta':
      case 'refusal-delta': {
        // Here only without templates, or as the stream's first event (after the `message_start` just written).
        delta(out, openBlock(event.index, TEXT_KINDS), { type: 'text_delta', text: event.delta });
        break;
      }
      case 'text-end':
      case 'refusal-end':
        stopBlock(out, event.index, openBlock(event.index, ['text']));
        break;
      case 'reasoning-start':
        startBlock(out, event.index, 'thinking', { type: 'thinking', thinking: '', signature: '' });
        break;
      case 'reasoning-delta':
        delta(out, openBlock(event.index, ['thinking']), { type: 'thinking_delta', thinking: event.delta });
        break;
      case 'reasoning-end': {
        const block = openBlock(event.index, ['thinking']);
        if (event.signature !== undefined) delta(out, block, { type: 'signature_delta', signature: event.signature });
        stopBlock(out, event.index, block);
        break;
      }
      case 'reasoning-redacted': {
        const wireIndex = startBlock(out, event.index, 'thinking', { type: 'redacted_thinking', data: event.data });
        open.delete(event.index);
        write(out, 'content_block_stop', { index: wireIndex });
        break;
      }
      case 'tool-call-start':
        startBlock(out, event.index, 'tool_use', { type: 'tool_use', id: event.toolCallId, name: event.toolName, input: {} });
        break;
      case 'tool-call-delta': {
        const block = openBlock(event.index, ['tool_use']);
        if (event.delta.length === 0) break;
        block.argumentLength += event.delta.length;
        delta(out, block, { type: 'input_json_delta', partial_json: event.delta });
        break;
      }
      case 'tool-call-end': {
        const block = openBlock(event.index, ['tool_use']);
        if (block.argumentLength === 0 && event.argumentsText.length > 0) {
          delta(out, block, { type: 'input_json_delta', partial_json: event.argumentsText });
        }
        stopBlock(out, event.index, block);
        break;
      }
      case 'compaction': {
        // As Anthropic streams it: the block opens empty, its whole summary is one `compaction_delta`.
        // `encrypted_content` travels on the delta (as the SDK's accumulator reads it), the other members on the block.
        const { encrypted_content: encrypted, ...blockFields } = anthropicCompactionFieldsOf(event.providerFields);
        const wireIndex = startBlock(out, event.index, 'compaction', { type: 'compaction', content: null, ...blockFields });
        write(out, 'content_block_delta', { index: wireIndex, delta: { type: 'compaction_delta', content: event.data, ...(encrypted === undefined ? {} : { encrypted_content: encrypted }) } });
        open.delete(event.index);
        write(out, 'content_block_stop', { index: wireIndex });
        break;
      }
      default: {
        const unknownEvent: never = event;
        throw new CodecErrorV1('invalid-request', `unknown stream event ${String((unknownEvent as { type: unknown }).type)}`);
      }
    }
    return out.join('');
  }

  return {
    contentType: 'text/event-stream',
    encodeEvent(event: NormalizedStreamEventV4): Uint8Array {
      const text = eventText(event);
      return text.length === 0 ? EMPTY : encoder.encode(text);
    },
    [EGRESS_STREAM_EVENT_TEXT_V1]: eventText,
    encodeTerminal(outcome: AdapterTerminalOutcome): Uint8Array {
      if (finished) return EMPTY;
      finished = true;
      const out: string[] = [];
      switch (outcome.status) {
        case 'completed': {
          if (outcome.usage !== undefined) usage = outcome.usage;
          ensureStarted(out);
          const stillOpen = [...open].map((index) => blocks.get(index) as WireBlock).sort((left, right) => left.wireIndex - right.wireIndex);
          for (const block of stillOpen) write(out, 'content_block_stop', { index: block.wireIndex });
          open.clear();
          write(out, 'message_delta', {
            delta: { stop_reason: encodeAnthropicStopReason(outcome.finishReason), stop_sequence: null },
            usage: encodeAnthropicWireUsage(usage),
          });
          write(out, 'message_stop', {});
          break;
        }
        case 'failed': {
          const error = mapAnthropicEgressError({ source: 'provider', failure: outcome.failure });
          write(out, 'error', { error: { type: error.type, message: error.message } });
          break;
        }
        case 'cancelled':
          write(out, 'error', { error: { type: ANTHROPIC_CANCELLED_ERROR.type, message: ANTHROPIC_CANCELLED_ERROR.message } });
          break;
        default: {
          const unknownOutcome: never = outcome;
          throw new CodecErrorV1('invalid-request', `unknown terminal ${String((unknownOutcome as { status: unknown }).status)}`);
        }
      }
      return bytes(out);
    },
  };
}
