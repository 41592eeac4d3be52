import {
  ADAPTER_STREAM_TAKE_BUFFERED_V1,
  isProviderTransportFailureV1,
  type AdapterTerminalOutcomeV4,
  type NormalizedStreamEventV4,
  type ProtocolCapabilityV3,
  type ProviderAcceptanceFacts,
  type ProviderResponseMetadataV3,
  type TaskEnvelopeV4,
} from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_API_VERSION } from '../../contracts/v1/api-version.js';
import type { ProtocolEngineStreamV1 } from '../../contracts/v1/protocol-engine-contracts-v1.js';
import {
  PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES,
  engineError,
  type ProtocolEngineErrorV1,
} from '../../error/v1/protocol-engine-error-v1.js';
import { toEngineError } from '../../engine/v1/guard-public-call.js';
import type { OutputSchemaCheck } from '../../validation/v3/output-schema-check.js';
import { StreamPartCheck } from './check-stream-part.js';
import { PullWaiters } from './pull-waiters.js';
import { releaseIterator } from './release-iterator.js';

/** Everything a validated stream execution needs. */
export interface EngineStreamInput {
  /** The adapter's parts iterator (already obtained, so it can be released before the first pull). */
  readonly iterator: AsyncIterator<unknown>;
  readonly task: TaskEnvelopeV4;
  readonly capability: ProtocolCapabilityV3;
  readonly acceptance: ProviderAcceptanceFacts;
  readonly responseMetadata: ProviderResponseMetadataV3;
  /** The host's signal (read, never listened to here: the engine links it to `controller` once per stream). */
  readonly hostSignal: AbortSignal;
  /**
   * The stream's own controller, whose signal the adapter received. It aborts when the host's signal does (the
   * engine's one link) or when the stream settles by cancel or failure; the stream listens to it alone.
   */
  readonly controller: AbortController;
  /** Drops the host link once the stream settled. */
  readonly dispose: () => void;
  /** The terminal check of a task that asked for a JSON schema (absent for every other task). */
  readonly outputSchemaCheck?: OutputSchemaCheck;
  /** Called once, when the host receives the first event (the observer's `stream-started`). */
  readonly onFirstEvent?: () => void;
}

type Result = IteratorResult<NormalizedStreamEventV4>;

/** The engine's event iterator: `next`/`return`, and the host's synchronous take of an event already held. */
type EngineEventIterator = AsyncIterator<NormalizedStreamEventV4> & { [ADAPTER_STREAM_TAKE_BUFFERED_V1](): NormalizedStreamEventV4 | undefined };

const DONE: Result = Object.freeze({ done: true, value: undefined });
const DONE_PROMISE = Promise.resolve(DONE);
const CANCELLED: AdapterTerminalOutcomeV4 = Object.freeze({ status: 'cancelled' });
const noop = (): void => undefined;

/**
 * Wraps an adapter's parts in the engine's stream lifecycle: one adapter pull per consumer pull, every event
 * validated before the host sees it, and exactly one settlement of `terminal` (drained, cancelled or failed)
 * that also releases the adapter iterator, and with it the transport.
 */
export function createEngineStream(input: EngineStreamInput): ProtocolEngineStreamV1 {
  const run = new EngineStreamRun(input);
  let iterated = false;
  const events: AsyncIterable<NormalizedStreamEventV4> = {
    [Symbol.asyncIterator]: () => {
      if (iterated) throw engineError(CODES.STREAM_MISUSE, 'the stream events can be iterated only once');
      iterated = true;
      return run.events;
    },
  };
  return Object.freeze({
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    kind: 'stream',
    acceptance: input.acceptance,
    responseMetadata: input.responseMetadata,
    events,
    terminal: run.terminal,
    abort: (reason: unknown) => run.cancel(reason),
  });
}

/** The engine error for a pull (or take) that threw: the transport's failure, or the adapter's. */
function pullFailure(error: unknown): ProtocolEngineErrorV1 {
  return isProviderTransportFailureV1(error)
    ? engineError(CODES.TRANSPORT_FAILED, `the provider transport failed during the stream, ${error.stage}: ${error.reason}`, error)
    : engineError(CODES.ADAPTER_FAILED, 'the adapter failed during the stream', error);
}

/**
 * One stream: the pull loop (`next`, `pump`, `onStep`, `onPullError`, the take-buffered fast path) over three
 * helpers, each in its own file: {@link PullWaiters} (who waits), {@link StreamPartCheck} (what passes) and
 * `releaseIterator` (how the adapter is told to stop). Settlement (`complete`, `cancel`, `fail`) happens once.
 */
class EngineStreamRun {
  readonly terminal: Promise<AdapterTerminalOutcomeV4>;
  readonly events: EngineEventIterator;
  private readonly iterator: AsyncIterator<unknown>;
  private readonly input: EngineStreamInput;
  private readonly controller: AbortController;
  private readonly waiters = new PullWaiters();
  private onFirstEvent: (() => void) | undefined;
  private readonly parts: StreamPartCheck;
  private readonly takeBuffered: (() => unknown) | undefined;
  private settled = false;
  private pulling = false;
  /** A failure met by a synchronous take, reported by the next `next()`. */
  private deferredFailure: { readonly error: unknown } | undefined;
  private resolveTerminal!: (outcome: AdapterTerminalOutcomeV4) => void;
  private rejectTerminal!: (error: unknown) => void;

  constructor(input: EngineStreamInput) {
    this.input = input;
    this.iterator = input.iterator;
    this.controller = input.controller;
    this.onFirstEvent = input.onFirstEvent;
    this.parts = new StreamPartCheck(input.task, input.capability, input.acceptance, input.outputSchemaCheck);
    const take = (input.iterator as { [ADAPTER_STREAM_TAKE_BUFFERED_V1]?: unknown })[ADAPTER_STREAM_TAKE_BUFFERED_V1];
    this.takeBuffered = typeof take === 'function' ? (take as () => unknown) : undefined;
    this.terminal = new Promise<AdapterTerminalOutcomeV4>((resolve, reject) => {
      this.resolveTerminal = resolve;
      this.rejectTerminal = reject;
    });
    // A host that only iterates must not see an unhandled rejection for the terminal it never awaited.
    this.terminal.catch(noop);
    this.events = { next: () => this.next(), return: () => this.leave(), [ADAPTER_STREAM_TAKE_BUFFERED_V1]: () => this.takeReady() };
    const signal = this.controller.signal;
    if (signal.aborted) queueMicrotask(() => this.cancel(signal.reason));
    else signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The stream's controller aborted: by the host (through the engine's link) or by the stream's own settlement. */
  private readonly onAbort = (): void => {
    this.cancel(this.controller.signal.reason);
  };

  private next(): Promise<Result> {
    const deferred = this.deferredFailure;
    if (deferred !== undefined) {
      this.deferredFailure = undefined;
      return Promise.reject(deferred.error);
    }
    if (this.settled) return DONE_PROMISE;
    if (this.takeBuffered !== undefined && !this.waiters.waiting) {
      let ready: Result | undefined;
      try {
        ready = this.nextBuffered();
      } catch (error) {
        return Promise.reject(error);
      }
      if (ready !== undefined) return ready.done === true ? DONE_PROMISE : Promise.resolve(ready);
      if (this.settled) return DONE_PROMISE;
    }
    if (this.waiters.waiting) return this.waiters.queue();
    const promise = new Promise<Result>(this.waiters.capture);
    this.pump();
    return promise;
  }

  /**
   * The host's fast path (the same registered symbol as the adapters' take): the next event when the adapter
   * already holds it, validated, consumed as `next()` would have; `undefined` when it needs a pull, when the
   * stream has ended (the next `next()` says done) or when the take failed (the next `next()` rejects with the
   * failure). Lets a host gather the events of one upstream read without a promise per event.
   */
  private takeReady(): NormalizedStreamEventV4 | undefined {
    if (this.settled || this.takeBuffered === undefined || this.waiters.waiting || this.deferredFailure !== undefined) return undefined;
    try {
      const ready = this.nextBuffered();
      return ready === undefined || ready.done === true ? undefined : ready.value;
    } catch (error) {
      this.deferredFailure = { error };
      return undefined;
    }
  }

  /** A consumer that leaves early (break, throw) cancels the stream and releases the transport. */
  private leave(): Promise<Result> {
    this.cancel(undefined);
    return Promise.resolve(DONE);
  }

  /**
   * A part the adapter already holds, validated without a pull: its result, or `undefined` when none is ready.
   * Throws the engine error of a failed take or an invalid part (the stream is then settled as failed).
   */
  private nextBuffered(): Result | undefined {
    let part: unknown;
    try {
      part = (this.takeBuffered as () => unknown).call(this.iterator);
    } catch (error) {
      if (this.controller.signal.aborted || this.input.hostSignal.aborted) {
        this.cancel(this.input.hostSignal.aborted ? this.input.hostSignal.reason : undefined);
        return DONE;
      }
      throw this.fail(pullFailure(error));
    }
    if (part === undefined) return undefined;
    try {
      return this.resultOf(this.parts.check(part));
    } catch (error) {
      throw this.fail(toEngineError(error, CODES.ADAPTER_OUTPUT_INVALID));
    }
  }

  private pump(): void {
    if (this.pulling || !this.waiters.waiting) return;
    if (this.settled) {
      this.waiters.flush();
      return;
    }
    this.pulling = true;
    let step: unknown;
    try {
      step = this.iterator.next();
    } catch (error) {
      this.onPullError(error);
      return;
    }
    if (typeof step === 'object' && step !== null && typeof (step as PromiseLike<unknown>).then === 'function') {
      (step as PromiseLike<unknown>).then(this.onStep, this.onPullError);
    } else {
      this.onStep(step);
    }
  }

  private readonly onStep = (step: unknown): void => {
    this.pulling = false;
    if (!this.waiters.waiting) return;
    if (this.settled) {
      this.waiters.flush();
      return;
    }
    let result: Result;
    try {
      result = this.resultOf(this.parts.checkStep(step));
    } catch (error) {
      this.waiters.rejectHead(this.fail(toEngineError(error, CODES.ADAPTER_OUTPUT_INVALID)));
      this.waiters.flush();
      return;
    }
    this.waiters.resolveHead(result);
    if (this.waiters.waiting) this.pump();
  };

  private readonly onPullError = (error: unknown): void => {
    this.pulling = false;
    const hostSignal = this.input.hostSignal;
    if (this.settled || this.controller.signal.aborted || hostSignal.aborted) {
      this.cancel(hostSignal.aborted ? hostSignal.reason : undefined);
      this.waiters.flush();
      return;
    }
    this.waiters.rejectHead(this.fail(pullFailure(error)));
    this.waiters.flush();
  };

  /** The consumer's result of a checked part: the event, or the end after a terminal, which settles the stream. */
  private resultOf(event: NormalizedStreamEventV4 | undefined): Result {
    if (event !== undefined) {
      if (this.onFirstEvent !== undefined) {
        const first = this.onFirstEvent;
        this.onFirstEvent = undefined;
        first();
      }
      return { done: false, value: event };
    }
    this.settle();
    releaseIterator(this.iterator);
    this.resolveTerminal(this.parts.outcome as AdapterTerminalOutcomeV4);
    return DONE;
  }

  cancel(reason: unknown): void {
    if (this.settled) return;
    this.settle({ reason });
    releaseIterator(this.iterator);
    this.resolveTerminal(CANCELLED);
    this.waiters.flush();
  }

  private fail(error: ProtocolEngineErrorV1): ProtocolEngineErrorV1 {
    if (!this.settled) {
      this.settle({ reason: error });
      releaseIterator(this.iterator);
      this.rejectTerminal(error);
    }
    return error;
  }

  /** Marks the stream settled; an abort reaches the adapter's signal before the host link is dropped. */
  private settle(abort?: { readonly reason: unknown }): void {
    this.settled = true;
    this.controller.signal.removeEventListener('abort', this.onAbort);
    if (abort !== undefined) this.controller.abort(abort.reason);
    this.input.dispose();
  }
}
