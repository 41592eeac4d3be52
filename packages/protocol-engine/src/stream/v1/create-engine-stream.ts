import {
  ADAPTER_STREAM_TAKE_BUFFERED_V1,
  isProviderTransportFailureV1,
  type AdapterTerminalOutcome,
  type NormalizedStreamEventV1,
  type ProtocolCapabilityV2,
  type ProviderAcceptanceFacts,
  type ProviderResponseMetadata,
  type TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_API_VERSION } from '../../contracts/v1/api-version.js';
import type { ProtocolEngineStreamV1 } from '../../contracts/v1/protocol-engine-contracts-v1.js';
import {
  PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES,
  engineError,
  type ProtocolEngineErrorV1,
} from '../../error/v1/protocol-engine-error-v1.js';
import { toEngineError } from '../../engine/v1/guard-public-call.js';
import { checkTerminal, outputInvalid } from '../../validation/v1/check-adapter-output.js';
import { checkStreamEvent } from '../../validation/v1/check-stream-event.js';
import { onceAborted } from './shared-abort-listener.js';
import { StreamLifecycle } from './stream-lifecycle.js';

/** Everything a validated stream execution needs. */
export interface EngineStreamInput {
  /** The adapter's parts iterator (already obtained, so it can be released before the first pull). */
  readonly iterator: AsyncIterator<unknown>;
  readonly task: TaskEnvelopeV2;
  readonly capability: ProtocolCapabilityV2;
  readonly acceptance: ProviderAcceptanceFacts;
  readonly responseMetadata: ProviderResponseMetadata;
  /** The host's signal; aborting it cancels the stream. */
  readonly hostSignal: AbortSignal;
  /** The stream's own controller, whose signal (combined with the host's) the adapter received. */
  readonly controller: AbortController;
  /** Drops signal links once the stream settled. */
  readonly dispose: () => void;
}

type Resolve = (result: IteratorResult<NormalizedStreamEventV1>) => void;
type Reject = (error: unknown) => void;

interface Waiter {
  readonly resolve: Resolve;
  readonly reject: Reject;
}

const DONE: IteratorResult<NormalizedStreamEventV1> = Object.freeze({ done: true, value: undefined });
const DONE_PROMISE = Promise.resolve(DONE);
const CANCELLED: AdapterTerminalOutcome = Object.freeze({ status: 'cancelled' });
const noop = (): void => undefined;

/**
 * Wraps an adapter's parts in the engine's stream lifecycle: one adapter pull per consumer pull, every event
 * validated before the host sees it, and exactly one settlement of `terminal` (drained, cancelled or failed)
 * that also releases the adapter iterator, and with it the transport.
 */
export function createEngineStream(input: EngineStreamInput): ProtocolEngineStreamV1 {
  const { iterator, task, capability, hostSignal, controller } = input;
  const lifecycle = new StreamLifecycle();
  // The consumer promise waiting for the pull in flight lives in two slots (the hot path allocates no queue entry);
  // further concurrent next() calls, which a for-await loop never makes, wait in `overflow`.
  let headResolve: Resolve | undefined;
  let headReject: Reject | undefined;
  const overflow: Waiter[] = [];
  const capture = (resolve: Resolve, reject: Reject): void => {
    headResolve = resolve;
    headReject = reject;
  };
  let settled = false;
  let pulling = false;
  let iterated = false;

  let resolveTerminal!: (outcome: AdapterTerminalOutcome) => void;
  let rejectTerminal!: (error: unknown) => void;
  const terminal = new Promise<AdapterTerminalOutcome>((resolve, reject) => {
    resolveTerminal = resolve;
    rejectTerminal = reject;
  });
  // A host that only iterates must not see an unhandled rejection for the terminal it never awaited.
  terminal.catch(noop);

  let unlinkHost: () => void = noop;
  if (hostSignal.aborted) queueMicrotask(() => cancel(hostSignal.reason));
  else unlinkHost = onceAborted(hostSignal, () => cancel(hostSignal.reason));

  /** Marks the stream settled; an abort reaches the adapter's signal before the signal links are dropped. */
  function settle(abort?: { readonly reason: unknown }): void {
    settled = true;
    if (abort !== undefined) controller.abort(abort.reason);
    unlinkHost();
    input.dispose();
  }

  function releaseIterator(): void {
    try {
      const result = iterator.return?.();
      if (result !== undefined && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as Promise<unknown>).then(noop, noop);
      }
    } catch {
      // Releasing is best effort; the abort signal already told the adapter to stop.
    }
  }

  /** Moves the next queued consumer into the head slots. */
  function advance(): void {
    const next = overflow.shift();
    headResolve = next?.resolve;
    headReject = next?.reject;
  }

  function flushWaiters(): void {
    const resolve = headResolve;
    headResolve = undefined;
    headReject = undefined;
    resolve?.(DONE);
    for (const waiter of overflow.splice(0)) waiter.resolve(DONE);
  }

  function cancel(reason: unknown): void {
    if (settled) return;
    settle({ reason });
    releaseIterator();
    resolveTerminal(CANCELLED);
    flushWaiters();
  }

  function fail(error: ProtocolEngineErrorV1): ProtocolEngineErrorV1 {
    if (!settled) {
      settle({ reason: error });
      releaseIterator();
      rejectTerminal(error);
    }
    return error;
  }

  function complete(outcome: AdapterTerminalOutcome): void {
    settle();
    releaseIterator();
    resolveTerminal(outcome);
  }

  /** Turns one adapter step into the consumer's result, settling the stream at its terminal. */
  function handleStep(step: unknown): IteratorResult<NormalizedStreamEventV1> {
    if (typeof step !== 'object' || step === null) throw fail(outputInvalid('the parts iterator returned a non-object step'));
    const { done, value } = step as IteratorResult<unknown>;
    if (done === true) throw fail(outputInvalid('the stream ended without a terminal part'));
    return handlePart(value);
  }

  /** Validates one part: an event is handed on, the terminal settles the stream. */
  function handlePart(value: unknown): IteratorResult<NormalizedStreamEventV1> {
    if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'terminal') {
      for (const key in value) {
        if (key !== 'type' && key !== 'outcome') throw fail(outputInvalid('the terminal part has an undeclared field'));
      }
      let outcome: AdapterTerminalOutcome;
      try {
        outcome = checkTerminal((value as { outcome?: unknown }).outcome, task, capability);
      } catch (error) {
        throw fail(toEngineError(error, CODES.ADAPTER_OUTPUT_INVALID));
      }
      const problem = lifecycle.checkTerminal(outcome);
      if (problem !== undefined) throw fail(outputInvalid(problem));
      if (outcome.status === 'completed' && input.acceptance.state !== 'accepted') {
        throw fail(outputInvalid('a completed terminal needs accepted acceptance facts'));
      }
      complete(outcome);
      return DONE;
    }
    const event = checkStreamEvent(value);
    if (event === undefined) throw fail(outputInvalid('a stream event is malformed'));
    const problem = lifecycle.accept(event);
    if (problem !== undefined) throw fail(outputInvalid(problem));
    return { done: false, value: event };
  }

  function onStep(step: unknown): void {
    pulling = false;
    const resolve = headResolve;
    const reject = headReject;
    if (resolve === undefined || reject === undefined) return;
    if (settled) {
      flushWaiters();
      return;
    }
    advance();
    let result: IteratorResult<NormalizedStreamEventV1>;
    try {
      result = handleStep(step);
    } catch (error) {
      reject(fail(toEngineError(error, CODES.ADAPTER_OUTPUT_INVALID)));
      flushWaiters();
      return;
    }
    resolve(result);
    if (headResolve !== undefined) pump();
  }

  /** The engine error for a pull (or take) that threw: the transport's failure, or the adapter's. */
  function pullFailure(error: unknown): ProtocolEngineErrorV1 {
    return isProviderTransportFailureV1(error)
      ? engineError(CODES.TRANSPORT_FAILED, 'the provider transport failed during the stream', error)
      : engineError(CODES.ADAPTER_FAILED, 'the adapter failed during the stream', error);
  }

  function onPullError(error: unknown): void {
    pulling = false;
    if (settled || controller.signal.aborted || hostSignal.aborted) {
      cancel(hostSignal.aborted ? hostSignal.reason : undefined);
      flushWaiters();
      return;
    }
    const engineFailure = fail(pullFailure(error));
    const reject = headReject;
    advance();
    reject?.(engineFailure);
    flushWaiters();
  }

  function pump(): void {
    if (pulling || headResolve === undefined) return;
    if (settled) {
      flushWaiters();
      return;
    }
    pulling = true;
    let step: unknown;
    try {
      step = iterator.next();
    } catch (error) {
      onPullError(error);
      return;
    }
    if (typeof step === 'object' && step !== null && typeof (step as PromiseLike<unknown>).then === 'function') {
      (step as PromiseLike<unknown>).then(onStep, onPullError);
    } else {
      onStep(step);
    }
  }

  const takeBuffered = (iterator as { [ADAPTER_STREAM_TAKE_BUFFERED_V1]?: unknown })[ADAPTER_STREAM_TAKE_BUFFERED_V1];
  const canTake = typeof takeBuffered === 'function';

  /** The fast path: a part the adapter already holds, validated without a pull. `undefined` when none is ready. */
  function nextBuffered(): Promise<IteratorResult<NormalizedStreamEventV1>> | undefined {
    let part: unknown;
    try {
      part = (takeBuffered as () => unknown).call(iterator);
    } catch (error) {
      if (controller.signal.aborted || hostSignal.aborted) {
        cancel(hostSignal.aborted ? hostSignal.reason : undefined);
        return DONE_PROMISE;
      }
      return Promise.reject(fail(pullFailure(error)));
    }
    if (part === undefined) return undefined;
    try {
      return Promise.resolve(handlePart(part));
    } catch (error) {
      return Promise.reject(fail(toEngineError(error, CODES.ADAPTER_OUTPUT_INVALID)));
    }
  }

  const eventIterator: AsyncIterator<NormalizedStreamEventV1> = {
    next: () => {
      if (settled) return DONE_PROMISE;
      if (canTake && headResolve === undefined) {
        const ready = nextBuffered();
        if (ready !== undefined) return ready;
        if (settled) return DONE_PROMISE;
      }
      if (headResolve !== undefined) {
        return new Promise<IteratorResult<NormalizedStreamEventV1>>((resolve, reject) => overflow.push({ resolve, reject }));
      }
      const promise = new Promise<IteratorResult<NormalizedStreamEventV1>>(capture);
      pump();
      return promise;
    },
    return: () => {
      // A consumer that leaves early (break, throw) cancels the stream and releases the transport.
      cancel(undefined);
      return Promise.resolve(DONE);
    },
  };

  const events: AsyncIterable<NormalizedStreamEventV1> = {
    [Symbol.asyncIterator]: () => {
      if (iterated) throw engineError(CODES.STREAM_MISUSE, 'the stream events can be iterated only once');
      iterated = true;
      return eventIterator;
    },
  };

  return Object.freeze({
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    kind: 'stream',
    acceptance: input.acceptance,
    responseMetadata: input.responseMetadata,
    events,
    terminal,
    abort: (reason: unknown) => cancel(reason),
  });
}
