import type {
  AdapterStreamPartV1,
  AdapterTerminalOutcomeV4,
  ChatOutputPartV4,
  NormalizedStreamEventV4,
  ProviderDiagnosticV3,
  UsageV3,
} from '@tokenforge/model-protocol';
import { reportDiagnostic } from '../../codec-kit/diagnostic-for-error.js';
import {
  ProtocolViolationError,
  assertUsageConsistent,
  createAdapterStreamParts,
  createToolCallAccumulator,
  dropInconsistentUsageDetails,
  mergeUsageSnapshot,
  parseSafeJson,
  usageEquals,
  type AdapterStreamMachine,
  type AdapterStreamStep,
  type SseItem,
} from '../../codec-kit/index.js';
import { anthropicCompactionFieldsText } from './wire-compaction-fields.js';
import { convertAnthropicUsage, type AnthropicWireUsage } from './convert-usage.js';
import { mapAnthropicError } from './map-error.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { createPlainDeltaTextReader } from './decode-plain-delta-text.js';
import { readAnthropicStreamEvent, type AnthropicWireContentBlock, type AnthropicWireDelta } from './wire-readers.js';

/** Options of {@link createAnthropicMessagesStreamMachine}. */
export interface AnthropicMessagesStreamMachineOptions {
  /** The execution's diagnostics callback: told why a stream ended `protocol-violation` without a throw. */
  readonly reportDiagnostic?: ((diagnostic: ProviderDiagnosticV3) => void) | undefined;
  /** Response headers with lower-case names (retry hints of a mid-stream error). */
  readonly headers: Readonly<Record<string, string>>;
  /** The current time in epoch milliseconds. */
  readonly nowMs: number;
  /**
   * Whether a `content_block_delta` that only continues an open text or tool block skips the general event
   * reader, and, written in the API's compact spelling, the parse of the whole event (default true). Both paths
   * give the same steps; tests turn it off to prove it.
   */
  readonly plainDeltaFastPath?: boolean;
}

type OpenBlock =
  | { readonly kind: 'text'; readonly fragments: string[] }
  | { readonly kind: 'thinking'; readonly fragments: string[]; readonly signature: string[] }
  | { readonly kind: 'redacted'; readonly data: string }
  | { readonly kind: 'tool'; readonly toolCallId: string; readonly toolName: string; textLength: number }
  | { readonly kind: 'compaction'; content: string | null; fields: Record<string, unknown> | undefined }
  | { readonly kind: 'server-tool' };

function invalid(rule: string): ProtocolViolationError {
  return new ProtocolViolationError('invalid-event', `anthropic-messages stream ${rule}`);
}

/**
 * The Messages stream state machine (fact sheet §3.7). Each wire content block index is the normalized block
 * index. Rules:
 * - `message_start` comes first (only `ping` may precede it); a repeated `message_start` with the same id is
 *   ignored (some proxies resend it), a different id is a violation;
 * - a block starts once, takes deltas of its own kind only, and stops once; a delta or stop for an index
 *   that is not open is a violation, and so is `message_stop` with a block still open;
 * - `text` → text-start/delta/end; `thinking` → reasoning-start/delta/end, the `signature_delta` fragments
 *   joined into the reasoning-end signature; `redacted_thinking` → one reasoning-redacted event; `tool_use`
 *   → tool-call-start/delta/end with the `partial_json` fragments accumulated linearly (empty fragments are
 *   not forwarded). A tool block that streamed no argument text yields one `{}` delta, so its arguments read
 *   `{}` exactly like the sync body's `input: {}`. A `compaction` block (its summary in one `compaction_delta`)
 *   is one whole `compaction` event at its `content_block_stop` (none for a failed compaction, `content: null`).
 *   Server-tool blocks and `citations_delta` are skipped;
 * - `message_start` usage, then each cumulative `message_delta` usage (whose fields override the earlier ones),
 *   is converted by `convertAnthropicUsage` and emitted as a snapshot when it changed; a field that goes down
 *   is a violation;
 * - `message_stop` is the terminal marker: `completed` with the blocks in index order, the last
 *   `message_delta` stop reason and the last usage. A tool call whose argument text is not JSON is accepted
 *   only when the stop reason means `length` (the provider cut it off); otherwise the terminal is a failed
 *   `protocol-violation`;
 * - an `error` event ends the stream as a failed terminal (`mapAnthropicError`), with the usage so far.
 */
export function createAnthropicMessagesStreamMachine(options: AnthropicMessagesStreamMachineOptions): AdapterStreamMachine<SseItem> {
  let messageId: string | undefined;
  let rawUsage: AnthropicWireUsage = {};
  let usage: UsageV3 | undefined;
  let stopReason: string | null = null;
  let invalidToolArguments = false;
  const open = new Map<number, OpenBlock>();
  const closed = new Set<number>();
  const parts = new Map<number, ChatOutputPartV4>();
  const tools = createToolCallAccumulator();
  const plainDeltaFastPath = options.plainDeltaFastPath !== false;
  const readPlainDeltaText = createPlainDeltaTextReader();

  function updateUsage(wire: AnthropicWireUsage, events: NormalizedStreamEventV4[]): void {
    rawUsage = { ...rawUsage, ...definedEntries(wire) };
    const next = assertUsageConsistent(mergeUsageSnapshot(usage, dropInconsistentUsageDetails(convertAnthropicUsage(rawUsage))));
    if (usage !== undefined && usageEquals(usage, next)) return;
    usage = next;
    events.push({ type: 'usage', usage: next });
  }

  function startBlock(index: number, block: AnthropicWireContentBlock, events: NormalizedStreamEventV4[]): void {
    if (open.has(index) || closed.has(index)) throw invalid(`block ${index} started twice`);
    switch (block.type) {
      case 'text':
        open.set(index, { kind: 'text', fragments: block.text.length === 0 ? [] : [block.text] });
        events.push({ type: 'text-start', index });
        if (block.text.length > 0) events.push({ type: 'text-delta', index, delta: block.text });
        return;
      case 'thinking':
        open.set(index, {
          kind: 'thinking',
          fragments: block.thinking.length === 0 ? [] : [block.thinking],
          signature: block.signature.length === 0 ? [] : [block.signature],
        });
        events.push({ type: 'reasoning-start', index });
        if (block.thinking.length > 0) events.push({ type: 'reasoning-delta', index, delta: block.thinking });
        return;
      case 'redacted_thinking':
        open.set(index, { kind: 'redacted', data: block.data });
        events.push({ type: 'reasoning-redacted', index, data: block.data });
        return;
      case 'tool_use': {
        open.set(index, { kind: 'tool', toolCallId: block.id, toolName: block.name, textLength: 0 });
        tools.open(index, { toolCallId: block.id, toolName: block.name });
        events.push({ type: 'tool-call-start', index, toolCallId: block.id, toolName: block.name });
        // Ignore the `input: {}` placeholder; a pre-filled input (programmatic tool calling) is the first fragment.
        if (Object.keys(block.input).length > 0) appendToolText(index, JSON.stringify(block.input), events);
        return;
      }
      case 'compaction':
        open.set(index, { kind: 'compaction', content: block.content, fields: block.fields });
        return;
      case 'server-tool':
        open.set(index, { kind: 'server-tool' });
        return;
      default: {
        const unknownBlock: never = block;
        throw invalid(`block type ${String((unknownBlock as { type: unknown }).type)} is not handled`);
      }
    }
  }

  function appendToolText(index: number, fragment: string, events: NormalizedStreamEventV4[]): void {
    if (fragment.length === 0) return;
    tools.append(index, fragment);
    const block = open.get(index);
    if (block?.kind === 'tool') block.textLength += fragment.length;
    events.push({ type: 'tool-call-delta', index, delta: fragment });
  }

  function applyDelta(index: number, delta: AnthropicWireDelta, events: NormalizedStreamEventV4[]): void {
    const block = open.get(index);
    if (block === undefined) throw invalid(closed.has(index) ? `delta for closed block ${index}` : `delta for unopened block ${index}`);
    if (delta.type === 'harmless') return;
    switch (block.kind) {
      case 'text':
        if (delta.type !== 'text_delta') throw invalid(`${delta.type} inside a text block`);
        if (delta.text.length === 0) return;
        block.fragments.push(delta.text);
        events.push({ type: 'text-delta', index, delta: delta.text });
        return;
      case 'thinking':
        if (delta.type === 'signature_delta') {
          if (delta.signature.length > 0) block.signature.push(delta.signature);
          return;
        }
        if (delta.type !== 'thinking_delta') throw invalid(`${delta.type} inside a thinking block`);
        if (delta.thinking.length === 0) return;
        block.fragments.push(delta.thinking);
        events.push({ type: 'reasoning-delta', index, delta: delta.thinking });
        return;
      case 'tool':
        if (delta.type !== 'input_json_delta') throw invalid(`${delta.type} inside a tool_use block`);
        appendToolText(index, delta.partial_json, events);
        return;
      case 'compaction':
        // The delta carries the block's final summary (the SDK's accumulator assigns it), not a fragment.
        if (delta.type !== 'compaction_delta') throw invalid(`${delta.type} inside a compaction block`);
        block.content = delta.content;
        if (delta.fields !== undefined) block.fields = { ...block.fields, ...delta.fields };
        return;
      case 'server-tool':
        if (delta.type !== 'input_json_delta') throw invalid(`${delta.type} inside a skipped block`);
        return;
      case 'redacted':
        throw invalid('delta inside a redacted_thinking block');
      default: {
        const unknownBlock: never = block;
        throw invalid(`block kind ${String((unknownBlock as { kind: unknown }).kind)} is not handled`);
      }
    }
  }

  function stopBlock(index: number, events: NormalizedStreamEventV4[]): void {
    const block = open.get(index);
    if (block === undefined) throw invalid(closed.has(index) ? `block ${index} stopped twice` : `stop for unopened block ${index}`);
    open.delete(index);
    closed.add(index);
    switch (block.kind) {
      case 'text':
        parts.set(index, { type: 'text', text: block.fragments.join('') });
        events.push({ type: 'text-end', index });
        return;
      case 'thinking': {
        const signature = block.signature.join('');
        parts.set(index, { type: 'reasoning', text: block.fragments.join(''), ...(signature.length === 0 ? {} : { signature }) });
        events.push({ type: 'reasoning-end', index, ...(signature.length === 0 ? {} : { signature }) });
        return;
      }
      case 'redacted':
        parts.set(index, { type: 'redacted-reasoning', data: block.data });
        return;
      case 'tool': {
        if (block.textLength === 0) {
          tools.append(index, '{}');
          events.push({ type: 'tool-call-delta', index, delta: '{}' });
        }
        const call = tools.close(index);
        if (!isJson(call.argumentsText)) invalidToolArguments = true;
        parts.set(index, { type: 'tool-call', toolCallId: block.toolCallId, toolName: block.toolName, argumentsText: call.argumentsText });
        events.push({ type: 'tool-call-end', index, argumentsText: call.argumentsText });
        return;
      }
      case 'compaction':
        // A failed compaction (`content: null`) is a no-op at the API: nothing to carry.
        if (block.content === null) return;
        {
          const providerFields = anthropicCompactionFieldsText(block.fields);
          const fields = providerFields === undefined ? {} : { providerFields };
          parts.set(index, { type: 'compaction', data: block.content, ...fields });
          events.push({ type: 'compaction', index, data: block.content, ...fields });
        }
        return;
      case 'server-tool':
        return;
      default: {
        const unknownBlock: never = block;
        throw invalid(`block kind ${String((unknownBlock as { kind: unknown }).kind)} is not handled`);
      }
    }
  }

  function finish(): AdapterTerminalOutcomeV4 {
    if (open.size > 0) throw invalid('message_stop with a content block still open');
    const finishReason = mapAnthropicStopReason(stopReason);
    const withUsage = usage === undefined ? {} : { usage };
    if (invalidToolArguments && finishReason.unified !== 'length') {
      reportDiagnostic(options.reportDiagnostic, {
        code: 'protocol-violation',
        rule: 'anthropic-messages tool_use input is not a JSON object',
        location: 'content_block_delta.delta.partial_json',
        expected: 'the concatenated partial_json of a tool_use block parses as a JSON object',
      });
      return { status: 'failed', failure: { code: 'protocol-violation', retryable: false }, ...withUsage };
    }
    const content = [...parts.entries()].sort(([left], [right]) => left - right).map(([, part]) => part);
    return { status: 'completed', result: { kind: 'chat', content }, finishReason, ...withUsage };
  }

  /**
   * The step for a `content_block_delta` that continues an open text block with a `text_delta` or an open
   * tool_use block with an `input_json_delta` (nearly every event of a long answer), or `false` when the event
   * needs the general reader. Only members the reader would read are looked at, so the outcome is the same.
   */
  function plainDeltaStep(value: unknown, eventName: string | undefined): AdapterStreamStep | undefined | false {
    if (typeof value !== 'object' || value === null) return false;
    const event = value as Record<string, unknown>;
    if (event.type !== 'content_block_delta' || (eventName !== undefined && eventName !== 'content_block_delta')) return false;
    const index = event.index;
    const delta = event.delta;
    if (typeof index !== 'number' || typeof delta !== 'object' || delta === null || Array.isArray(delta)) return false;
    const fields = delta as Record<string, unknown>;
    if (fields.type === 'text_delta' && typeof fields.text === 'string') return plainFragmentStep(index, 'text', fields.text);
    if (fields.type === 'input_json_delta' && typeof fields.partial_json === 'string') return plainFragmentStep(index, 'tool', fields.partial_json);
    return false;
  }

  /** The step of a plain text or tool fragment for block `index`, or `false` when that block is not open with that kind. */
  function plainFragmentStep(index: number, kind: 'text' | 'tool', fragment: string): AdapterStreamStep | undefined | false {
    // Blocks open only at a content_block_start the reader accepted after message_start, so an open block proves
    // both the index and the order valid.
    const block = open.get(index);
    if (block === undefined || block.kind !== kind) return false;
    if (block.kind === 'text') {
      if (fragment.length === 0) return undefined;
      block.fragments.push(fragment);
      return { events: [{ type: 'text-delta', index, delta: fragment }] };
    }
    const events: NormalizedStreamEventV4[] = [];
    appendToolText(index, fragment, events);
    return events.length === 0 ? undefined : { events };
  }

  return {
    onFrame(frame): AdapterStreamStep | undefined {
      if (frame.kind !== 'event') return undefined;
      if (plainDeltaFastPath && (frame.event === undefined || frame.event === 'content_block_delta')) {
        // The compact wire spelling is read without parsing the whole event; what it reads equals the parse.
        const plain = readPlainDeltaText(frame.data);
        if (plain !== undefined) {
          const step = plainFragmentStep(plain.index, plain.kind, plain.fragment);
          if (step !== false) return step;
        }
      }
      const value = parseSafeJson(frame.data);
      if (plainDeltaFastPath) {
        const step = plainDeltaStep(value, frame.event);
        if (step !== false) return step;
      }
      const event = readAnthropicStreamEvent(value, frame.event);
      const events: NormalizedStreamEventV4[] = [];
      if (messageId === undefined && event.type !== 'message_start' && event.type !== 'harmless' && event.type !== 'error') {
        throw invalid(`${event.type} before message_start`);
      }
      switch (event.type) {
        case 'message_start':
          if (messageId !== undefined) {
            if (event.id !== messageId) throw invalid('message_start for a second message');
            return undefined;
          }
          messageId = event.id;
          updateUsage(event.usage, events);
          break;
        case 'content_block_start':
          startBlock(event.index, event.block, events);
          break;
        case 'content_block_delta':
          applyDelta(event.index, event.delta, events);
          break;
        case 'content_block_stop':
          stopBlock(event.index, events);
          break;
        case 'message_delta':
          if (event.stop_reason !== null) stopReason = event.stop_reason;
          updateUsage(event.usage, events);
          break;
        case 'message_stop':
          return { events, terminal: finish() };
        case 'harmless':
          return undefined;
        case 'error':
          return {
            terminal: {
              status: 'failed',
              failure: mapAnthropicError({ status: 200, headers: options.headers, error: event.error, nowMs: options.nowMs }),
              ...(usage === undefined ? {} : { usage }),
            },
          };
        default: {
          const unknownEvent: never = event;
          throw invalid(`event ${String((unknownEvent as { type: unknown }).type)} is not handled`);
        }
      }
      return events.length === 0 ? undefined : { events };
    },
    usageSoFar: () => usage,
  };
}

/** Input of {@link decodeAnthropicMessagesStream}. */
export interface DecodeAnthropicMessagesStreamInput extends AnthropicMessagesStreamMachineOptions {
  /** The 200 response body; the returned parts own and release it. */
  readonly body: AsyncIterable<Uint8Array>;
  /** The execution's signal. */
  readonly signal: AbortSignal;
}

/** Decodes a Messages SSE body into adapter stream parts (events, then exactly one terminal). */
export function decodeAnthropicMessagesStream(input: DecodeAnthropicMessagesStreamInput): AsyncIterable<AdapterStreamPartV1> {
  return createAdapterStreamParts({
    body: input.body,
    sse: {},
    machine: createAnthropicMessagesStreamMachine({ headers: input.headers, nowMs: input.nowMs, reportDiagnostic: input.reportDiagnostic }),
    signal: input.signal,
    reportDiagnostic: input.reportDiagnostic,
  });
}

function definedEntries(wire: AnthropicWireUsage): AnthropicWireUsage {
  const result: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(wire)) if (typeof value === 'number' || typeof value === 'string') result[key] = value;
  return result;
}

function isJson(text: string): boolean {
  try {
    parseSafeJson(text);
    return true;
  } catch {
    return false;
  }
}
