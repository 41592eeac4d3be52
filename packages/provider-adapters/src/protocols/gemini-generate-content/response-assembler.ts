import type {
  AdapterTerminalOutcome,
  ChatOutputPartV1,
  FinishReasonV1,
  NormalizedStreamEventV1,
  UsageV1,
} from '@tokenforge/model-protocol';
import { createToolCallAccumulator, type ToolCallAccumulator } from '../../codec-kit/tool-call-accumulator.js';
import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { mergeUsageSnapshot, usageEquals } from '../../codec-kit/usage-reconciliation.js';
import { convertGeminiUsage, mergeGeminiUsageWire } from './convert-usage.js';
import { mapGeminiStreamError } from './map-error.js';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './map-finish-reason.js';
import { createPartialArgsWriter, type PartialArgsWriter } from './partial-args-writer.js';
import { deriveResponseToolCallId } from './tool-call-id.js';
import type { GeminiFunctionCallPartWire, GeminiResponseWire, GeminiUsageWire } from './wire-readers.js';

type TextBlock = { readonly kind: 'text' | 'reasoning'; readonly index: number; readonly chunks: string[]; signature?: string };
type ToolBlock = {
  readonly kind: 'tool-call';
  readonly index: number;
  readonly toolCallId: string;
  readonly toolName: string;
  argumentsText: string;
  signature: string | undefined;
};
type Block = TextBlock | ToolBlock;

interface StreamedCall {
  readonly block: ToolBlock;
  readonly writer: PartialArgsWriter;
}

/**
 * The Gemini response state machine, shared by the whole-body decoder and the stream decoder so that both
 * read a response the same way. Feed it each `GenerateContentResponse` (the body, or every stream chunk) in
 * order; it returns the normalized events each one adds, then `finish()` gives the terminal.
 *
 * Rules (fact sheet §4.3-4.5):
 * - text parts are deltas of the open text block; consecutive `thought: true` parts are deltas of the open
 *   reasoning block; a change of kind closes the open block and opens the next (block indexes count from 0);
 * - a `thoughtSignature` on a thought part ends its reasoning block with that signature. On a visible text
 *   part (often the empty final `{text: "", thoughtSignature}`), or on a part kind that is read past, it
 *   ends the open reasoning block when there is one and the part adds no text; otherwise it becomes an empty
 *   reasoning block right after the text, so that it is kept for replay (text blocks carry no signature);
 * - a `functionCall` with whole `args` (absent means `{}`) is one tool call: start, one delta with the
 *   arguments as `JSON.stringify` writes them, end with the part's signature. Vertex streamed calls (`name` +
 *   `willContinue`, then `partialArgs` pieces) are written incrementally by `createPartialArgsWriter` and end
 *   at an empty `functionCall: {}`, a piece without `willContinue`, the next named call, or the finish reason;
 * - the call id is `functionCall.id`, else derived (see `deriveResponseToolCallId`);
 * - `finishReason` closes everything and marks the response finished; candidate content after it is a
 *   violation, usage-only chunks after it are merged;
 * - `promptFeedback.blockReason` finishes the response as `content-filter` with no content;
 * - an `error` object ends the response as a failed terminal (`mapGeminiStreamError`);
 * - `usageMetadata` is cumulative: counts are merged per field (a chunk without counts erases nothing) and a
 *   `usage` event is emitted whenever the normalized figures change.
 */
export class GeminiResponseAssembler {
  private readonly blocks: Block[] = [];
  private readonly toolCalls: ToolCallAccumulator = createToolCallAccumulator();
  private open: TextBlock | undefined;
  private streamedCall: StreamedCall | undefined;
  private callOrdinal = 0;
  private responseId: string | undefined;
  private finishReason: FinishReasonV1 | undefined;
  private rawFinishReason: string | undefined;
  private failure: AdapterTerminalOutcome | undefined;
  private usageWire: GeminiUsageWire | undefined;
  private usage: UsageV1 | undefined;
  private events: NormalizedStreamEventV1[] = [];

  /** The model version the provider reported first, if any. */
  modelVersion: string | undefined;

  /** Maps one response; returns the events it adds. */
  push(response: GeminiResponseWire): NormalizedStreamEventV1[] {
    this.events = [];
    if (this.failure !== undefined) throw new ProtocolViolationError('event-after-terminal', 'chunk after an error');
    if (response.error !== undefined) {
      this.closeAll();
      this.failure = {
        status: 'failed',
        failure: mapGeminiStreamError(response.error),
        ...(this.usage === undefined ? {} : { usage: this.usage }),
      };
      return this.events;
    }
    this.responseId ??= response.responseId;
    this.modelVersion ??= response.modelVersion;
    const finished = this.finishReason !== undefined;
    if (finished && (response.parts.length > 0 || (response.blockReason !== undefined && !this.isBlocked()))) {
      throw new ProtocolViolationError('event-after-terminal', 'content after the finish reason');
    }
    for (const part of response.parts) {
      switch (part.kind) {
        case 'text':
          if (part.thought) this.onThought(part.text, part.signature);
          else this.onText(part.text, part.signature);
          break;
        case 'function-call':
          this.onFunctionCall(part);
          break;
        case 'ignored':
          if (part.signature !== undefined) this.onText('', part.signature);
          break;
        default: {
          const unexpected: never = part;
          throw new ProtocolViolationError('invalid-event', `unknown part ${String(unexpected)}`);
        }
      }
    }
    if (response.finishReason !== undefined) {
      if (finished) {
        if (response.finishReason !== this.rawFinishReason) {
          throw new ProtocolViolationError('invalid-event', 'finish reason changed');
        }
      } else {
        this.closeAll();
        this.rawFinishReason = response.finishReason;
        this.finishReason = mapGeminiFinishReason(response.finishReason, this.blocks.some((block) => block.kind === 'tool-call'));
      }
    } else if (response.blockReason !== undefined && !finished) {
      if (this.blocks.length > 0) throw new ProtocolViolationError('invalid-event', 'prompt blocked after content');
      this.finishReason = mapGeminiBlockReason(response.blockReason);
    }
    if (response.usage !== undefined) this.onUsage(response.usage);
    return this.events;
  }

  /**
   * The terminal once the response ended: completed when a finish reason (or block reason) arrived, the
   * failed terminal of an error object, or `undefined` when the response never finished (the caller reports
   * it as truncated).
   */
  finish(): AdapterTerminalOutcome | undefined {
    if (this.failure !== undefined) return this.failure;
    if (this.finishReason === undefined) return undefined;
    const content: ChatOutputPartV1[] = this.blocks.map((block) => {
      switch (block.kind) {
        case 'text':
          return { type: 'text', text: block.chunks.join('') };
        case 'reasoning':
          return { type: 'reasoning', text: block.chunks.join(''), ...(block.signature === undefined ? {} : { signature: block.signature }) };
        case 'tool-call':
          return {
            type: 'tool-call',
            toolCallId: block.toolCallId,
            toolName: block.toolName,
            argumentsText: block.argumentsText,
            ...(block.signature === undefined ? {} : { signature: block.signature }),
          };
        default: {
          const unexpected: never = block;
          throw new ProtocolViolationError('invalid-event', `unknown block ${String(unexpected)}`);
        }
      }
    });
    return {
      status: 'completed',
      result: { kind: 'chat', content },
      finishReason: this.finishReason,
      ...(this.usage === undefined ? {} : { usage: this.usage }),
    };
  }

  /** Usage reported so far. */
  usageSoFar(): UsageV1 | undefined {
    return this.usage;
  }

  private isBlocked(): boolean {
    return this.finishReason !== undefined && this.rawFinishReason === undefined;
  }

  private onText(text: string, signature: string | undefined): void {
    if (text.length > 0) {
      const block = this.openBlock('text');
      block.chunks.push(text);
      this.events.push({ type: 'text-delta', index: block.index, delta: text });
    }
    if (signature === undefined) return;
    if (text.length === 0 && this.open?.kind === 'reasoning') {
      this.closeOpen(signature);
      return;
    }
    this.openBlock('reasoning');
    this.closeOpen(signature);
  }

  private onThought(text: string, signature: string | undefined): void {
    if (text.length === 0 && signature === undefined) return;
    const block = this.openBlock('reasoning');
    if (text.length > 0) {
      block.chunks.push(text);
      this.events.push({ type: 'reasoning-delta', index: block.index, delta: text });
    }
    if (signature !== undefined) this.closeOpen(signature);
  }

  private onFunctionCall(part: GeminiFunctionCallPartWire): void {
    this.closeOpen(undefined);
    const streamed = this.streamedCall;
    if (streamed !== undefined) {
      if (part.name === undefined) {
        streamed.block.signature ??= part.signature;
        for (const entry of part.partialArgs ?? []) this.appendArguments(streamed, streamed.writer.apply(entry));
        // `functionCall: {}` and a last piece without `willContinue` both end the call.
        if (!part.willContinue) this.endStreamedCall();
        return;
      }
      this.endStreamedCall();
    }
    if (part.name === undefined) {
      // An empty `functionCall: {}` (or a bare `willContinue`) with no call open ends nothing and says nothing.
      if (part.args === undefined && part.partialArgs === undefined) return;
      throw new ProtocolViolationError('invalid-event', 'functionCall without name outside a streamed call');
    }
    const block = this.startToolCall(part);
    if (part.willContinue || part.partialArgs !== undefined) {
      if (part.args !== undefined) throw new ProtocolViolationError('invalid-event', 'functionCall mixes args and partialArgs');
      const call: StreamedCall = { block, writer: createPartialArgsWriter() };
      this.streamedCall = call;
      for (const entry of part.partialArgs ?? []) this.appendArguments(call, call.writer.apply(entry));
      if (!part.willContinue) this.endStreamedCall();
      return;
    }
    const argumentsText = JSON.stringify(part.args ?? {});
    this.toolCalls.append(block.index, argumentsText);
    this.events.push({ type: 'tool-call-delta', index: block.index, delta: argumentsText });
    this.endToolCall(block);
  }

  private startToolCall(part: GeminiFunctionCallPartWire): ToolBlock {
    const index = this.blocks.length;
    const toolCallId = part.id ?? deriveResponseToolCallId(this.responseId, this.callOrdinal);
    this.callOrdinal += 1;
    const block: ToolBlock = {
      kind: 'tool-call',
      index,
      toolCallId,
      toolName: part.name as string,
      argumentsText: '',
      signature: part.signature,
    };
    this.blocks.push(block);
    this.toolCalls.open(index, { toolCallId, toolName: block.toolName });
    this.events.push({ type: 'tool-call-start', index, toolCallId, toolName: block.toolName });
    return block;
  }

  private appendArguments(call: StreamedCall, text: string): void {
    if (text.length === 0) return;
    this.toolCalls.append(call.block.index, text);
    this.events.push({ type: 'tool-call-delta', index: call.block.index, delta: text });
  }

  private endStreamedCall(): void {
    const call = this.streamedCall;
    if (call === undefined) return;
    this.streamedCall = undefined;
    this.appendArguments(call, call.writer.finish());
    this.endToolCall(call.block);
  }

  private endToolCall(block: ToolBlock): void {
    block.argumentsText = this.toolCalls.close(block.index).argumentsText;
    this.events.push({
      type: 'tool-call-end',
      index: block.index,
      argumentsText: block.argumentsText,
      ...(block.signature === undefined ? {} : { signature: block.signature }),
    });
  }

  private openBlock(kind: TextBlock['kind']): TextBlock {
    if (this.open?.kind === kind) return this.open;
    this.closeOpen(undefined);
    this.endStreamedCall();
    const block: TextBlock = { kind, index: this.blocks.length, chunks: [] };
    this.blocks.push(block);
    this.open = block;
    this.events.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', index: block.index });
    return block;
  }

  private closeOpen(signature: string | undefined): void {
    const block = this.open;
    if (block === undefined) return;
    this.open = undefined;
    if (block.kind === 'text') {
      this.events.push({ type: 'text-end', index: block.index });
      return;
    }
    if (signature !== undefined) block.signature = signature;
    this.events.push({ type: 'reasoning-end', index: block.index, ...(signature === undefined ? {} : { signature }) });
  }

  private closeAll(): void {
    this.closeOpen(undefined);
    this.endStreamedCall();
  }

  private onUsage(wire: GeminiUsageWire): void {
    this.usageWire = mergeGeminiUsageWire(this.usageWire, wire);
    const next = convertGeminiUsage(this.usageWire);
    if (next === undefined || usageEquals(next, this.usage)) return;
    this.usage = mergeUsageSnapshot(this.usage, next);
    this.events.push({ type: 'usage', usage: this.usage });
  }
}
