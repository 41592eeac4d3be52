import { ProviderTransportFailureV1, type AdapterTerminalOutcomeV4, type NormalizedStreamEventV4 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import type { ProtocolEngineStreamV1 } from '../../contracts/v1/protocol-engine-contracts-v1.js';
import { createProtocolEngineV1 } from '../../engine/v1/create-protocol-engine-v1.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import { linkedCallbackCount } from './shared-abort-listener.js';
import {
  chatCapability,
  chatTask,
  collect,
  countingBinding,
  makeTarget,
  newSignal,
  registryOf,
  streamFactory,
  terminalPart,
  textBlock,
  type StreamProbe,
} from '../../test-support/fakes.js';

const chatResult = (...content: unknown[]) => ({ status: 'completed', result: { kind: 'chat', content }, finishReason: { unified: 'stop' } });
const HELLO: unknown[] = [...textBlock(0, 'Hel', 'lo'), terminalPart(chatResult({ type: 'text', text: 'Hello' }))];

async function openStream(
  parts: readonly unknown[] | ((probe: StreamProbe) => AsyncGenerator<unknown>),
  signal: AbortSignal = newSignal(),
  tools = false,
): Promise<{ stream: ProtocolEngineStreamV1; probe: StreamProbe }> {
  const factory = streamFactory(parts);
  const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
  const execution = await engine.execute({
    binding: countingBinding(makeTarget(chatCapability({ tools }))).binding,
    task: chatTask({ stream: true }),
    signal,
  });
  if (execution.kind !== 'stream') throw new Error('expected a stream');
  return { stream: execution, probe: factory.probe };
}

async function streamFailure(parts: readonly unknown[]): Promise<string> {
  const { stream, probe } = await openStream(parts);
  let iteratorError: unknown;
  try {
    await collect(stream.events);
  } catch (error) {
    iteratorError = error;
  }
  const terminalError = await stream.terminal.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(terminalError).toBe(iteratorError);
  expect(probe.released).toBe(true);
  return isProtocolEngineErrorV1(iteratorError) ? iteratorError.code : 'no engine error';
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('engine stream: one host-signal link per stream', () => {
  it('links each open stream to the host signal once, and unlinks it when the stream settles', async () => {
    const host = newSignal();
    const first = await openStream(HELLO, host);
    expect(linkedCallbackCount(host)).toBe(1);
    const second = await openStream(HELLO, host);
    expect(linkedCallbackCount(host)).toBe(2);
    await collect(first.stream.events);
    expect(await first.stream.terminal).toMatchObject({ status: 'completed' });
    expect(linkedCallbackCount(host)).toBe(1);
    second.stream.abort('stop');
    expect(await second.stream.terminal).toEqual({ status: 'cancelled' });
    expect(linkedCallbackCount(host)).toBe(0);
  });

  it('a host abort still cancels an open stream through that one link', async () => {
    const controller = new AbortController();
    const { stream } = await openStream(HELLO, controller.signal);
    expect(linkedCallbackCount(controller.signal)).toBe(1);
    controller.abort('host stops');
    expect(await stream.terminal).toEqual({ status: 'cancelled' });
  });
});

describe('engine stream: happy path', () => {
  it('yields validated events and settles the terminal when drained, releasing the transport', async () => {
    const { stream, probe } = await openStream(HELLO);
    const events = await collect(stream.events);
    expect(events).toEqual(HELLO.slice(0, -1));
    expect(await stream.terminal).toEqual(chatResult({ type: 'text', text: 'Hello' }));
    expect(probe.released).toBe(true);
    expect(stream.apiVersion).toBe('tokenforge-protocol-engine/v1');
  });

  it('accepts interleaved blocks of every type, in index order at the terminal', async () => {
    const parts = [
      { type: 'reasoning-start', index: 0 },
      { type: 'tool-call-start', index: 2, toolCallId: 'call-1', toolName: 'weather' },
      { type: 'reasoning-delta', index: 0, delta: 'think' },
      { type: 'text-start', index: 1 },
      { type: 'tool-call-delta', index: 2, delta: '{"city":' },
      { type: 'text-delta', index: 1, delta: 'ok' },
      { type: 'reasoning-end', index: 0, signature: 'sig' },
      { type: 'tool-call-delta', index: 2, delta: '"Oslo"}' },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-end', index: 2, argumentsText: '{"city":"Oslo"}' },
      { type: 'reasoning-redacted', index: 3, data: 'opaque' },
      { type: 'refusal-start', index: 4 },
      { type: 'refusal-delta', index: 4, delta: 'no' },
      { type: 'refusal-end', index: 4 },
      { type: 'usage', usage: { inputTokens: 5 } },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 9 } },
      terminalPart({
        ...chatResult(
          { type: 'reasoning', text: 'think', signature: 'sig' },
          { type: 'text', text: 'ok' },
          { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', argumentsText: '{"city":"Oslo"}' },
          { type: 'redacted-reasoning', data: 'opaque' },
          { type: 'refusal', text: 'no' },
        ),
        usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14 },
      }),
    ];
    const { stream } = await openStream(parts, newSignal(), true);
    expect(await collect(stream.events)).toHaveLength(parts.length - 1);
    expect((await stream.terminal).status).toBe('completed');
  });

  it('returns a provider failure as a failed terminal even with open blocks', async () => {
    const failed = { status: 'failed', failure: { code: 'truncated-stream', retryable: true } };
    const { stream } = await openStream([{ type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'x' }, terminalPart(failed)]);
    await collect(stream.events);
    expect(await stream.terminal).toEqual(failed);
  });
});

describe('engine stream: lifecycle', () => {
  it('pulls one adapter part per consumer pull (backpressure)', async () => {
    const { stream, probe } = await openStream(HELLO);
    await tick();
    expect(probe.pulled).toBe(0);
    const iterator = stream.events[Symbol.asyncIterator]();
    await iterator.next();
    await tick();
    expect(probe.pulled).toBe(1);
    await iterator.next();
    await tick();
    expect(probe.pulled).toBe(2);
  });

  it('serves concurrent next() calls in order, one adapter pull each', async () => {
    const { stream, probe } = await openStream(HELLO);
    const iterator = stream.events[Symbol.asyncIterator]();
    const results = await Promise.all([iterator.next(), iterator.next(), iterator.next(), iterator.next(), iterator.next(), iterator.next()]);
    expect(results.map((result) => (result.done ? 'done' : result.value.type))).toEqual([
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'done',
      'done',
    ]);
    expect(probe.pulled).toBe(5);
    expect(await stream.terminal).toEqual(chatResult({ type: 'text', text: 'Hello' }));
  });

  it('refuses a second iteration with STREAM_MISUSE', async () => {
    const { stream } = await openStream(HELLO);
    stream.events[Symbol.asyncIterator]();
    expect(() => stream.events[Symbol.asyncIterator]()).toThrow(expect.objectContaining({ code: 'PROTOCOL_ENGINE_STREAM_MISUSE', phase: 'lifecycle' }));
  });

  it('abort(reason) settles cancelled, calls the adapter return() and aborts the adapter signal', async () => {
    const { stream, probe } = await openStream(HELLO);
    const iterator = stream.events[Symbol.asyncIterator]();
    await iterator.next();
    stream.abort(new Error('client left'));
    expect(await stream.terminal).toEqual({ status: 'cancelled' });
    expect(probe.released).toBe(true);
    expect(probe.signal?.aborted).toBe(true);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    stream.abort('again');
  });

  it('abort before any pull still releases the adapter and ends the events', async () => {
    let returned = false;
    const { stream } = await openStream(() => {
      const iterator = {
        next: async () => ({ done: false, value: { type: 'text-start', index: 0 } }),
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator as unknown as AsyncGenerator<unknown>;
    });
    stream.abort(undefined);
    expect(returned).toBe(true);
    expect(await collect(stream.events)).toEqual([]);
    expect(await stream.terminal).toEqual({ status: 'cancelled' });
  });

  it('a consumer that breaks early releases the transport and the terminal becomes cancelled', async () => {
    const { stream, probe } = await openStream(HELLO);
    for await (const event of stream.events) {
      expect(event.type).toBe('text-start');
      break;
    }
    expect(probe.released).toBe(true);
    expect(await stream.terminal).toEqual({ status: 'cancelled' });
  });

  it('the host signal aborting mid-stream cancels it, even while a pull is pending', async () => {
    const controller = new AbortController();
    const { stream, probe } = await openStream(async function* hanging(streamProbe) {
      try {
        yield { type: 'text-start', index: 0 };
        await new Promise(() => undefined);
      } finally {
        streamProbe.released = true;
      }
    }, controller.signal);
    const iterator = stream.events[Symbol.asyncIterator]();
    await iterator.next();
    const pending = iterator.next();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await stream.terminal).toEqual({ status: 'cancelled' });
    expect(probe.signal?.aborted).toBe(true);
  });

  it('keeps a drained terminal when the host aborts or the host calls abort afterwards', async () => {
    const controller = new AbortController();
    const { stream } = await openStream(HELLO, controller.signal);
    await collect(stream.events);
    controller.abort();
    stream.abort('late');
    expect((await stream.terminal).status).toBe('completed');
  });

  it('maps an adapter that fails to open the stream after a host abort to ABORTED', async () => {
    const controller = new AbortController();
    const factory = {
      protocolFamily: chatCapability().protocolFamily,
      createAdapter: () => ({
        execute: async () => {
          controller.abort();
          throw new Error('request aborted');
        },
      }),
    };
    const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
    await expect(
      engine.execute({ binding: countingBinding().binding, task: chatTask({ stream: true }), signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_ABORTED' });
  });

  it('passes the adapter a signal that combines the host signal and the stream abort', async () => {
    const controller = new AbortController();
    const { probe } = await openStream(HELLO, controller.signal);
    expect(probe.signal).not.toBe(controller.signal);
    expect(probe.signal?.aborted).toBe(false);
    const reason = new Error('host shutting down');
    controller.abort(reason);
    expect(probe.signal?.aborted).toBe(true);
    expect(probe.signal?.reason).toBe(reason);
  });

  it('an adapter that throws mid-stream fails the iterator and the terminal with the same error', async () => {
    const transportLoss = await openStream(async function* failing() {
      yield { type: 'text-start', index: 0 };
      throw new ProviderTransportFailureV1('after-send', 'connection-lost');
    });
    await expect(collect(transportLoss.stream.events)).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_TRANSPORT_FAILED' });
    await expect(transportLoss.stream.terminal).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_TRANSPORT_FAILED' });
    const defect = await openStream(async function* failing() {
      yield* [];
      throw new TypeError('bug');
    });
    await expect(collect(defect.stream.events)).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_ADAPTER_FAILED' });
  });

  it('never turns an unobserved terminal rejection into an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const { stream } = await openStream([{ type: 'text-delta', index: 0, delta: 'orphan' }]);
      await expect(collect(stream.events)).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID' });
      await tick();
      await tick();
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(unhandled).toEqual([]);
  });
});

describe('engine stream: adapter output validation', () => {
  const completedText = (text: string) => terminalPart(chatResult({ type: 'text', text }));
  const cases: [string, unknown[]][] = [
    ['a malformed event', [{ type: 'text-start', index: -1 }, completedText('')]],
    ['an event with an undeclared field', [{ type: 'text-start', index: 0, raw: {} }, completedText('')]],
    ['an unknown event type', [{ type: 'ping' }, completedText('')]],
    ['a delta before its start', [{ type: 'text-delta', index: 0, delta: 'x' }]],
    ['a repeated block index', [...textBlock(0, 'a'), { type: 'text-start', index: 0 }]],
    ['a delta after its end', [...textBlock(0, 'a'), { type: 'text-delta', index: 0, delta: 'b' }]],
    ['a delta for a block of another type', [{ type: 'text-start', index: 0 }, { type: 'reasoning-delta', index: 0, delta: 'b' }]],
    ['a block that ends twice', [...textBlock(0, 'a'), { type: 'text-end', index: 0 }]],
    [
      'tool-call-end arguments that differ from the deltas',
      [
        { type: 'tool-call-start', index: 0, toolCallId: 'c', toolName: 'f' },
        { type: 'tool-call-delta', index: 0, delta: '{"a":1' },
        { type: 'tool-call-end', index: 0, argumentsText: '{"a":1}' },
      ],
    ],
    ['a completed terminal with an open block', [{ type: 'text-start', index: 0 }, completedText('')]],
    ['accumulated text that differs from the result', [...textBlock(0, 'Hel', 'lo'), completedText('Hello!')]],
    ['a result with content the stream never sent', [completedText('surprise')]],
    [
      'result blocks out of index order',
      [...textBlock(1, 'b'), ...textBlock(0, 'a'), terminalPart(chatResult({ type: 'text', text: 'b' }, { type: 'text', text: 'a' }))],
    ],
    [
      'a reasoning signature that differs from the stream',
      [
        { type: 'reasoning-start', index: 0 },
        { type: 'reasoning-end', index: 0, signature: 's1' },
        terminalPart(chatResult({ type: 'reasoning', text: '', signature: 's2' })),
      ],
    ],
    ['a decreasing usage snapshot', [{ type: 'usage', usage: { outputTokens: 5 } }, { type: 'usage', usage: { outputTokens: 4 } }]],
    ['a usage snapshot that drops a field', [{ type: 'usage', usage: { inputTokens: 5 } }, { type: 'usage', usage: { outputTokens: 4 } }]],
    [
      'terminal usage below the last snapshot',
      [{ type: 'usage', usage: { outputTokens: 5 } }, terminalPart({ ...chatResult(), usage: { outputTokens: 4 } })],
    ],
    ['a terminal with an undeclared field', [terminalPart({ ...chatResult(), extra: 1 })]],
    ['a terminal part with an undeclared field', [{ ...(terminalPart(chatResult()) as object), at: 1 }]],
    ['a result of another kind', [terminalPart({ status: 'completed', result: { kind: 'rerank', results: [] } })]],
    ['a stream that ends without a terminal', [...textBlock(0, 'a')]],
  ];
  for (const [name, parts] of cases) {
    it(`refuses ${name}: iterator throws and terminal rejects with the same ADAPTER_OUTPUT_INVALID`, async () => {
      expect(await streamFailure(parts)).toBe('PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID');
    });
  }

  it('refuses a stream whose parts are not async iterable, and a completed stream that was not accepted', async () => {
    const factory = streamFactory(HELLO);
    const broken = {
      protocolFamily: factory.protocolFamily,
      createAdapter: () => ({
        execute: async () => ({ kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: {}, parts: [1, 2] }),
      }),
    };
    const engine = createProtocolEngineV1({ registry: registryOf([broken as never]) });
    await expect(
      engine.execute({ binding: countingBinding().binding, task: chatTask({ stream: true }), signal: newSignal() }),
    ).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID' });

    const unaccepted = {
      protocolFamily: factory.protocolFamily,
      createAdapter: () => ({
        execute: async () => ({
          kind: 'stream',
          acceptance: { state: 'unknown' },
          responseMetadata: {},
          parts: (async function* parts() {
            yield* HELLO;
          })(),
        }),
      }),
    };
    const second = createProtocolEngineV1({ registry: registryOf([unaccepted as never]) });
    const execution = (await second.execute({
      binding: countingBinding().binding,
      task: chatTask({ stream: true }),
      signal: newSignal(),
    })) as ProtocolEngineStreamV1;
    await expect(collect(execution.events)).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID' });
  });

  it('hands out copies: an adapter mutating its event objects later cannot change what the host saw', async () => {
    const event = { type: 'text-delta', index: 0, delta: 'Hel' } as { type: string; index: number; delta: string };
    const { stream } = await openStream(async function* mutating() {
      yield { type: 'text-start', index: 0 };
      yield event;
      event.delta = 'XXX';
      yield { type: 'text-delta', index: 0, delta: 'lo' };
      yield { type: 'text-end', index: 0 };
      yield terminalPart(chatResult({ type: 'text', text: 'Hello' }));
    });
    const events: NormalizedStreamEventV4[] = await collect(stream.events);
    expect(events[1]).toEqual({ type: 'text-delta', index: 0, delta: 'Hel' });
    const terminal: AdapterTerminalOutcomeV4 = await stream.terminal;
    expect(terminal.status).toBe('completed');
  });
});
