import {
  ADAPTER_STREAM_TAKE_BUFFERED_V1,
  ProviderTransportFailureV1,
  type AdapterStreamPartV1,
  type ProviderAdapterFactory,
} from '@tokenforge/model-protocol';
import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProtocolEngineV1 } from '../../engine/v1/create-protocol-engine-v1.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import { CHAT_FAMILY, chatCapability, chatTask, countingBinding, makeTarget, registryOf, terminalPart, textBlock } from '../../test-support/fakes.js';

type Script = readonly (readonly unknown[])[];

/**
 * Parts as an adapter reading a body holds them: `reads` arrive one per pull; the parts of a read after its first
 * can be taken synchronously. `failAt` makes the take (or pull) at that part throw `failure`.
 */
class BufferedParts implements AsyncIterableIterator<unknown> {
  pulls = 0;
  takes = 0;
  released = false;
  private ready: unknown[] = [];
  private read = 0;
  private served = 0;

  constructor(
    private readonly reads: Script,
    readonly withTake: boolean,
    private readonly failAt = -1,
    private readonly failure: unknown = new TypeError('defect'),
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  [ADAPTER_STREAM_TAKE_BUFFERED_V1](): unknown {
    if (!this.withTake) throw new Error('not offered');
    if (this.ready.length === 0) return undefined;
    this.takes += 1;
    return this.serve();
  }

  async next(): Promise<IteratorResult<unknown>> {
    this.pulls += 1;
    if (this.ready.length === 0) {
      if (this.read >= this.reads.length) return { done: true, value: undefined };
      this.ready = [...(this.reads[this.read] as readonly unknown[])];
      this.read += 1;
      if (this.ready.length === 0) return this.next();
    }
    return { done: false, value: this.serve() };
  }

  async return(): Promise<IteratorResult<unknown>> {
    this.released = true;
    return { done: true, value: undefined };
  }

  private serve(): unknown {
    if (this.served === this.failAt) throw this.failure;
    this.served += 1;
    return this.ready.shift();
  }
}

/** The parts as the adapter hands them over: without the take method, served through next() alone. */
function servedAs(parts: BufferedParts): AsyncIterable<AdapterStreamPartV1> {
  if (parts.withTake) return parts as AsyncIterable<AdapterStreamPartV1>;
  return { [Symbol.asyncIterator]: () => ({ next: () => parts.next(), return: () => parts.return() }) } as AsyncIterable<AdapterStreamPartV1>;
}

/** How the host reads the engine's events: `for await`, or `next()` then the engine's own take until it answers `undefined`. */
type HostRead = 'iterate' | 'take';

async function runEngine(parts: BufferedParts, signal = new AbortController().signal, host: HostRead = 'iterate') {
  const factory: ProviderAdapterFactory = {
    protocolFamily: CHAT_FAMILY,
    createAdapter: () => ({
      execute: async () => ({
        kind: 'stream',
        acceptance: { state: 'accepted' },
        responseMetadata: {},
        parts: servedAs(parts),
      }),
    }),
  };
  const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
  const execution = await engine.execute({ binding: countingBinding(makeTarget(chatCapability())).binding, task: chatTask({ stream: true }), signal });
  if (execution.kind !== 'stream') throw new Error('expected a stream');
  const events: unknown[] = [];
  let error: unknown;
  try {
    if (host === 'iterate') for await (const event of execution.events) events.push(event);
    else {
      const iterator = execution.events[Symbol.asyncIterator]() as AsyncIterator<unknown> & { [ADAPTER_STREAM_TAKE_BUFFERED_V1]?: () => unknown };
      const take = iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1];
      if (typeof take !== 'function') throw new Error('the engine offers no take');
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
        events.push(next.value);
        for (let held = take.call(iterator); held !== undefined; held = take.call(iterator)) events.push(held);
      }
    }
  } catch (caught) {
    error = caught;
  }
  const terminal = await execution.terminal.then(
    (outcome) => ({ outcome }),
    (caught: unknown) => ({ error: caught }),
  );
  return { events, error: isProtocolEngineErrorV1(error) ? error.code : error, terminal };
}

const completed = (text: string) => terminalPart({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text }] }, finishReason: { unified: 'stop' } });

describe('engine stream: parts taken from the adapter without a pull', () => {
  it('takes the buffered parts of each read and pulls only for the next read', async () => {
    const parts = new BufferedParts([[...textBlock(0, 'Hel', 'lo')], [completed('Hello')]], true);
    const result = await runEngine(parts);
    expect(result.events).toEqual(textBlock(0, 'Hel', 'lo'));
    expect(result.terminal).toEqual({ outcome: { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'Hello' }] }, finishReason: { unified: 'stop' } } });
    expect(parts.pulls).toBe(2);
    expect(parts.takes).toBe(3);
    expect(parts.released).toBe(true);
  });

  it('lets the host take the rest of a read from the engine, validated, with one next() per read', async () => {
    const parts = new BufferedParts([[...textBlock(0, 'Hel', 'lo')], [completed('Hello')]], true);
    let nexts = 0;
    const factory: ProviderAdapterFactory = {
      protocolFamily: CHAT_FAMILY,
      createAdapter: () => ({ execute: async () => ({ kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: {}, parts: parts as AsyncIterable<AdapterStreamPartV1> }) }),
    };
    const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
    const execution = await engine.execute({ binding: countingBinding(makeTarget(chatCapability())).binding, task: chatTask({ stream: true }), signal: new AbortController().signal });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const iterator = execution.events[Symbol.asyncIterator]() as AsyncIterator<unknown> & { [ADAPTER_STREAM_TAKE_BUFFERED_V1](): unknown };
    const events: unknown[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      nexts += 1;
      events.push(next.value);
      for (let held = iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1](); held !== undefined; held = iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()) events.push(held);
    }
    expect(events).toEqual(textBlock(0, 'Hel', 'lo'));
    expect(nexts).toBe(1);
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toBeUndefined();
    expect((await execution.terminal).status).toBe('completed');
  });

  it('fails a take that throws like a pull that rejects: adapter defect or transport failure', async () => {
    const defect = await runEngine(new BufferedParts([[...textBlock(0, 'a', 'b'), completed('ab')]], true, 2));
    expect(defect.error).toBe('PROTOCOL_ENGINE_ADAPTER_FAILED');
    expect(defect.terminal).toMatchObject({ error: { code: 'PROTOCOL_ENGINE_ADAPTER_FAILED' } });
    const transport = await runEngine(
      new BufferedParts([[...textBlock(0, 'a', 'b'), completed('ab')]], true, 1, new ProviderTransportFailureV1('after-send', 'connection-lost')),
    );
    expect(transport.error).toBe('PROTOCOL_ENGINE_TRANSPORT_FAILED');
  });

  it('stops taking once the host aborted: the stream is cancelled and released', async () => {
    const controller = new AbortController();
    const parts = new BufferedParts([[...textBlock(0, 'a', 'b', 'c'), completed('abc')]], true);
    const factory: ProviderAdapterFactory = {
      protocolFamily: CHAT_FAMILY,
      createAdapter: () => ({ execute: async () => ({ kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: {}, parts: parts as AsyncIterable<AdapterStreamPartV1> }) }),
    };
    const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
    const execution = await engine.execute({ binding: countingBinding(makeTarget()).binding, task: chatTask({ stream: true }), signal: controller.signal });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const iterator = execution.events[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-start', index: 0 });
    controller.abort();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(await execution.terminal).toEqual({ status: 'cancelled' });
    expect(parts.released).toBe(true);
    expect(parts.takes).toBe(0);
  });

  it('answers the same events, terminal and error with or without the take method, for any parts and reads', async () => {
    const part = fc.constantFrom<unknown>(
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'x' },
      { type: 'text-end', index: 0 },
      { type: 'text-delta', index: 1, delta: 'orphan' },
      { type: 'usage', usage: { outputTokens: 2 } },
      { type: 'usage', usage: { outputTokens: 1 } },
      { type: 'bogus' },
      completed('x'),
      completed('xx'),
      terminalPart({ status: 'failed', failure: { code: 'overloaded', retryable: true } }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(part, { maxLength: 4 }), { maxLength: 6 }),
        fc.integer({ min: -1, max: 12 }),
        fc.boolean(),
        async (reads, failAt, transportFailure) => {
          const failure = transportFailure ? new ProviderTransportFailureV1('after-send', 'connection-lost') : new TypeError('defect');
          const taking = new BufferedParts(reads, true, failAt, failure);
          const pulling = new BufferedParts(reads, false, failAt, failure);
          const hostTaking = new BufferedParts(reads, true, failAt, failure);
          const viaTake = await runEngine(taking);
          const viaNext = await runEngine(pulling);
          // The host's own take of the engine's events (the gateway's one write per read) sees the same too.
          const viaHostTake = await runEngine(hostTaking, undefined, 'take');
          expect(viaHostTake.events).toEqual(viaNext.events);
          expect(viaHostTake.error).toEqual(viaNext.error);
          expect(hostTaking.released).toBe(pulling.released);
          expect(viaTake.events).toEqual(viaNext.events);
          expect(viaTake.error).toEqual(viaNext.error);
          const code = (settled: { outcome?: unknown; error?: unknown }) =>
            settled.error === undefined ? settled.outcome : isProtocolEngineErrorV1(settled.error) ? settled.error.code : 'other';
          expect(code(viaTake.terminal)).toEqual(code(viaNext.terminal));
          expect(code(viaHostTake.terminal)).toEqual(code(viaNext.terminal));
          expect(taking.released).toBe(pulling.released);
          expect(taking.pulls).toBeLessThanOrEqual(pulling.pulls);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps nothing on a long-lived host signal after thousands of streams', async () => {
    const host = new AbortController();
    for (let run = 0; run < 2000; run += 1) {
      const result = await runEngine(new BufferedParts([[...textBlock(0, 'a'), completed('a')]], run % 2 === 0), host.signal);
      expect(result.error).toBeUndefined();
    }
    expect(getEventListeners(host.signal, 'abort').length).toBeLessThanOrEqual(1);
    // No per-stream record may pile up on the host signal (Node's AbortSignal.any leaves one per call).
    for (const symbol of Object.getOwnPropertySymbols(host.signal)) {
      // Node keeps these in its own Set and Map classes, so they are recognised by their size, not by class.
      const held = (host.signal as unknown as Record<symbol, { size?: unknown } | undefined>)[symbol];
      if (typeof held?.size === 'number') expect(held.size).toBeLessThanOrEqual(1);
    }
  });
});
