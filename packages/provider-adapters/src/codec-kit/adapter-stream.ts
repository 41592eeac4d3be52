import type { AdapterStreamPartV1, AdapterTerminalOutcome, NormalizedStreamEventV1, UsageV1 } from '@tokenforge/model-protocol';

/** What a family's state machine makes of one frame. */
export interface AdapterStreamStep {
  /** Normalized events, in order (none is fine). */
  readonly events?: readonly NormalizedStreamEventV1[];
  /** The terminal, when this frame ends the stream (the family's terminal marker). Frames after it are not read. */
  readonly terminal?: AdapterTerminalOutcome;
}

/**
 * A family's stream state machine. It holds the family's state (open blocks, usage so far) and is pure: no
 * I/O, no clock. Throw {@link CodecErrorV1} or {@link ProtocolViolationError} for provider misbehaviour; any
 * other error is treated as a defect and propagates to the consumer.
 */
export interface AdapterStreamMachine<TFrame> {
  /** Maps one decoded frame. */
  onFrame(frame: TFrame): AdapterStreamStep | undefined;
  /**
   * Called once when the frames end without a terminal. Return a terminal if the end of the body is itself the
   * family's end marker (Gemini ends by closing after a finish reason); otherwise the stream ends as a failed,
   * retryable `truncated-stream`. Events returned here are emitted before the terminal.
   */
  onEnd?(): AdapterStreamStep | undefined;
  /** Usage reported so far, attached to failed terminals the helper creates. */
  usageSoFar?(): UsageV1 | undefined;
}

/** Input of {@link createAdapterStreamParts}. */
export interface CreateAdapterStreamPartsOptions<TFrame> {
  /** The transport body. The helper owns it from now on and releases it on every path. */
  readonly body: AsyncIterable<Uint8Array>;
  /** The family's frame decoder over the body (for example `(body) => decodeSseStream(body, options)`). */
  readonly decodeFrames: (body: AsyncIterable<Uint8Array>) => AsyncIterable<TFrame>;
  /** The family's state machine. */
  readonly machine: AdapterStreamMachine<TFrame>;
  /** The execution's signal. */
  readonly signal: AbortSignal;
}

/**
 * Turns a family's frame decoder and state machine into the parts an adapter stream returns: normalized
 * events, then exactly one terminal, last. Frames are pulled only when the consumer pulls (backpressure).
 *
 * Endings: the machine's terminal; at the end of the body, `onEnd`'s terminal or else a failed
 * `truncated-stream` (retryable); a {@link CodecErrorV1} or {@link ProtocolViolationError} from the decoder or
 * the machine, a failed `protocol-violation` (not retryable); a failed body read, a failed `truncated-stream`,
 * `timeout` or `network` (retryable); an aborted signal, `cancelled` (checked before each pull and while one is
 * pending). The body is released on each of them and when the consumer calls `return()`.
 */
export function createAdapterStreamParts<TFrame>(
  options: CreateAdapterStreamPartsOptions<TFrame>,
): AsyncIterable<AdapterStreamPartV1> {
  void options;
  throw new Error('not implemented yet');
}
