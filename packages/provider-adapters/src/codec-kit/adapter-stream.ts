import {
  ADAPTER_STREAM_TAKE_BUFFERED_V1,
  type AdapterStreamPartV1,
  type AdapterTerminalOutcomeV4,
  type NormalizedStreamEventV4,
  type UsageV3,
  type ProviderDiagnosticV3,
} from '@tokenforge/model-protocol';
import { reportDiagnostic } from './diagnostic-for-error.js';
import { releaseBody, releaseIterator } from './read-body.js';
import { createSseParser, type SseDecoderOptions, type SseParser } from './sse-decoder.js';
import { terminalForError } from './terminal-for-error.js';

/** What a family's state machine makes of one frame. */
export interface AdapterStreamStep {
  /** Normalized events, in order (none is fine). */
  readonly events?: readonly NormalizedStreamEventV4[];
  /** The terminal, when this frame ends the stream (the family's terminal marker). Frames after it are not read. */
  readonly terminal?: AdapterTerminalOutcomeV4;
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
  usageSoFar?(): UsageV3 | undefined;
}

/** Input of {@link createAdapterStreamParts}. */
export interface CreateAdapterStreamPartsOptions<TFrame> {
  /** The transport body. The helper owns it from now on and releases it on every path. */
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * The frames are the kit's SSE items (`SseItem`), decoded with these options: the helper pushes each body read
   * into one parser and maps the items of that read without an await per item. Give this or `decodeFrames`.
   */
  readonly sse?: SseDecoderOptions;
  /**
   * Any other frame decoder over the body (NDJSON, a custom framing): each frame is pulled from it. Give this or
   * `sse`; with both, `sse` wins.
   */
  readonly decodeFrames?: (body: AsyncIterable<Uint8Array>) => AsyncIterable<TFrame>;
  /** The family's state machine. */
  readonly machine: AdapterStreamMachine<TFrame>;
  /** The execution's signal. */
  readonly signal: AbortSignal;
  /** The execution's diagnostics callback (`input.reportDiagnostic`): told why a stream ended failed. */
  readonly reportDiagnostic?: ((diagnostic: ProviderDiagnosticV3) => void) | undefined;
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
 *
 * The iterator also offers {@link ADAPTER_STREAM_TAKE_BUFFERED_V1}: a caller that can take a part synchronously
 * when one is already decoded (the engine does) skips a promise per event.
 */
export function createAdapterStreamParts<TFrame>(
  options: CreateAdapterStreamPartsOptions<TFrame>,
): AsyncIterable<AdapterStreamPartV1> {
  return new AdapterStreamRun(options);
}

type Part = AdapterStreamPartV1;
type Step = IteratorResult<Part, undefined>;

interface Waiter {
  readonly resolve: (step: Step) => void;
  readonly reject: (error: unknown) => void;
}

const CANCELLED: Part = { type: 'terminal', outcome: { status: 'cancelled' } };
const NO_PARTS: readonly Part[] = Object.freeze([]);
const DONE: Step = { done: true, value: undefined };

/**
 * One stream run, as a hand-written async iterator. The parts of a step are buffered and handed out in already
 * settled promises, without another read (an async generator spends several microtask turns per part). With
 * the kit's SSE decoder the run pushes each read into the parser itself and feeds the machine the items of that
 * read one by one, with no await per item. A pull that must wait for the body is settled from callbacks bound
 * once per run, and one abort listener serves the whole run, so nothing is allocated per event beyond the
 * parts and their promises.
 */
class AdapterStreamRun<TFrame> implements AsyncIterableIterator<Part> {
  private readonly options: CreateAdapterStreamPartsOptions<TFrame>;
  private readonly machine: AdapterStreamMachine<TFrame>;
  private readonly signal: AbortSignal;
  private readonly body: OwnedBody;
  private frames: AsyncIterator<TFrame> | undefined;
  /** The SSE parser when the frames are the kit's SSE items, read in batches. */
  private parser: SseParser | undefined;
  private items: readonly TFrame[] = [];
  private itemIndex = 0;
  private bodyEnded = false;
  /**
   * Parts ready to hand out; a terminal is always the last. Usually the `events` array of the machine's step itself
   * (held, never written to), so a frame costs no copy; replaced, never appended to, once every part was taken.
   */
  private parts: readonly Part[] = NO_PARTS;
  private partIndex = 0;
  private started = false;
  /** Set by the abort listener, which is registered when the run starts (reading the signal costs more per part). */
  private aborted = false;
  private finished = false;
  private closing: Promise<void> | undefined;
  /** The consumer's pending pull (while a read is in flight), and pulls made meanwhile, served in order. */
  private waiter: Waiter | undefined;
  private readonly queued: Waiter[] = [];
  /** A defect met while taking a part synchronously, rejected by the next pull once the body is released. */
  private defect: { readonly error: unknown } | undefined;

  constructor(options: CreateAdapterStreamPartsOptions<TFrame>) {
    this.options = options;
    this.machine = options.machine;
    this.signal = options.signal;
    this.body = new OwnedBody(options.body);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<Step> {
    if (this.waiter !== undefined) return new Promise<Step>((resolve, reject) => this.queued.push({ resolve, reject }));
    if (this.defect !== undefined) {
      const { error } = this.defect;
      this.defect = undefined;
      return this.afterClose().then(() => Promise.reject(error));
    }
    try {
      if (this.fillFromBuffer()) return Promise.resolve(this.handOut());
    } catch (error) {
      this.finish();
      return this.afterClose().then(() => Promise.reject(error));
    }
    if (this.finished) return this.afterClose().then(() => DONE);
    const pending = new Promise<Step>(this.capture);
    this.pump();
    return pending;
  }

  /** The part `next()` would resolve with when it is already decoded, else `undefined` (nothing consumed). */
  [ADAPTER_STREAM_TAKE_BUFFERED_V1](): Part | undefined {
    if (this.waiter !== undefined || this.defect !== undefined) return undefined;
    try {
      return this.fillFromBuffer() ? this.takePart() : undefined;
    } catch (error) {
      // As in next(): the body is released first, and the pull that follows rejects with the defect.
      this.finish();
      this.defect = { error };
      return undefined;
    }
  }

  async return(): Promise<Step> {
    this.finish();
    // A pull still waiting for a read ends as done; the read's result is dropped.
    if (this.waiter !== undefined) this.settleAfterClose(DONE, undefined);
    await this.afterClose();
    return DONE;
  }

  private readonly capture = (resolve: (step: Step) => void, reject: (error: unknown) => void): void => {
    this.waiter = { resolve, reject };
  };

  /**
   * Serves the pending pull: maps buffered frames until a part is ready, or starts one read (or frame pull) whose
   * callback continues here. Never awaits.
   */
  private pump(): void {
    try {
      for (;;) {
        if (this.fillFromBuffer()) {
          this.settle(this.handOut());
          return;
        }
        if (this.finished) {
          this.settleAfterClose(DONE, undefined);
          return;
        }
        if (!this.started) {
          this.start();
          continue;
        }
        // Checked before a read starts: a read left pending on a stalled body would hold up its release.
        if (this.aborted) {
          this.hold([CANCELLED]);
          continue;
        }
        if (this.parser === undefined) {
          (this.frames as AsyncIterator<TFrame>).next().then(this.onFrame, this.onReadFailure);
          return;
        }
        if (this.bodyEnded) {
          this.apply(undefined, true);
          continue;
        }
        this.body.read().then(this.onRead, this.onReadFailure);
        return;
      }
    } catch (error) {
      // A defect (an error that is no provider failure): release the body, then let it propagate.
      this.finish();
      this.settleAfterClose(undefined, error);
    }
  }

  private readonly onRead = (read: IteratorResult<Uint8Array>): void => {
    if (this.finished) return;
    try {
      this.items = (read.done === true ? (this.parser as SseParser).finish() : (this.parser as SseParser).push(read.value)) as readonly TFrame[];
      this.itemIndex = 0;
      if (read.done === true) this.bodyEnded = true;
    } catch (error) {
      if (!this.bufferFailure(error, false)) return;
    }
    this.pump();
  };

  private readonly onFrame = (next: IteratorResult<TFrame>): void => {
    if (this.finished) return;
    try {
      this.apply(next.done === true ? undefined : next.value, next.done === true);
    } catch (error) {
      this.finish();
      this.settleAfterClose(undefined, error);
      return;
    }
    this.pump();
  };

  private readonly onReadFailure = (error: unknown): void => {
    if (this.finished) return;
    if (this.bufferFailure(error, this.body.failedWith(error))) this.pump();
  };

  /** Settles a pending pull as `cancelled` at once when the signal aborts during a read. */
  private readonly onAbort = (): void => {
    this.aborted = true;
    if (this.waiter === undefined || this.finished) return;
    this.hold([CANCELLED]);
    this.settle(this.handOut());
  };

  /** Buffers the terminal for a failure; false (after settling the pull) when the failure is a defect. */
  private bufferFailure(error: unknown, fromBody: boolean): boolean {
    try {
      this.hold([this.failed(error, fromBody)]);
      return true;
    } catch (defect) {
      this.finish();
      this.settleAfterClose(undefined, defect);
      return false;
    }
  }

  /** Opens the frames, unless the signal had already aborted: then the run is cancelled without a read. */
  private start(): void {
    this.started = true;
    if (this.signal.aborted) {
      this.aborted = true;
      this.hold([CANCELLED]);
      return;
    }
    this.signal.addEventListener('abort', this.onAbort, { once: true });
    const { sse, decodeFrames } = this.options;
    if (sse !== undefined) this.parser = createSseParser(sse);
    else if (decodeFrames !== undefined) this.frames = decodeFrames(this.body)[Symbol.asyncIterator]();
    else throw new TypeError('createAdapterStreamParts needs `sse` or `decodeFrames`');
  }

  /** Whether a part is ready, mapping frames already decoded (the rest of the current read) until one yields a part. */
  private fillFromBuffer(): boolean {
    if (this.partIndex < this.parts.length) return true;
    if (this.parts.length > 0) this.hold(NO_PARTS);
    if (this.finished) return false;
    while (this.itemIndex < this.items.length) {
      const item = this.items[this.itemIndex] as TFrame;
      this.itemIndex += 1;
      this.apply(item, false);
      if (this.parts.length > 0) return true;
    }
    return false;
  }

  /** The next buffered part as a pull's result. */
  private handOut(): Step {
    return { done: false, value: this.takePart() };
  }

  /** The next buffered part; an abort turns it into `cancelled`, and a terminal ends the run. */
  private takePart(): Part {
    let part = this.parts[this.partIndex] as Part;
    this.partIndex += 1;
    if (this.aborted || (!this.started && this.signal.aborted)) part = CANCELLED;
    if (part.type === 'terminal') this.finish();
    return part;
  }

  /** Resolves the pending pull, then serves the next queued one. */
  private settle(step: Step): void {
    const waiter = this.waiter as Waiter;
    this.waiter = undefined;
    waiter.resolve(step);
    const next = this.queued.shift();
    if (next === undefined) return;
    this.waiter = next;
    this.pump();
  }

  /** Settles the pending pull (and any queued) once the body is released (at once after an abort). */
  private settleAfterClose(step: Step | undefined, error: unknown): void {
    const waiters = this.waiter === undefined ? [] : [this.waiter];
    waiters.push(...this.queued.splice(0));
    this.waiter = undefined;
    void this.afterClose().then(() => {
      for (const [position, waiter] of waiters.entries()) {
        if (position === 0 && step === undefined) waiter.reject(error);
        else waiter.resolve(DONE);
      }
    });
  }

  /** Runs the machine on one frame (or the end of the frames) and buffers its events and terminal. */
  private apply(frame: TFrame | undefined, ended: boolean): void {
    let step: AdapterStreamStep | undefined;
    try {
      step = ended ? this.machine.onEnd?.() : this.machine.onFrame(frame as TFrame);
    } catch (error) {
      this.hold([this.failed(error, false)]);
      return;
    }
    const events: readonly Part[] = step?.events ?? NO_PARTS;
    if (step?.terminal !== undefined) this.hold([...events, { type: 'terminal', outcome: step.terminal }]);
    else if (ended) {
      reportDiagnostic(this.options.reportDiagnostic, {
        code: 'truncated-stream',
        rule: 'the body ended before the family\'s terminal event',
        expected: 'a terminal event, then the end of the body',
      });
      this.hold([...events, failedPart('truncated-stream', this.machine.usageSoFar?.())]);
    }
    else this.hold(events);
  }

  /** Makes `parts` the parts to hand out. Only called once every part held before was taken. */
  private hold(parts: readonly Part[]): void {
    this.parts = parts;
    this.partIndex = 0;
  }

  private failed(error: unknown, fromBody: boolean): Part {
    const usage = this.machine.usageSoFar?.();
    const report = this.options.reportDiagnostic;
    const outcome = terminalForError(error, {
      signal: this.signal,
      ...(usage === undefined ? {} : { usage }),
      ...(report === undefined ? {} : { reportDiagnostic: report }),
    });
    if (outcome !== undefined) return { type: 'terminal', outcome };
    if (!fromBody) throw error;
    // A host transport that fails a read without a typed failure still failed to deliver the stream.
    reportDiagnostic(this.options.reportDiagnostic, { code: 'network', rule: 'a body read failed without a typed transport failure' });
    return failedPart('network', usage);
  }

  /** Ends the run and starts releasing the body (once); pulls still waiting end as done. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.hold(NO_PARTS);
    this.items = [];
    if (this.started) this.signal.removeEventListener('abort', this.onAbort);
    // The body is released directly, not only through the decoder: after an abort a read may still be pending,
    // and a generator's return() waits behind it. For the same reason an aborted stream does not wait.
    this.closing = Promise.all([this.frames === undefined ? undefined : releaseIterator(this.frames), this.body.release()]).then(() => undefined);
  }

  private afterClose(): Promise<void> {
    return this.closing !== undefined && !this.signal.aborted ? this.closing : Promise.resolve();
  }
}

function failedPart(code: 'network' | 'truncated-stream', usage: UsageV3 | undefined): Part {
  const failure = { code, retryable: true };
  const outcome: AdapterTerminalOutcomeV4 = usage === undefined ? { status: 'failed', failure } : { status: 'failed', failure, usage };
  return { type: 'terminal', outcome };
}


const BODY_DONE: IteratorResult<Uint8Array> = Object.freeze({ done: true, value: undefined });

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
    return {
      next: () => this.read(),
      return: async () => {
        await this.release();
        return { done: true, value: undefined };
      },
    };
  }

  /**
   * One read of the transport body; done once it ended, failed or was released. Not an async function: the read's
   * own promise is chained once, without the extra turns an `await` inside an async function costs per read.
   */
  read(): Promise<IteratorResult<Uint8Array>> {
    if (this.settled || this.readError !== undefined) return Promise.resolve(BODY_DONE);
    let pending: Promise<IteratorResult<Uint8Array>>;
    try {
      pending = Promise.resolve(this.open().next());
    } catch (error) {
      return Promise.reject(this.recordFailure(error));
    }
    return pending.then(this.afterRead, this.readFailed);
  }

  private readonly afterRead = (step: IteratorResult<Uint8Array>): IteratorResult<Uint8Array> => {
    try {
      if (step.done === true) this.settled = true;
    } catch (error) {
      throw this.recordFailure(error);
    }
    return step;
  };

  private readonly readFailed = (error: unknown): never => {
    throw this.recordFailure(error);
  };

  /** Not settled: a failed body is still asked to close, like one abandoned mid-way. */
  private recordFailure(error: unknown): unknown {
    this.readError = { error };
    return error;
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
