import type { AdapterStreamPartV1, AdapterTerminalOutcome, NormalizedStreamEventV1, UsageV1 } from '@tokenforge/model-protocol';
import { releaseBody } from './read-body.js';
import { terminalForError } from './terminal-for-error.js';

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
  return runAdapterStream(options);
}

const CANCELLED: AdapterStreamPartV1 = { type: 'terminal', outcome: { status: 'cancelled' } };
const ABORTED = Symbol('aborted');

async function* runAdapterStream<TFrame>(
  options: CreateAdapterStreamPartsOptions<TFrame>,
): AsyncGenerator<AdapterStreamPartV1, void, undefined> {
  const { machine, signal } = options;
  const body = new OwnedBody(options.body);
  const abort = new AbortWatch(signal);
  let frames: AsyncIterator<TFrame> | undefined;
  const failed = (error: unknown, fromBody: boolean): AdapterStreamPartV1 => {
    const usage = machine.usageSoFar?.();
    const context = usage === undefined ? { signal } : { signal, usage };
    const outcome = terminalForError(error, context);
    if (outcome !== undefined) return { type: 'terminal', outcome };
    if (!fromBody) throw error;
    // A host transport that fails a read without a typed failure still failed to deliver the stream.
    return failedPart('network', usage);
  };
  try {
    if (signal.aborted) {
      yield CANCELLED;
      return;
    }
    frames = options.decodeFrames(body)[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<TFrame> | typeof ABORTED;
      try {
        next = await abort.race(frames.next());
      } catch (error) {
        yield failed(error, body.failedWith(error));
        return;
      }
      if (next === ABORTED) {
        yield CANCELLED;
        return;
      }
      let step: AdapterStreamStep | undefined;
      try {
        step = next.done === true ? machine.onEnd?.() : machine.onFrame(next.value);
      } catch (error) {
        yield failed(error, false);
        return;
      }
      if (step?.events !== undefined) {
        for (const event of step.events) {
          if (signal.aborted) {
            yield CANCELLED;
            return;
          }
          yield event;
        }
      }
      if (signal.aborted) {
        yield CANCELLED;
        return;
      }
      if (step?.terminal !== undefined) {
        yield { type: 'terminal', outcome: step.terminal };
        return;
      }
      if (next.done === true) {
        yield failedPart('truncated-stream', machine.usageSoFar?.());
        return;
      }
    }
  } finally {
    abort.dispose();
    // The body is released directly, not only through the decoder: after an abort a pull may still be pending,
    // and a generator's return() waits behind it. For the same reason an aborted stream does not wait.
    const closing = Promise.all([closeIterator(frames), body.release()]);
    if (!signal.aborted) await closing;
  }
}

function failedPart(code: 'network' | 'truncated-stream', usage: UsageV1 | undefined): AdapterStreamPartV1 {
  const failure = { code, retryable: true };
  const outcome: AdapterTerminalOutcome = usage === undefined ? { status: 'failed', failure } : { status: 'failed', failure, usage };
  return { type: 'terminal', outcome };
}

async function closeIterator(iterator: AsyncIterator<unknown> | undefined): Promise<void> {
  try {
    if (iterator !== undefined && typeof iterator.return === 'function') await iterator.return();
  } catch {
    // Closing is best effort; the body is released directly as well.
  }
}

/** Hands the frame decoder one iterator of the transport body and remembers whether it ended or failed. */
class OwnedBody implements AsyncIterable<Uint8Array> {
  private readonly source: AsyncIterable<Uint8Array>;
  private iterator: AsyncIterator<Uint8Array> | undefined;
  private settled = false;
  private readError: { error: unknown } | undefined;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.source = source;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const iterator = this.open();
    return {
      next: async () => {
        if (this.settled || this.readError !== undefined) return { done: true, value: undefined };
        try {
          const step = await iterator.next();
          if (step.done === true) this.settled = true;
          return step;
        } catch (error) {
          // Not settled: a failed body is still asked to close, like one abandoned mid-way.
          this.readError = { error };
          throw error;
        }
      },
      return: async () => {
        await this.release();
        return { done: true, value: undefined };
      },
    };
  }

  /** Whether `error` is what a body read threw (a transport failure, not a decoder's). */
  failedWith(error: unknown): boolean {
    return this.readError !== undefined && this.readError.error === error;
  }

  async release(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const iterator = this.iterator ?? this.open();
    await releaseBody(iterator);
  }

  private open(): AsyncIterator<Uint8Array> {
    this.iterator ??= this.source[Symbol.asyncIterator]();
    return this.iterator;
  }
}

/** One abort listener for the whole stream, raced against each pull. */
class AbortWatch {
  private readonly signal: AbortSignal;
  private readonly aborted: Promise<typeof ABORTED>;
  private listener: (() => void) | undefined;

  constructor(signal: AbortSignal) {
    this.signal = signal;
    this.aborted = new Promise((resolve) => {
      this.listener = () => resolve(ABORTED);
      signal.addEventListener('abort', this.listener, { once: true });
    });
  }

  race<T>(pull: Promise<T>): Promise<T | typeof ABORTED> {
    if (this.signal.aborted) {
      pull.catch(() => undefined);
      return Promise.resolve(ABORTED);
    }
    return Promise.race([pull, this.aborted]);
  }

  dispose(): void {
    if (this.listener !== undefined) this.signal.removeEventListener('abort', this.listener);
  }
}
