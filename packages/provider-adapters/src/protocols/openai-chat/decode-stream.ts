import {
  CONTRACT_BOUNDS_V1 as BOUNDS,
  type AdapterTerminalOutcomeV3,
  type ChatOutputPartV1,
  type NormalizedStreamEventV3,
  type UsageV3,
} from '@tokenforge/model-protocol';
import {
  createToolCallAccumulator,
  DEFAULT_SAFE_JSON_MAX_BYTES,
  mergeUsageSnapshot,
  parseSafeJson,
  ProtocolViolationError,
  SSE_DONE_DATA,
  usageEquals,
  type AdapterStreamMachine,
  type AdapterStreamStep,
  type SseItem,
} from '../../codec-kit/index.js';
import { convertOpenAiChatUsage } from './convert-usage.js';
import { reportedCostField } from '../../codec-kit/reported-cost.js';
import type { CacheWriteReconciliation } from '../../codec-kit/usage-reconciliation.js';
import { OPENAI_CHAT_MULTIPLE_CHOICES_FAILURE } from './decode-response.js';
import { learnPlainChunkTemplate, readPlainChunkContent, type PlainChunkTemplate } from './decode-plain-chunk-template.js';
import { deriveOpenAiChatToolCallId } from './derive-tool-call-id.js';
import { mapOpenAiChatFinishReasonFailure, mapOpenAiChatInBandError } from './map-error.js';
import { mapOpenAiChatFinishReason } from './map-finish-reason.js';
import {
  OPENAI_CHAT_WIRE,
  readOpenAiChatChunk,
  readOpenAiChatError,
  type OpenAiChatWireMessage,
  type OpenAiChatWireToolCall,
} from './wire-readers.js';

/**
 * SSE event names this family accepts. Chat Completions sends none (the SSE default `message`); `error` is the
 * named mid-stream error some servers send. Any other name fails as `unexpected-event`.
 */
export const OPENAI_CHAT_KNOWN_SSE_EVENT_NAMES: readonly string[] = Object.freeze(['message', 'error']);

const OPEN_BRACE = 0x7b;
/** Templates a stream may learn (a server whose chunks never repeat their text stops being probed). */
const MAX_TEMPLATE_LEARNS = 3;
/** Longest chunk read from its template: one the safe parser's size check can never refuse. */
const MAX_TEMPLATE_CHUNK_LENGTH = DEFAULT_SAFE_JSON_MAX_BYTES / 3;

type TextKind = 'reasoning' | 'text' | 'refusal';

const TEXT_EVENT_TYPES = {
  reasoning: { start: 'reasoning-start', delta: 'reasoning-delta', end: 'reasoning-end' },
  text: { start: 'text-start', delta: 'text-delta', end: 'text-end' },
  refusal: { start: 'refusal-start', delta: 'refusal-delta', end: 'refusal-end' },
} as const;

interface TextBlock {
  readonly kind: TextKind;
  readonly index: number;
  readonly fragments: string[];
}

interface ToolCallState {
  readonly blockIndex: number;
  wireId: string | undefined;
  name: string | undefined;
  started: boolean;
  /** Gemini-compatible thought signature (first one sent wins), carried on `tool-call-end`. */
  signature: string | undefined;
  /** Argument fragments received before the name, emitted as one delta at the start. */
  pending: string[];
  /** Whether any fragment carried a `function.arguments` member. */
  sawArguments: boolean;
}

type BlockRecord = TextBlock | { readonly kind: 'tool-call'; readonly call: ToolCallState; argumentsText?: string };

/** The `openai-chat/v1` stream state machine over the kit's SSE items (decode with `bareJson: true`). */
export type OpenAiChatStreamMachine = AdapterStreamMachine<SseItem>;

/** Options of {@link createOpenAiChatStreamMachine}. */
export interface OpenAiChatStreamMachineOptions {
  /**
   * Whether a chunk that is only the next text fragment of the open text block skips the general reader (default
   * true): once one such chunk was read, later chunks with the same text around their content string are read
   * from that string alone (see `decode-plain-chunk-template.ts`), others are parsed and checked by a short
   * reader. Both paths give the same steps; tests turn it off to prove it.
   */
  readonly plainTextFastPath?: boolean;
  /** The currency of `usage.cost` (the host's `reportedCostCurrency`); unset, the cost is not read. */
  readonly reportedCostCurrency?: string;
}

const { violation } = OPENAI_CHAT_WIRE;

/**
 * Creates the state machine that turns Chat Completions SSE events into normalized events and one terminal.
 *
 * Rules:
 * - Frames: `data:` JSON chunks; `data: [DONE]` ends the stream; an event named `error`, a chunk with an
 *   `error` member, or a bare JSON `{"error":…}` body outside SSE framing, is a failed terminal
 *   (`mapOpenAiChatInBandError`); any other event name, and any other bare JSON, is refused.
 * - Chunks with `choices: []`, `null` or no `choices` (usage-only, Azure prompt-filter) are fine. A choice index
 *   other than 0 (the server answered `n > 1`, which this family never asks for) ends the stream as a failed,
 *   non-retryable `unsupported`.
 * - Block indexes are assigned in order of first appearance. Reasoning (`reasoning_content`, else `reasoning`),
 *   text (`content`) and refusal (`refusal`) each open a block on their first non-empty fragment; a fragment of
 *   another kind, or a tool call, ends the open text-like block first, so a later fragment opens a new block.
 *   Tool calls are keyed by `tool_calls[].index` (else by `id`, else the latest call), accumulated linearly by
 *   the kit's accumulator, and stay open until the finish reason: parallel calls may interleave. A call whose
 *   first fragment has no name is held (with its fragments) until the name arrives; an id the server never sent
 *   is derived from the block index. Empty `id: ""` on later fragments (Qwen) is ignored.
 * - The finish reason closes every open block, in index order; `stop` with tool calls is `tool-calls`. A call
 *   that never carried a `function.arguments` member (compatible relays, for a call with no arguments) gets
 *   the argument text `{}`, emitted as a delta before it closes.
 *   `error` and `insufficient_system_resource` finish reasons are failed terminals. Content after the finish
 *   reason is a protocol violation; usage after it is expected.
 * - Usage may come on any chunk (a final `choices: []` chunk, the finish chunk, or every chunk); it is merged as
 *   a cumulative snapshot (never summed), emitted when it changes, and must never decrease.
 * - `[DONE]` ends the answer even when no finish reason came (relays such as OpenRouter forward providers that
 *   send none): the open blocks close as at a finish reason and the reason is unknown, `other` without a raw value
 *   (`tool-calls` when the answer holds tool calls, as for a sync body with a null `finish_reason`), never
 *   `stop`. A body that ends without `[DONE]` is a failed, retryable `truncated-stream`, even after a finish
 *   reason and usage arrived: unlike the official SDK, which stops quietly, this family treats a missing end
 *   marker as a cut connection.
 */
export function createOpenAiChatStreamMachine(options?: OpenAiChatStreamMachineOptions): OpenAiChatStreamMachine {
  const plainTextFastPath = options?.plainTextFastPath !== false;
  const accumulator = createToolCallAccumulator();
  const cacheWrite: CacheWriteReconciliation = { dropped: false };
  const blocks: BlockRecord[] = [];
  const tools = new Map<string, ToolCallState>();
  const toolKeysById = new Map<string, string>();
  let latestToolKey: string | undefined;
  let openText: TextBlock | undefined;
  let finishRaw: string | undefined;
  let finished = false;
  let usage: UsageV3 | undefined;
  let costAmount: number | undefined;
  let template: PlainChunkTemplate | undefined;
  let templateLearns = 0;

  function closeText(events: NormalizedStreamEventV3[]): void {
    if (openText === undefined) return;
    events.push({ type: TEXT_EVENT_TYPES[openText.kind].end, index: openText.index });
    openText = undefined;
  }

  function appendText(kind: TextKind, fragment: string | undefined, events: NormalizedStreamEventV3[]): void {
    if (fragment === undefined || fragment.length === 0) return;
    if (finished) throw violation('sent content after the finish reason');
    if (openText !== undefined && openText.kind !== kind) closeText(events);
    if (openText === undefined) {
      openText = { kind, index: blocks.length, fragments: [] };
      blocks.push(openText);
      events.push({ type: TEXT_EVENT_TYPES[kind].start, index: openText.index });
    }
    openText.fragments.push(fragment);
    events.push({ type: TEXT_EVENT_TYPES[kind].delta, index: openText.index, delta: fragment });
  }

  function toolKeyOf(fragment: OpenAiChatWireToolCall): string {
    if (fragment.index !== undefined) return `index:${fragment.index}`;
    if (fragment.id !== undefined && fragment.id.length > 0) return toolKeysById.get(fragment.id) ?? `id:${fragment.id}`;
    if (latestToolKey === undefined) {
      throw new ProtocolViolationError('tool-call-unknown-index', 'openai-chat tool call fragment has neither index nor id');
    }
    return latestToolKey;
  }

  function startTool(call: ToolCallState, events: NormalizedStreamEventV3[]): void {
    const name = call.name as string;
    const toolCallId = call.wireId ?? deriveOpenAiChatToolCallId(call.blockIndex);
    if (name.length > BOUNDS.toolNameMaxLength || toolCallId.length > BOUNDS.toolCallIdMaxLength) throw violation('tool call name or id is too long');
    call.started = true;
    events.push({ type: 'tool-call-start', index: call.blockIndex, toolCallId, toolName: name });
    if (call.pending.length > 0) {
      events.push({ type: 'tool-call-delta', index: call.blockIndex, delta: call.pending.join('') });
      call.pending = [];
    }
  }

  function appendTool(fragment: OpenAiChatWireToolCall, events: NormalizedStreamEventV3[]): void {
    if (finished) throw violation('sent a tool call after the finish reason');
    const key = toolKeyOf(fragment);
    const id = fragment.id !== undefined && fragment.id.length > 0 ? fragment.id : undefined;
    const name = fragment.name !== undefined && fragment.name.length > 0 ? fragment.name : undefined;
    let call = tools.get(key);
    if (call === undefined) {
      closeText(events);
      call = { blockIndex: blocks.length, wireId: id, name, started: false, signature: undefined, pending: [], sawArguments: false };
      blocks.push({ kind: 'tool-call', call });
      tools.set(key, call);
      accumulator.open(call.blockIndex);
      if (id !== undefined) toolKeysById.set(id, key);
      if (name !== undefined) startTool(call, events);
    } else {
      if (id !== undefined) {
        if (call.wireId === undefined && !call.started) {
          call.wireId = id;
          toolKeysById.set(id, key);
        } else if (call.wireId !== undefined && call.wireId !== id) {
          throw new ProtocolViolationError('tool-call-duplicate-index', 'openai-chat tool call index reused by another id');
        }
      }
      if (name !== undefined) {
        if (call.name === undefined) {
          call.name = name;
          startTool(call, events);
        } else if (call.name !== name) {
          throw violation('tool call name changed between fragments');
        }
      }
    }
    call.signature ??= fragment.signature;
    latestToolKey = key;
    const fragmentText = fragment.arguments;
    if (fragmentText !== undefined) call.sawArguments = true;
    if (fragmentText === undefined || fragmentText.length === 0) return;
    accumulator.append(call.blockIndex, fragmentText);
    if (call.started) events.push({ type: 'tool-call-delta', index: call.blockIndex, delta: fragmentText });
    else call.pending.push(fragmentText);
  }

  function applyDelta(delta: OpenAiChatWireMessage, events: NormalizedStreamEventV3[]): void {
    if (delta.role !== undefined && delta.role !== 'assistant' && delta.role !== '') {
      throw violation('delta.role must be "assistant"');
    }
    appendText('reasoning', delta.reasoning_content ?? delta.reasoning, events);
    appendText('text', delta.content, events);
    appendText('refusal', delta.refusal, events);
    if (delta.tool_calls !== undefined) for (const fragment of delta.tool_calls) appendTool(fragment, events);
    if (delta.function_call !== undefined) {
      appendTool({ index: Number.MAX_SAFE_INTEGER, ...delta.function_call }, events);
    }
  }

  function finish(raw: string | undefined, events: NormalizedStreamEventV3[]): void {
    finishRaw = raw;
    if (finished) return;
    finished = true;
    closeText(events);
    for (const record of blocks) {
      // Tolerance of real traffic: compatible relays leave `function.arguments` out of a call with no arguments.
      if (record.kind !== 'tool-call' || record.call.sawArguments || !record.call.started) continue;
      accumulator.append(record.call.blockIndex, '{}');
      events.push({ type: 'tool-call-delta', index: record.call.blockIndex, delta: '{}' });
    }
    for (const closed of accumulator.closeAll()) {
      const record = blocks[closed.index];
      if (record === undefined || record.kind !== 'tool-call') throw violation('tool call block is missing');
      if (!record.call.started) throw violation('tool call ended without a name');
      record.argumentsText = closed.argumentsText;
      const signature = record.call.signature;
      events.push({
        type: 'tool-call-end',
        index: closed.index,
        argumentsText: closed.argumentsText,
        ...(signature === undefined ? {} : { signature }),
      });
    }
  }

  function failed(failure: Parameters<typeof failedTerminal>[0]): AdapterStreamStep {
    return { terminal: failedTerminal(failure, usage) };
  }

  function completed(): AdapterStreamStep {
    // `[DONE]` is the protocol's end marker: a relay that never sent a finish reason still finished the answer.
    const closing: NormalizedStreamEventV3[] = [];
    if (!finished) finish(undefined, closing);
    const content: ChatOutputPartV1[] = blocks.map((record): ChatOutputPartV1 => {
      if (record.kind === 'tool-call') {
        return {
          type: 'tool-call',
          toolCallId: record.call.wireId ?? deriveOpenAiChatToolCallId(record.call.blockIndex),
          toolName: record.call.name as string,
          argumentsText: record.argumentsText ?? '',
          ...(record.call.signature === undefined ? {} : { signature: record.call.signature }),
        };
      }
      return { type: record.kind, text: record.fragments.join('') };
    });
    const hasToolCalls = blocks.some((record) => record.kind === 'tool-call');
    return {
      ...(closing.length === 0 ? {} : { events: closing }),
      terminal: {
        status: 'completed',
        result: { kind: 'chat', content },
        finishReason: mapOpenAiChatFinishReason(finishRaw, hasToolCalls),
        ...(usage === undefined ? {} : { usage }),
        ...reportedCostField(costAmount, options?.reportedCostCurrency),
      },
    };
  }

  /**
   * The step for a chunk that only continues the open text block (most chunks of a text answer), or `undefined`
   * when the chunk needs the general reader: one choice at index 0 whose delta has a non-empty `content` and no
   * other known member, no finish reason, usage or error, and a `model` the reader would accept.
   */
  function plainTextStep(value: unknown): AdapterStreamStep | undefined {
    // The finish reason closes the open block, so an open text block also means the stream has not finished.
    if (openText === undefined || openText.kind !== 'text') return undefined;
    const content = plainTextContent(value);
    if (content === undefined) return undefined;
    openText.fragments.push(content);
    return { events: [{ type: 'text-delta', index: openText.index, delta: content }] };
  }

  function onData(data: string): AdapterStreamStep | undefined {
    if (plainTextFastPath && template !== undefined && openText !== undefined && openText.kind === 'text' && data.length <= MAX_TEMPLATE_CHUNK_LENGTH) {
      const content = readPlainChunkContent(data, template);
      if (content !== undefined && content.length > 0) {
        openText.fragments.push(content);
        return { events: [{ type: 'text-delta', index: openText.index, delta: content }] };
      }
    }
    const value = parseSafeJson(data);
    if (plainTextFastPath) {
      const step = plainTextStep(value);
      if (step !== undefined) {
        if (templateLearns < MAX_TEMPLATE_LEARNS && (template === undefined || readPlainChunkContent(data, template) === undefined)) {
          templateLearns += 1;
          template = learnPlainChunkTemplate(data, (step.events?.[0] as { delta: string }).delta, parseSafeJson, plainTextContent) ?? template;
        }
        return step;
      }
    }
    const chunk = readOpenAiChatChunk(value);
    const events: NormalizedStreamEventV3[] = [];
    const chunkUsage = chunk.usage === undefined ? undefined : convertOpenAiChatUsage(chunk.usage, cacheWrite);
    // The cost is a figure for the whole request: the last one sent wins.
    if (chunk.usage?.cost !== undefined) costAmount = chunk.usage.cost;
    if (chunk.error !== undefined) {
      if (chunkUsage !== undefined) usage = mergeUsageSnapshot(usage, chunkUsage);
      return failed(mapOpenAiChatInBandError(chunk.error));
    }
    if (chunk.choices.length > 1) return failed(OPENAI_CHAT_MULTIPLE_CHOICES_FAILURE);
    const choice = chunk.choices[0];
    if (choice !== undefined) {
      if (choice.index !== 0) return failed(OPENAI_CHAT_MULTIPLE_CHOICES_FAILURE);
      applyDelta(choice.message, events);
      if (choice.finish_reason !== undefined) {
        const finishFailure = mapOpenAiChatFinishReasonFailure(choice.finish_reason);
        if (finishFailure !== undefined) {
          if (chunkUsage !== undefined) usage = mergeUsageSnapshot(usage, chunkUsage);
          return failed(finishFailure);
        }
        finish(choice.finish_reason, events);
      }
    }
    if (chunkUsage !== undefined) {
      const merged = mergeUsageSnapshot(usage, chunkUsage);
      if (!usageEquals(usage, merged)) events.push({ type: 'usage', usage: merged });
      usage = merged;
    }
    return events.length === 0 ? undefined : { events };
  }

  return {
    onFrame(item) {
      switch (item.kind) {
        case 'comment':
          return undefined;
        case 'bare-json': {
          // A server that fails after accepting a stream request may answer with a plain JSON error body.
          const payload = parseSafeJson(item.text);
          const error = typeof payload === 'object' && payload !== null && 'error' in payload ? readOpenAiChatError(payload.error) : undefined;
          if (error === undefined) throw new ProtocolViolationError('unexpected-event', 'openai-chat stream carried JSON outside an SSE event');
          return failed(mapOpenAiChatInBandError(error));
        }
        case 'event':
          break;
        default: {
          const unknownItem: never = item;
          throw new ProtocolViolationError('unexpected-event', `openai-chat unknown SSE item ${String(unknownItem)}`);
        }
      }
      if (item.event !== undefined && !OPENAI_CHAT_KNOWN_SSE_EVENT_NAMES.includes(item.event)) {
        throw new ProtocolViolationError('unexpected-event', 'openai-chat stream sent an unknown SSE event name');
      }
      if (item.event === 'error') {
        const payload = parseSafeJson(item.data);
        const envelope = typeof payload === 'object' && payload !== null && 'error' in payload ? (payload as { error: unknown }).error : payload;
        return failed(mapOpenAiChatInBandError(readOpenAiChatError(envelope) ?? {}));
      }
      // A JSON chunk starts with `{`; only other data can be the end marker.
      if (item.data.charCodeAt(0) !== OPEN_BRACE && item.data.trim() === SSE_DONE_DATA) return completed();
      return onData(item.data);
    },
    onEnd() {
      return undefined;
    },
    usageSoFar: () => usage,
  };
}

/**
 * The content of a chunk that is only a text fragment: one choice at index 0 whose delta has a non-empty `content`
 * and no other known member, no finish reason, usage or error, and a `model` the reader would accept; else
 * `undefined` (the chunk needs the general reader).
 */
function plainTextContent(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const chunk = value as Record<string, unknown>;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1 || chunk.error !== undefined || chunk.usage != null) return undefined;
  const model = chunk.model;
  if (model != null && typeof model !== 'string') return undefined;
  const choice = choices[0] as unknown;
  if (typeof choice !== 'object' || choice === null || Array.isArray(choice)) return undefined;
  const { index, finish_reason: finishReason, delta } = choice as Record<string, unknown>;
  if (index !== 0 || finishReason != null || typeof delta !== 'object' || delta === null || Array.isArray(delta)) return undefined;
  const fields = delta as Record<string, unknown>;
  const content = fields.content;
  if (typeof content !== 'string' || content.length === 0) return undefined;
  if (fields.role != null || fields.refusal != null || fields.reasoning_content != null || fields.reasoning != null) return undefined;
  if (fields.tool_calls != null || fields.function_call != null) return undefined;
  return content;
}

function failedTerminal(
  failure: Extract<AdapterTerminalOutcomeV3, { status: 'failed' }>['failure'],
  usage: UsageV3 | undefined,
): AdapterTerminalOutcomeV3 {
  return { status: 'failed', failure, ...(usage === undefined ? {} : { usage }) };
}
