import { ProtocolViolationError } from './protocol-violation-error.js';

/** Default cap of one tool call's argument text: 8 Mi UTF-16 code units. */
export const DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH = 8 * 1024 * 1024;
/** Highest block index a normalized stream event may carry. */
const MAX_BLOCK_INDEX = 1_000_000;

/** Options of {@link createToolCallAccumulator}. */
export interface ToolCallAccumulatorOptions {
  /** Largest argument text of one call, in UTF-16 code units (default {@link DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH}). */
  readonly maxArgumentsLength?: number;
}

/** What the provider said about a tool call when it opened (both optional: some dialects send them later). */
export interface ToolCallIdentity {
  /** The provider's tool call id. */
  readonly toolCallId?: string;
  /** The called tool's name. */
  readonly toolName?: string;
}

/** A closed tool call. */
export interface AccumulatedToolCall {
  /** The block index it was accumulated under. */
  readonly index: number;
  /** The provider's tool call id, if it sent one. */
  readonly toolCallId: string | undefined;
  /** The tool name, if sent. */
  readonly toolName: string | undefined;
  /** The concatenation of every fragment, in arrival order. */
  readonly argumentsText: string;
}

/**
 * Collects streamed tool-call argument fragments per block index. Fragments are kept as a list and joined
 * once at close, so the cost is linear in the total fragment length. Misuse by the provider (a fragment for
 * an unknown or closed index, an index opened twice, text past the cap) throws a {@link ProtocolViolationError}.
 */
export interface ToolCallAccumulator {
  /** Opens a call at `index` (a non-negative integer up to 1,000,000). Each index opens once per stream. */
  open(index: number, identity?: ToolCallIdentity): void;
  /** Adds the id or name when the dialect sends them after the opening fragment. First value wins. */
  identify(index: number, identity: ToolCallIdentity): void;
  /** Appends one fragment to an open call. */
  append(index: number, fragment: string): void;
  /** Closes an open call and returns it. */
  close(index: number): AccumulatedToolCall;
  /** Closes every open call in ascending index order (for dialects that end calls implicitly). */
  closeAll(): AccumulatedToolCall[];
  /** Whether a call is open at `index`. */
  isOpen(index: number): boolean;
  /** Whether `index` was ever opened (open or closed). */
  has(index: number): boolean;
  /** The open indexes in ascending order. */
  openIndexes(): number[];
  /** The identity so far of an open call, or `undefined`. */
  identityOf(index: number): ToolCallIdentity | undefined;
}

interface OpenCall {
  toolCallId: string | undefined;
  toolName: string | undefined;
  readonly fragments: string[];
  length: number;
}

/** Creates an empty {@link ToolCallAccumulator}. */
export function createToolCallAccumulator(options?: ToolCallAccumulatorOptions): ToolCallAccumulator {
  const maxLength = options?.maxArgumentsLength ?? DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH;
  const open = new Map<number, OpenCall>();
  const closed = new Set<number>();

  function openCall(index: number, operation: string): OpenCall {
    const call = open.get(index);
    if (call !== undefined) return call;
    if (closed.has(index)) {
      throw new ProtocolViolationError('tool-call-closed-index', `tool call ${operation} for closed index ${index}`);
    }
    throw new ProtocolViolationError('tool-call-unknown-index', `tool call ${operation} for unknown index ${safeIndex(index)}`);
  }

  function finish(index: number, call: OpenCall): AccumulatedToolCall {
    open.delete(index);
    closed.add(index);
    return { index, toolCallId: call.toolCallId, toolName: call.toolName, argumentsText: call.fragments.join('') };
  }

  return {
    open(index, identity) {
      if (!Number.isInteger(index) || index < 0 || index > MAX_BLOCK_INDEX) {
        throw new ProtocolViolationError('invalid-event', 'tool call index is not an integer from 0 to 1000000');
      }
      if (open.has(index) || closed.has(index)) {
        throw new ProtocolViolationError('tool-call-duplicate-index', `tool call index ${index} opened twice`);
      }
      open.set(index, { toolCallId: identity?.toolCallId, toolName: identity?.toolName, fragments: [], length: 0 });
    },
    identify(index, identity) {
      const call = openCall(index, 'identity');
      call.toolCallId ??= identity.toolCallId;
      call.toolName ??= identity.toolName;
    },
    append(index, fragment) {
      const call = openCall(index, 'fragment');
      if (fragment.length === 0) return;
      call.length += fragment.length;
      if (call.length > maxLength) {
        throw new ProtocolViolationError('tool-call-too-large', `tool call arguments exceed ${maxLength} characters`);
      }
      call.fragments.push(fragment);
    },
    close(index) {
      return finish(index, openCall(index, 'close'));
    },
    closeAll() {
      const indexes = [...open.keys()].sort((left, right) => left - right);
      return indexes.map((index) => finish(index, open.get(index) as OpenCall));
    },
    isOpen: (index) => open.has(index),
    has: (index) => open.has(index) || closed.has(index),
    openIndexes: () => [...open.keys()].sort((left, right) => left - right),
    identityOf(index) {
      const call = open.get(index);
      if (call === undefined) return undefined;
      return {
        ...(call.toolCallId === undefined ? {} : { toolCallId: call.toolCallId }),
        ...(call.toolName === undefined ? {} : { toolName: call.toolName }),
      };
    },
  };
}

function safeIndex(index: number): string {
  return Number.isInteger(index) && index >= 0 && index <= MAX_BLOCK_INDEX ? String(index) : '(invalid)';
}
