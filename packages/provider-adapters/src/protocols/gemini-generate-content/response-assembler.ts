import type {
  AdapterTerminalOutcomeV3,
  ChatOutputPartV1,
  FinishReasonV1,
  NormalizedStreamEventV3,
  UsageV3,
} from '@tokenforge/model-protocol';
import { createToolCallAccumulator, type ToolCallAccumulator } from '../../codec-kit/tool-call-accumulator.js';
import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
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
 * - a `finishReason` marks the response as able to end; the one that counts is the last one sent. Vertex can
 *   send `finishReason` on every chunk (and the last one can differ), so content after a finish reason is more
 *   content and needs a later finish reason before the body may end; usage-only chunks after it are merged.
 *   Blocks stay open until the response ends, then close in order;
 * - `promptFeedback.blockReason` finishes the response as `content-filter` with no content;
 * - an `error` object ends the response as a failed terminal (`mapGeminiStreamError`);
 * - `usageMetadata` is provisional: Gemini repeats it on every chunk and a later chunk can report lower figures
 *   (the prompt count is re-estimated). The latest chunk with any count is the whole snapshot (zeros are
 *   omitted, so a count it leaves out is 0; a chunk without counts erases nothing), and the figures are converted and reported once, as one `usage` event when the
 *   response ends (completed or failed), since only the last ones are authoritative.
 */
export class GeminiResponseAssembler {
  private readonly blocks: Block[] = [];
  private readonly toolCalls: ToolCallAccumulator = createToolCallAccumulator();
  private open: TextBlock | undefined;
  private streamedCall: StreamedCall | undefined;
  private callOrdinal = 0;
  private responseId: string | undefined;
  private blockedAs: FinishReasonV1 | undefined;
  private rawFinishReason: string | undefined;
  private endable = false;
  private ended = false;
  private failure: AdapterTerminalOutcomeV3 | undefined;
  private usageWire: GeminiUsageWire | undefined;
  private events: NormalizedStreamEventV3[] = [];

  /** The model version the provider reported first, if any. */
  modelVersion: string | undefined;

  /** Maps one response; returns the events it adds. */
  push(response: GeminiResponseWire): NormalizedStreamEventV3[] {
    this.events = [];
    if (this.failure !== undefined || this.ended) throw new ProtocolViolationError('event-after-terminal', 'chunk after the end of the response');
    if (response.usage !== undefined) this.usageWire = mergeGeminiUsageWire(this.usageWire, response.usage);
    if (response.error !== undefined) {
      this.closeAll();
      const usage = this.finalUsageOrUndefined();
      this.failure = { status: 'failed', failure: mapGeminiStreamError(response.error), ...(usage === undefined ? {} : { usage }) };
      return this.events;
    }
    this.responseId ??= response.responseId;
    this.modelVersion ??= response.modelVersion;
    if (this.blockedAs !== undefined && (response.parts.some((part) => part.kind !== 'ignored') || response.finishReason !== undefined)) {
      throw new ProtocolViolationError('event-after-terminal', 'content after the prompt was blocked');
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
    if (response.parts.some((part) => part.kind !== 'ignored' || part.signature !== undefined)) this.endable = false;
    if (response.finishReason !== undefined) {
      this.rawFinishReason = response.finishReason;
      this.endable = true;
    } else if (response.blockReason !== undefined && this.rawFinishReason === undefined) {
      if (this.blocks.length > 0) throw new ProtocolViolationError('invalid-event', 'prompt blocked after content');
      this.blockedAs = mapGeminiBlockReason(response.blockReason);
      this.endable = true;
    }
    return this.events;
  }

  /**
   * Ends the response (the end of the body, or the end of a whole-body decode): closes open blocks and reports
   * the final usage. Returns the events this adds; call {@link finish} for the terminal afterwards.
   */
  end(): NormalizedStreamEventV3[] {
    this.events = [];
    if (this.failure !== undefined || this.ended || !this.endable) return this.events;
    this.ended = true;
    this.closeAll();
    const usage = this.finalUsage();
    if (usage !== undefined) this.events.push({ type: 'usage', usage });
    return this.events;
  }

  /**
   * The terminal once the response ended: completed when a finish reason (or block reason) arrived, the
   * failed terminal of an error object, or `undefined` when the response never finished (the caller reports
   * it as truncated).
   */
  finish(): AdapterTerminalOutcomeV3 | undefined {
    if (this.failure !== undefined) return this.failure;
    if (!this.endable) return undefined;
    if (!this.ended) this.end();
    const finishReason =
      this.blockedAs ?? mapGeminiFinishReason(this.rawFinishReason as string, this.blocks.some((block) => block.kind === 'tool-call'));
    const usage = this.finalUsage();
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
      finishReason,
      ...(usage === undefined ? {} : { usage }),
    };
  }

  /**
   * The last figures reported so far, for a failed terminal (they are the final ones when the stream stops
   * here). Figures that contradict each other are left out rather than failing an already failed stream.
   */
  usageSoFar(): UsageV3 | undefined {
    return this.finalUsageOrUndefined();
  }

  private finalUsage(): UsageV3 | undefined {
    return this.usageWire === undefined ? undefined : convertGeminiUsage(this.usageWire);
  }

  private finalUsageOrUndefined(): UsageV3 | undefined {
    try {
      return this.finalUsage();
    } catch {
      return undefined;
    }
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

}
