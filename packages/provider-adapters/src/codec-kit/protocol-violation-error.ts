/**
 * Why a provider's wire traffic broke its protocol after it decoded cleanly (the bytes and JSON were fine,
 * the meaning was not). A closed set: branch on it, never on the message.
 */
export const PROTOCOL_VIOLATION_REASONS = [
  /** A frame or event kind the family does not list as known. */
  'unexpected-event',
  /** A known frame whose fields are missing, mistyped or contradictory. */
  'invalid-event',
  /** A frame after the family's terminal marker, where the protocol allows none. */
  'event-after-terminal',
  /** A tool-call fragment for an index that was never opened. */
  'tool-call-unknown-index',
  /** A tool-call fragment or close for an index that is already closed. */
  'tool-call-closed-index',
  /** A tool call opened twice at the same index. */
  'tool-call-duplicate-index',
  /** A tool call's argument text grew past its limit. */
  'tool-call-too-large',
  /** A cumulative usage field went down. */
  'usage-decreased',
  /** Usage figures contradict each other. */
  'usage-inconsistent',
] as const;
export type ProtocolViolationReason = (typeof PROTOCOL_VIOLATION_REASONS)[number];

const PROTOCOL_VIOLATION_MARKER = Symbol.for('tokenforge.provider-adapters.protocol-violation');

/**
 * A provider broke its own protocol. Families throw it from decoders and stream state machines; the adapter
 * stream turns it into a failed `protocol-violation` terminal. `message` names the rule, never provider
 * payloads, prompts or identifiers.
 */
export class ProtocolViolationError extends Error {
  /** The stable reason. */
  readonly reason: ProtocolViolationReason;

  constructor(reason: ProtocolViolationReason, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProtocolViolationError';
    this.reason = reason;
    Object.defineProperty(this, PROTOCOL_VIOLATION_MARKER, { value: true });
  }
}

/** Recognizes a {@link ProtocolViolationError} across realms and package copies. Never throws. */
export function isProtocolViolationError(value: unknown): value is ProtocolViolationError {
  try {
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as Record<PropertyKey, unknown>;
    return (
      candidate[PROTOCOL_VIOLATION_MARKER] === true &&
      typeof candidate.reason === 'string' &&
      (PROTOCOL_VIOLATION_REASONS as readonly string[]).includes(candidate.reason)
    );
  } catch {
    return false;
  }
}
