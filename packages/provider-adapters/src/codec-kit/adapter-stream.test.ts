import {
  ADAPTER_STREAM_TAKE_BUFFERED_V1,
  CodecErrorV1,
  ProviderTransportFailureV1,
  type AdapterStreamPartV1,
  type AdapterStreamTakeBufferedV1,
  type AdapterTerminalOutcomeV3,
  type AdapterTerminalOutcomeV4,
} from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAdapterStreamParts, type AdapterStreamMachine } from './adapter-stream.js';
import { ProtocolViolationError } from './protocol-violation-error.js';
import { decodeSseStream, type SseItem } from './sse-decoder.js';
import { bytesOf, collect, splitAt, trackedBody, type TrackedBodyOptions } from './test-support/byte-streams.js';

const COMPLETED: AdapterTerminalOutcomeV3 = {
  status: 'completed',
  result: { kind: 'chat', content: [{ type: 'text', text: 'hi' }] },
  finishReason: { unified: 'stop', raw: 'stop' },
} as AdapterTerminalOutcomeV3;

/**
 * A toy family: `data: t:<text>` is a text delta, `data: u:<n>` reports output tokens, `data: end` is the
 * terminal marker, `data: bad` breaks the protocol, `data: bug` is a defect.
 */
function toyMachine(options: { endIsMarker?: boolean } = {}): AdapterStreamMachine<SseItem> & { frames: number } {
  let outputTokens: number | undefined;
  const machine = {
    frames: 0,
    onFrame(frame: SseItem) {
      machine.frames += 1;
      if (frame.kind !== 'event') return undefined;
      const data = frame.data;
      if (data.startsWith('t:')) return { events: [{ type: 'text-delta' as const, index: 0, delta: data.slice(2) }] };
      if (data.startsWith('u:')) {
        outputTokens = Number(data.slice(2));
        return { events: [{ type: 'usage' as const, usage: { outputTokens } }] };
      }
      if (data === 'end') return { events: [{ type: 'text-end' as const, index: 0 }], terminal: COMPLETED };
      if (data === 'bad') throw new ProtocolViolationError('unexpected-event', 'unknown event kind');
      if (data === 'bug') throw new TypeError('defect in the family');
      return undefined;
    },
    onEnd: options.endIsMarker === true ? () => ({ terminal: COMPLETED }) : undefined,
    usageSoFar: () => (outputTokens === undefined ? undefined : { outputTokens }),
  };
  if (machine.onEnd === undefined) delete (machine as { onEnd?: unknown }).onEnd;
  return machine as AdapterStreamMachine<SseItem> & { frames: number };
}

function sse(...data: string[]): Uint8Array[] {
  return data.map((line) => bytesOf(`data: ${line}\n\n`));
}

function run(
  chunks: Uint8Array[],
  machine: AdapterStreamMachine<SseItem> = toyMachine(),
  bodyOptions: TrackedBodyOptions = {},
  signal: AbortSignal = new AbortController().signal,
) {
  const body = trackedBody(chunks, bodyOptions);
  const parts = createAdapterStreamParts({ body, sse: {}, machine, signal });
  return { body, parts };
}

function terminalOf(parts: AdapterStreamPartV1[]): AdapterTerminalOutcomeV4 {
  const last = parts.at(-1);
  if (last?.type !== 'terminal') throw new Error('the last part is not a terminal');
  expect(parts.filter((part) => part.type === 'terminal')).toHaveLength(1);
  return last.outcome;
}

describe('createAdapterStreamParts', () => {
  it('yields the machine events, then its terminal, and stops reading at the terminal marker', async () => {
    const machine = toyMachine();
    const { body, parts } = run(sse('t:a', 't:b', 'end', 't:after'), machine);
    const items = await collect(parts);
    expect(items).toEqual([
      { type: 'text-delta', index: 0, delta: 'a' },
      { type: 'text-delta', index: 0, delta: 'b' },
      { type: 'text-end', index: 0 },
      { type: 'terminal', outcome: COMPLETED },
    ]);
    expect(machine.frames).toBe(3);
    expect(body.returnCalls).toBe(1);
  });

  it('ends a body without the terminal marker as a retryable truncated-stream, with usage so far', async () => {
    const { body, parts } = run(sse('t:a', 'u:7'));
    expect(terminalOf(await collect(parts))).toEqual({
      status: 'failed',
      failure: { code: 'truncated-stream', retryable: true },
      usage: { outputTokens: 7 },
    });
    expect(body.released).toBe(true);
  });

  it("uses the machine's end-of-body terminal when the end of the body is the family's marker", async () => {
    const { parts } = run(sse('t:a'), toyMachine({ endIsMarker: true }));
    expect(terminalOf(await collect(parts))).toEqual(COMPLETED);
  });

  it('turns a decoder codec error into a non-retryable protocol-violation and releases the body', async () => {
    const { body, parts } = run([...sse('t:a'), bytesOf('data: \u0000\n\n'), ...sse('end')]);
    const items = await collect(parts);
    expect(items[0]).toEqual({ type: 'text-delta', index: 0, delta: 'a' });
    expect(terminalOf(items)).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
    expect(body.returnCalls).toBe(1);
  });

  it('turns a protocol violation from the machine into a protocol-violation terminal and releases the body', async () => {
    const { body, parts } = run(sse('t:a', 'bad', 'end'));
    expect(terminalOf(await collect(parts))).toMatchObject({ status: 'failed', failure: { code: 'protocol-violation' } });
    expect(body.returnCalls).toBe(1);
  });

  it('lets a defect in the machine propagate, after releasing the body', async () => {
    const { body, parts } = run(sse('t:a', 'bug', 'end'));
    await expect(collect(parts)).rejects.toBeInstanceOf(TypeError);
    expect(body.returnCalls).toBe(1);
  });

  it.each([
    ['connection-lost', new ProviderTransportFailureV1('after-send', 'connection-lost'), 'truncated-stream'],
    ['timeout', new ProviderTransportFailureV1('after-send', 'timeout'), 'timeout'],
    ['untyped', new Error('socket hang up'), 'network'],
  ] as const)('turns a %s read failure mid-stream into a retryable failed terminal', async (_name, error, code) => {
    const { parts } = run(sse('t:a', 'u:3'), toyMachine(), { failWith: error });
    expect(terminalOf(await collect(parts))).toEqual({ status: 'failed', failure: { code, retryable: true }, usage: { outputTokens: 3 } });
  });

  it('treats a codec error thrown by the body read itself as a protocol violation', async () => {
    const { parts } = run(sse('t:a'), toyMachine(), { failWith: new CodecErrorV1('body-too-large', 'x') });
    expect(terminalOf(await collect(parts))).toMatchObject({ failure: { code: 'protocol-violation', retryable: false } });
  });

  it('is cancelled without reading when the signal aborted before the first pull', async () => {
    const controller = new AbortController();
    controller.abort();
    const { body, parts } = run(sse('t:a', 'end'), toyMachine(), {}, controller.signal);
    expect(await collect(parts)).toEqual([{ type: 'terminal', outcome: { status: 'cancelled' } }]);
    expect(body.pulls).toBe(0);
  });

  it('is cancelled promptly when the signal aborts while a read is stalled, and releases the body', async () => {
    const controller = new AbortController();
    const { body, parts } = run(sse('t:a'), toyMachine(), { stallAtEnd: true }, controller.signal);
    const iterator = parts[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'text-delta', index: 0, delta: 'a' } });
    const pending = iterator.next();
    setTimeout(() => controller.abort(), 5);
    expect(await pending).toEqual({ done: false, value: { type: 'terminal', outcome: { status: 'cancelled' } } });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(body.returnCalls).toBe(1);
  });

  it('is cancelled, not failed, when an abort makes the transport fail the read', async () => {
    const controller = new AbortController();
    const failure = new ProviderTransportFailureV1('after-send', 'aborted');
    const body = trackedBody(sse('t:a'), { failWith: failure });
    const parts = createAdapterStreamParts({
      body,
      decodeFrames: async function* (source) {
        for await (const item of decodeSseStream(source)) {
          yield item;
          controller.abort();
        }
      },
      machine: toyMachine(),
      signal: controller.signal,
    });
    expect(terminalOf(await collect(parts))).toEqual({ status: 'cancelled' });
  });

  it('is cancelled when the signal aborts between events of one frame', async () => {
    const controller = new AbortController();
    const machine: AdapterStreamMachine<SseItem> = {
      onFrame: () => ({ events: [{ type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, delta: 'x' }], terminal: COMPLETED }),
    };
    const { parts } = run(sse('anything'), machine, {}, controller.signal);
    const iterator = parts[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-start', index: 0 });
    controller.abort();
    expect((await iterator.next()).value).toEqual({ type: 'terminal', outcome: { status: 'cancelled' } });
    expect((await iterator.next()).done).toBe(true);
  });

  it('releases the body when the consumer returns early', async () => {
    const { body, parts } = run(sse('t:a', 't:b', 'end'));
    for await (const part of parts) {
      expect(part).toEqual({ type: 'text-delta', index: 0, delta: 'a' });
      break;
    }
    expect(body.returnCalls).toBe(1);
  });

  it('pulls from the body only as the consumer pulls parts', async () => {
    const { body, parts } = run(sse('t:a', 't:b', 't:c', 't:d', 'end'));
    const iterator = parts[Symbol.asyncIterator]();
    expect(body.pulls).toBe(0);
    await iterator.next();
    expect(body.pulls).toBe(1);
    await iterator.next();
    expect(body.pulls).toBe(2);
    await iterator.return?.();
    expect(body.returnCalls).toBe(1);
  });

  it('always ends with exactly one terminal and releases the body, whatever the script', async () => {
    const frame = fc.constantFrom('t:x', 'u:1', 'u:2', 'end', 'bad', 'noise');
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { maxLength: 12 }), fc.constantFrom('end', 'fail', 'stall-abort'), async (script, ending) => {
        const controller = new AbortController();
        let used = 0;
        const machine = toyMachine();
        const guarded: AdapterStreamMachine<SseItem> = {
          onFrame: (item) => {
            // Usage only grows in this toy family; 'u:2' then 'u:1' is fine here, the machine does not check.
            used += 1;
            return machine.onFrame(item);
          },
          usageSoFar: () => machine.usageSoFar?.(),
        };
        const { body, parts } = run(
          sse(...script),
          guarded,
          ending === 'fail'
            ? { failWith: new ProviderTransportFailureV1('after-send', 'connection-lost') }
            : ending === 'stall-abort'
              ? { stallAtEnd: true }
              : {},
          controller.signal,
        );
        if (ending === 'stall-abort') setTimeout(() => controller.abort(), 1);
        const items = await collect(parts);
        terminalOf(items);
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(body.released).toBe(true);
        expect(used).toBeLessThanOrEqual(script.length);
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same parts reading the kit SSE decoder in batches as through its async iterator, for any script and split', async () => {
    const frame = fc.constantFrom('t:x', 't:yz', 'u:1', 'u:2', 'end', 'bad', 'noise');
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { maxLength: 10 }),
        fc.array(fc.nat({ max: 200 }), { maxLength: 6 }),
        fc.constantFrom('end', 'fail', 'nul', 'bare'),
        async (script, cuts, ending) => {
          const wire = script.map((data) => `data: ${data}\n\n`).join('') + (ending === 'nul' ? 'data: \u0000\n\n' : ending === 'bare' ? 'data: t:tail' : '');
          const chunks = splitAt(bytesOf(wire), cuts);
          const bodyOptions = ending === 'fail' ? { failWith: new ProviderTransportFailureV1('after-send', 'connection-lost') } : {};
          const batched = trackedBody(chunks, bodyOptions);
          const iterated = trackedBody(chunks, bodyOptions);
          const signal = new AbortController().signal;
          const viaBatches = await collect(
            createAdapterStreamParts({ body: batched, sse: {}, machine: toyMachine(), signal }),
          );
          const viaIterator = await collect(
            createAdapterStreamParts({
              body: iterated,
              // The same decoder as a frame iterator: each item then takes an await.
              decodeFrames: (source) => decodeSseStream(source),
              machine: toyMachine(),
              signal,
            }),
          );
          expect(viaBatches).toEqual(viaIterator);
          expect(batched.pulls).toBeLessThanOrEqual(iterated.pulls);
          expect(batched.released).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("never writes to the machine's events arrays: frozen arrays, and one array a machine reuses for every frame, both work", async () => {
    const reused: { type: 'text-delta'; index: number; delta: string }[] = [];
    const machine: AdapterStreamMachine<SseItem> = {
      onFrame(frame) {
        if (frame.kind !== 'event') return undefined;
        if (frame.data === 'end') return { events: Object.freeze([{ type: 'text-end' as const, index: 0 }]), terminal: COMPLETED };
        if (frame.data.startsWith('f:')) return { events: Object.freeze([{ type: 'text-delta' as const, index: 0, delta: frame.data.slice(2) }]) };
        // Refilled in place on every frame: the driver reads it before asking for the next frame.
        reused.length = 0;
        reused.push({ type: 'text-delta', index: 0, delta: frame.data }, { type: 'text-delta', index: 0, delta: `${frame.data}!` });
        return { events: reused };
      },
    };
    const parts = await collect(run([bytesOf('data: a\n\ndata: f:b\n\ndata: c\n\ndata: end\n\n')], machine).parts);
    expect(parts.map((part) => (part.type === 'text-delta' ? part.delta : part.type))).toEqual(['a', 'a!', 'b', 'c', 'c!', 'text-end', 'terminal']);
    expect(terminalOf(parts)).toEqual(COMPLETED);
  });

  it('serves pulls made before earlier ones settled in order', async () => {
    const { body, parts } = run([bytesOf('data: t:a\n\ndata: t:b\n\n'), ...sse('t:c', 'end')]);
    const iterator = parts[Symbol.asyncIterator]();
    const pulls = [iterator.next(), iterator.next(), iterator.next(), iterator.next(), iterator.next(), iterator.next()];
    expect(await Promise.all(pulls)).toEqual([
      { done: false, value: { type: 'text-delta', index: 0, delta: 'a' } },
      { done: false, value: { type: 'text-delta', index: 0, delta: 'b' } },
      { done: false, value: { type: 'text-delta', index: 0, delta: 'c' } },
      { done: false, value: { type: 'text-end', index: 0 } },
      { done: false, value: { type: 'terminal', outcome: COMPLETED } },
      { done: true, value: undefined },
    ]);
    expect(body.returnCalls).toBe(1);
  });

  it('ends a pull still waiting for a read as done when the consumer returns, and releases the body', async () => {
    const { body, parts } = run(sse('t:a'), toyMachine(), { stallAtEnd: true });
    const iterator = parts[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', index: 0, delta: 'a' });
    const waiting = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await iterator.return?.()).toEqual({ done: true, value: undefined });
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(body.returnCalls).toBe(1);
  });
});

type TakingIterator = AsyncIterator<AdapterStreamPartV1> & Required<AdapterStreamTakeBufferedV1>;

function takingIterator(parts: AsyncIterable<AdapterStreamPartV1>): TakingIterator {
  const iterator = parts[Symbol.asyncIterator]() as TakingIterator;
  expect(typeof iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]).toBe('function');
  return iterator;
}

/** Drains like the engine does: take while a part is ready, else pull; also counts the pulls. */
async function drainTaking(iterator: TakingIterator): Promise<{ parts: AdapterStreamPartV1[]; pulls: number; error?: unknown }> {
  const parts: AdapterStreamPartV1[] = [];
  let pulls = 0;
  try {
    for (;;) {
      const ready = iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]();
      if (ready !== undefined) {
        parts.push(ready);
        if (ready.type === 'terminal') return { parts, pulls };
        continue;
      }
      pulls += 1;
      const step = await iterator.next();
      if (step.done === true) return { parts, pulls };
      parts.push(step.value);
      if (step.value.type === 'terminal') return { parts, pulls };
    }
  } catch (error) {
    return { parts, pulls, error };
  }
}

describe('createAdapterStreamParts: taking buffered parts synchronously', () => {
  it('takes nothing before the first read, then the rest of each read without a pull', async () => {
    const { body, parts } = run([bytesOf('data: t:a\n\ndata: t:b\n\ndata: t:c\n\n'), ...sse('end')]);
    const iterator = takingIterator(parts);
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toBeUndefined();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', index: 0, delta: 'a' });
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toEqual({ type: 'text-delta', index: 0, delta: 'b' });
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toEqual({ type: 'text-delta', index: 0, delta: 'c' });
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toBeUndefined();
    expect(body.pulls).toBe(1);
    expect((await iterator.next()).value).toEqual({ type: 'text-end', index: 0 });
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toEqual({ type: 'terminal', outcome: COMPLETED });
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toBeUndefined();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(body.released).toBe(true);
  });

  it('takes nothing while a pull is waiting for a read', async () => {
    const { parts } = run(sse('t:a'), toyMachine(), { stallAtEnd: true });
    const iterator = takingIterator(parts);
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', index: 0, delta: 'a' });
    const waiting = iterator.next();
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toBeUndefined();
    await iterator.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });

  it('turns a taken part into cancelled once the signal aborted', async () => {
    const controller = new AbortController();
    const { body, parts } = run([bytesOf('data: t:a\n\ndata: t:b\n\n'), ...sse('end')], toyMachine(), {}, controller.signal);
    const iterator = takingIterator(parts);
    await iterator.next();
    controller.abort();
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toEqual({ type: 'terminal', outcome: { status: 'cancelled' } });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(body.returnCalls).toBe(1);
  });

  it('leaves a defect met while taking to the next pull, which rejects once the body is released', async () => {
    const { body, parts } = run([bytesOf('data: t:a\n\ndata: bug\n\n'), ...sse('end')]);
    const iterator = takingIterator(parts);
    await iterator.next();
    expect(iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()).toBeUndefined();
    await expect(iterator.next()).rejects.toThrow(TypeError);
    expect(body.released).toBe(true);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('gives the same parts and the same ending taking as pulling, for any script and split, with no more reads', async () => {
    const frame = fc.constantFrom('t:x', 't:yz', 'u:1', 'u:2', 'end', 'bad', 'bug', 'noise');
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { maxLength: 10 }),
        fc.array(fc.nat({ max: 120 }), { maxLength: 6 }),
        fc.constantFrom('end', 'fail', 'bare'),
        async (script, cuts, ending) => {
          const wire = script.map((data) => `data: ${data}\n\n`).join('') + (ending === 'bare' ? 'data: t:tail' : '');
          const chunks = splitAt(bytesOf(wire), cuts);
          const bodyOptions = ending === 'fail' ? { failWith: new ProviderTransportFailureV1('after-send', 'connection-lost') } : {};
          const taken = trackedBody(chunks, bodyOptions);
          const pulled = trackedBody(chunks, bodyOptions);
          const signal = new AbortController().signal;
          const open = (body: AsyncIterable<Uint8Array>) =>
            createAdapterStreamParts({ body, sse: {}, machine: toyMachine(), signal });
          const viaTake = await drainTaking(takingIterator(open(taken)));
          const viaNext: AdapterStreamPartV1[] = [];
          let nextError: unknown;
          try {
            for await (const part of open(pulled)) viaNext.push(part);
          } catch (error) {
            nextError = error;
          }
          expect(viaTake.parts).toEqual(viaNext);
          expect(viaTake.error === undefined).toBe(nextError === undefined);
          if (nextError !== undefined) expect(viaTake.error).toBeInstanceOf((nextError as Error).constructor);
          expect(taken.pulls).toBeLessThanOrEqual(pulled.pulls);
          expect(viaTake.pulls).toBeLessThanOrEqual(viaNext.length + 1);
          await new Promise((resolve) => setTimeout(resolve, 0));
          expect(taken.released).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
