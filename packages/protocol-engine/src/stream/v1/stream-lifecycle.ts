import type { AdapterTerminalOutcomeV4, ChatOutputPartV4, NormalizedStreamEventV4, UsageV3 } from '@tokenforge/model-protocol';

type BlockKind = 'text' | 'reasoning' | 'refusal' | 'tool-call' | 'redacted' | 'compaction';

interface Block {
  readonly kind: BlockKind;
  open: boolean;
  /** Deltas in arrival order; joined once, at the end (linear in the stream length). */
  readonly chunks: string[];
  readonly toolCallId?: string;
  readonly toolName?: string;
  argumentsText?: string;
  signature?: string;
  readonly data?: string;
  /** A compaction block's provider item id. */
  readonly itemId?: string;
  /** A compaction block's other provider members (opaque JSON text). */
  readonly providerFields?: string;
}

/**
 * The block lifecycle and usage rules of one stream: start, deltas, end per unique index; nothing after end;
 * tool-call-end text equals its deltas; usage snapshots never decrease. At a terminal it checks that every
 * block ended and that the accumulated blocks are exactly the terminal's chat content, in index order.
 * Every method returns a violation description (fixed wording, no stream content) or `undefined`.
 */
export class StreamLifecycle {
  private readonly blocks = new Map<number, Block>();
  private openBlocks = 0;
  private usage: UsageV3 | undefined;
  private lastDeltaIndex = -1;
  private lastDeltaBlock: Block | undefined;

  accept(event: NormalizedStreamEventV4): string | undefined {
    switch (event.type) {
      // Deltas first: almost every event is one.
      case 'text-delta':
        return this.delta(event.index, 'text', event.delta);
      case 'tool-call-delta':
        return this.delta(event.index, 'tool-call', event.delta);
      case 'reasoning-delta':
        return this.delta(event.index, 'reasoning', event.delta);
      case 'refusal-delta':
        return this.delta(event.index, 'refusal', event.delta);
      case 'text-start':
        return this.start(event.index, { kind: 'text', open: true, chunks: [] });
      case 'reasoning-start':
        return this.start(event.index, { kind: 'reasoning', open: true, chunks: [] });
      case 'refusal-start':
        return this.start(event.index, { kind: 'refusal', open: true, chunks: [] });
      case 'tool-call-start':
        return this.start(event.index, {
          kind: 'tool-call',
          open: true,
          chunks: [],
          toolCallId: event.toolCallId,
          toolName: event.toolName,
        });
      case 'reasoning-redacted':
        if (this.blocks.has(event.index)) return 'a block index was used twice';
        this.blocks.set(event.index, { kind: 'redacted', open: false, chunks: [], data: event.data });
        return undefined;
      case 'compaction':
        if (this.blocks.has(event.index)) return 'a block index was used twice';
        this.blocks.set(event.index, {
          kind: 'compaction',
          open: false,
          chunks: [],
          data: event.data,
          ...(event.id === undefined ? {} : { itemId: event.id }),
          ...(event.providerFields === undefined ? {} : { providerFields: event.providerFields }),
        });
        return undefined;
      case 'text-end':
        return this.end(event.index, 'text');
      case 'refusal-end':
        return this.end(event.index, 'refusal');
      case 'reasoning-end': {
        const problem = this.end(event.index, 'reasoning');
        if (problem === undefined && event.signature !== undefined) (this.blocks.get(event.index) as Block).signature = event.signature;
        return problem;
      }
      case 'tool-call-end': {
        const problem = this.end(event.index, 'tool-call');
        if (problem !== undefined) return problem;
        const block = this.blocks.get(event.index) as Block;
        if (block.chunks.join('') !== event.argumentsText) return 'tool-call-end arguments differ from the concatenated deltas';
        block.argumentsText = event.argumentsText;
        if (event.signature !== undefined) block.signature = event.signature;
        return undefined;
      }
      case 'usage':
        return this.acceptUsage(event.usage);
      default:
        return 'unknown event type';
    }
  }

  /** Checks a validated terminal against everything the stream said. */
  checkTerminal(outcome: AdapterTerminalOutcomeV4): string | undefined {
    if (outcome.status === 'cancelled') return undefined;
    if (outcome.usage !== undefined && this.usage !== undefined) {
      const problem = compareUsage(this.usage, outcome.usage);
      if (problem !== undefined) return `terminal usage ${problem} the last usage event`;
    }
    if (outcome.status === 'failed') return undefined;
    if (this.openBlocks > 0) return 'the stream completed with a block that never ended';
    if (outcome.result.kind !== 'chat') return this.blocks.size === 0 ? undefined : 'a non-chat result cannot follow content blocks';
    const content = outcome.result.content;
    if (content.length !== this.blocks.size) return 'the terminal content does not match the streamed blocks';
    const indexes = [...this.blocks.keys()].sort((left, right) => left - right);
    for (let position = 0; position < indexes.length; position += 1) {
      const block = this.blocks.get(indexes[position] as number) as Block;
      if (!samePart(block, content[position] as ChatOutputPartV4)) {
        return 'the terminal content does not match the streamed blocks';
      }
    }
    return undefined;
  }

  private start(index: number, block: Block): string | undefined {
    if (this.blocks.has(index)) return 'a block index was used twice';
    this.blocks.set(index, block);
    this.openBlocks += 1;
    return undefined;
  }

  private delta(index: number, kind: BlockKind, delta: string): string | undefined {
    // Consecutive deltas usually go to one block: the last one looked up is remembered (a block is never replaced).
    let block = this.lastDeltaBlock;
    if (block === undefined || this.lastDeltaIndex !== index) {
      block = this.blocks.get(index);
      if (block === undefined) return 'a delta arrived for a block that never started';
      this.lastDeltaIndex = index;
      this.lastDeltaBlock = block;
    }
    if (block.kind !== kind) return 'a delta arrived for a block of another type';
    if (!block.open) return 'a delta arrived after its block ended';
    block.chunks.push(delta);
    return undefined;
  }

  private end(index: number, kind: BlockKind): string | undefined {
    const block = this.blocks.get(index);
    if (block === undefined) return 'an end arrived for a block that never started';
    if (block.kind !== kind) return 'an end arrived for a block of another type';
    if (!block.open) return 'a block ended twice';
    block.open = false;
    this.openBlocks -= 1;
    return undefined;
  }

  private acceptUsage(usage: UsageV3): string | undefined {
    if (this.usage !== undefined) {
      const problem = compareUsage(this.usage, usage);
      if (problem !== undefined) return `a usage snapshot ${problem} the previous one`;
    }
    this.usage = usage;
    return undefined;
  }
}

/**
 * A later usage must keep every field of the earlier one: figures never smaller, the V3 detail objects
 * (cache writes by time to live, tokens by modality, hosted-tool requests) compared figure by figure, the same
 * way. A text fact (`serviceTier`) may change but not disappear.
 */
function compareUsage(earlier: UsageV3, later: UsageV3): string | undefined {
  return compareFigures(earlier as Readonly<Record<string, unknown>>, later as Readonly<Record<string, unknown>>);
}

function compareFigures(earlier: Readonly<Record<string, unknown>>, later: Readonly<Record<string, unknown>>): string | undefined {
  for (const key of Object.keys(earlier)) {
    const before = earlier[key];
    if (before === undefined) continue;
    const after = later[key];
    if (after === undefined) return 'drops a field reported by';
    if (typeof before === 'number') {
      if ((after as number) < before) return 'decreases a field of';
    } else if (typeof before === 'object' && before !== null) {
      const problem = compareFigures(before as Readonly<Record<string, unknown>>, after as Readonly<Record<string, unknown>>);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function samePart(block: Block, part: ChatOutputPartV4): boolean {
  switch (part.type) {
    case 'text':
      return block.kind === 'text' && part.text === block.chunks.join('');
    case 'refusal':
      return block.kind === 'refusal' && part.text === block.chunks.join('');
    case 'reasoning':
      return block.kind === 'reasoning' && part.text === block.chunks.join('') && part.signature === block.signature;
    case 'redacted-reasoning':
      return block.kind === 'redacted' && part.data === block.data;
    case 'compaction':
      return block.kind === 'compaction' && part.data === block.data && part.id === block.itemId && part.providerFields === block.providerFields;
    case 'tool-call':
      return (
        block.kind === 'tool-call' &&
        part.toolCallId === block.toolCallId &&
        part.toolName === block.toolName &&
        part.argumentsText === block.argumentsText &&
        part.signature === block.signature
      );
    default:
      return false;
  }
}
