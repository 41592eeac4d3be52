/**
 * The protocol engine's own cost: per stream event (validation and lifecycle over pre-normalized events from a
 * fake adapter) and per sync execution, measured beside `JSON.parse` of a typical 270-byte chat chunk in the same
 * run. Target: the engine's own cost per event is at most 0.25x that JSON.parse.
 *
 * Run: `npx --yes pnpm@12.4.2 bench:engine`. Writes tools/bench/results/engine.json.
 */
import {
  normalizedStreamEventV1Schema,
  type AdapterStreamPartV1,
  type AdapterTerminalOutcome,
  type ProtocolFamily,
  type ProviderTransport,
} from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { formatMeasurement, machineFacts, measureInterleaved, pairedRatio, ratio, writeResults, type BenchCase, type Measurement } from './harness.js';

const TARGET_RATIO = 0.25;
const EVENTS_PER_STREAM = 1000;
const FAMILY = 'bench-chat/v1' as ProtocolFamily;

/** An OpenAI-style chat completion chunk, padded to 270 bytes (a typical size on the wire). */
function typicalChunk(): string {
  const base = {
    id: 'chatcmpl-AbC123dEf456GhI789jKl0MnO',
    object: 'chat.completion.chunk',
    created: 1732900000,
    model: 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_0ba0d124f1',
    choices: [{ index: 0, delta: { content: ' world' }, logprobs: null, finish_reason: null }],
    usage: null,
  };
  let text = JSON.stringify(base);
  while (new TextEncoder().encode(text).length < 270) {
    base.choices[0]!.delta.content += 'x';
    text = JSON.stringify(base);
  }
  return text;
}

/** Pre-normalized parts of one stream: a text block of EVENTS_PER_STREAM deltas, a usage snapshot, the terminal. */
function streamParts(): AdapterStreamPartV1[] {
  const parts: AdapterStreamPartV1[] = [{ type: 'text-start', index: 0 }];
  for (let position = 0; position < EVENTS_PER_STREAM; position += 1) parts.push({ type: 'text-delta', index: 0, delta: ' tok' });
  parts.push({ type: 'text-end', index: 0 });
  parts.push({ type: 'usage', usage: { inputTokens: 12, outputTokens: EVENTS_PER_STREAM } });
  parts.push({
    type: 'terminal',
    outcome: {
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text: ' tok'.repeat(EVENTS_PER_STREAM) }] },
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 12, outputTokens: EVENTS_PER_STREAM, totalTokens: 12 + EVENTS_PER_STREAM },
    },
  });
  return parts;
}

/** The cheapest honest async iterator over an array: what a fake adapter costs by itself. */
function partsIterator(parts: readonly AdapterStreamPartV1[]): AsyncIterableIterator<AdapterStreamPartV1> {
  let position = 0;
  const iterator: AsyncIterableIterator<AdapterStreamPartV1> = {
    next: () =>
      Promise.resolve(
        position < parts.length ? { done: false, value: parts[position++] as AdapterStreamPartV1 } : { done: true, value: undefined },
      ),
    return: () => Promise.resolve({ done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

async function main(): Promise<void> {
  const chunk = typicalChunk();
  const chunkBytes = new TextEncoder().encode(chunk).length;
  const parts = streamParts();
  const eventsPerStream = parts.length - 1;
  const syncTerminal: AdapterTerminalOutcome = {
    status: 'completed',
    result: { kind: 'chat', content: [{ type: 'text', text: 'Hello there.' }] },
    finishReason: { unified: 'stop' },
    usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
  };

  const transport: ProviderTransport = {
    send: () => Promise.reject(new Error('the benchmark adapter never sends')),
  };
  const engine = createProtocolEngineV1({
    registry: {
      listProtocolFamilies: () => [FAMILY],
      require: () => ({
        protocolFamily: FAMILY,
        createAdapter: () => ({
          execute: async ({ task }) =>
            task.kind === 'chat' && task.stream
              ? { kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: {}, parts: partsIterator(parts) }
              : { kind: 'response', acceptance: { state: 'accepted' }, responseMetadata: {}, terminal: syncTerminal },
        }),
      }),
    },
  });
  const binding = createProtocolEngineTargetBindingV1({
    target: {
      provider: 'bench',
      providerModel: 'bench-model',
      connectionRef: 'bench-connection',
      capability: { protocolFamily: FAMILY, executionMode: 'stream-capable', taskKinds: ['chat'] },
    },
    bindTransport: () => transport,
  });
  const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Say hello.' }] }];
  const signal = new AbortController().signal;
  const streamTask = { kind: 'chat' as const, messages, stream: true };
  const syncTask = { kind: 'chat' as const, messages, stream: false };
  const events = parts.slice(0, -1);
  let sink = 0;

  const jsonParseCase: BenchCase = {
    name: `JSON.parse of a ${chunkBytes}-byte chat chunk`,
    fn: (operations) => {
      for (let index = 0; index < operations; index += 1) sink += (JSON.parse(chunk) as { created: number }).created;
    },
    operationsPerRound: 200_000,
  };
  const adapterAloneCase: BenchCase = {
    name: 'fake adapter iterated directly (per event, baseline)',
    fn: async (operations) => {
      for (let stream = 0; stream < operations / eventsPerStream; stream += 1) {
        for await (const part of partsIterator(parts)) if (part.type !== 'terminal') sink += 1;
      }
    },
    operationsPerRound: eventsPerStream * 100,
  };
  const throughEngineCase: BenchCase = {
    name: 'fake adapter through engine.execute stream (per event)',
    fn: async (operations) => {
      for (let stream = 0; stream < operations / eventsPerStream; stream += 1) {
        const execution = await engine.execute({ binding, task: streamTask, signal });
        if (execution.kind !== 'stream') throw new Error('expected a stream');
        for await (const event of execution.events) sink += event.type.length;
        if ((await execution.terminal).status !== 'completed') throw new Error('expected a completed terminal');
      }
    },
    operationsPerRound: eventsPerStream * 100,
  };
  const zodPerEventCase: BenchCase = {
    name: 'normalizedStreamEventV1Schema.parse (per event, for comparison)',
    fn: (operations) => {
      for (let index = 0; index < operations; index += 1) sink += normalizedStreamEventV1Schema.parse(events[index % events.length]).type.length;
    },
    operationsPerRound: 100_000,
  };
  const syncExecutionCase: BenchCase = {
    name: 'engine.execute sync chat response (per execution)',
    fn: async (operations) => {
      for (let index = 0; index < operations; index += 1) {
        const execution = await engine.execute({ binding, task: syncTask, signal });
        if (execution.kind !== 'response') throw new Error('expected a response');
      }
    },
    operationsPerRound: 5_000,
  };

  // A host observer that does nothing: what listening costs the engine itself (contract revision V3).
  const observer = { onObservation: () => undefined, onDiagnostic: () => undefined };
  const syncObservedCase: BenchCase = {
    name: 'engine.execute sync chat response with a no-op observer (per execution)',
    fn: async (operations) => {
      for (let index = 0; index < operations; index += 1) {
        const execution = await engine.execute({ binding, task: syncTask, signal, observer });
        if (execution.kind !== 'response') throw new Error('expected a response');
      }
    },
    operationsPerRound: 5_000,
  };
  const throughEngineObservedCase: BenchCase = {
    name: 'fake adapter through engine.execute stream with a no-op observer (per event)',
    fn: async (operations) => {
      for (let stream = 0; stream < operations / eventsPerStream; stream += 1) {
        const execution = await engine.execute({ binding, task: streamTask, signal, observer });
        if (execution.kind !== 'stream') throw new Error('expected a stream');
        for await (const event of execution.events) sink += event.type.length;
        if ((await execution.terminal).status !== 'completed') throw new Error('expected a completed terminal');
      }
    },
    operationsPerRound: eventsPerStream * 100,
  };

  const [jsonParse, adapterAlone, throughEngine, zodPerEvent, syncExecution, syncObserved, throughEngineObserved] = (await measureInterleaved([
    jsonParseCase,
    adapterAloneCase,
    throughEngineCase,
    zodPerEventCase,
    syncExecutionCase,
    syncObservedCase,
    throughEngineObservedCase,
  ], { rounds: 15 })) as [Measurement, Measurement, Measurement, Measurement, Measurement, Measurement, Measurement];
  const sample = (measurement: Measurement, round: number): number => measurement.samples[round] as number;
  const rounds = jsonParse.samples.length;

  const engineOwnPerEvent = Math.max(0, throughEngine.medianNsPerOperation - adapterAlone.medianNsPerOperation);
  // The headline figure: per round, (engine - bare adapter) / JSON.parse, then the median over rounds.
  const perEventRatio = pairedRatio(
    (round) => Math.max(0, sample(throughEngine, round) - sample(adapterAlone, round)) / sample(jsonParse, round),
    rounds,
  );
  const ratios = {
    engineOwnPerEventNs: Math.round(engineOwnPerEvent * 1000) / 1000,
    engineOwnPerEventVsJsonParse: perEventRatio,
    engineOwnPerEventVsJsonParseFromMedians: ratio(engineOwnPerEvent, jsonParse),
    throughEnginePerEventVsJsonParse: ratio(throughEngine, jsonParse),
    zodPerEventVsJsonParse: ratio(zodPerEvent, jsonParse),
    syncExecutionVsJsonParse: ratio(syncExecution, jsonParse),
    // Per round, observed over unobserved: what a no-op observer adds (1.0 is nothing).
    observedSyncVsUnobserved: pairedRatio((round) => sample(syncObserved, round) / sample(syncExecution, round), rounds),
    observedStreamPerEventVsUnobserved: pairedRatio((round) => sample(throughEngineObserved, round) / sample(throughEngine, round), rounds),
  };
  const measurements = [jsonParse, adapterAlone, throughEngine, zodPerEvent, syncExecution, syncObserved, throughEngineObserved];

  const machine = machineFacts();
  console.log(`engine benchmark on Node ${machine.node}, ${machine.cpuModel} x${machine.cpuCount}`);
  for (const measurement of measurements) console.log(formatMeasurement(measurement));
  console.log('');
  console.log(`engine own cost per event: ${ratios.engineOwnPerEventNs.toFixed(1)} ns; median per-round ratio ${perEventRatio}x JSON.parse (target <= ${TARGET_RATIO}x)`);
  console.log(`through the engine per event: ${ratios.throughEnginePerEventVsJsonParse}x JSON.parse; zod per event: ${ratios.zodPerEventVsJsonParse}x`);
  console.log(`sync execution: ${ratios.syncExecutionVsJsonParse}x JSON.parse`);
  console.log(`a no-op observer: sync ${ratios.observedSyncVsUnobserved}x, stream per event ${ratios.observedStreamPerEventVsUnobserved}x the unobserved figure`);
  const path = writeResults('engine', {
    target: { engineOwnPerEventVsJsonParse: TARGET_RATIO },
    met: perEventRatio <= TARGET_RATIO,
    chunkBytes,
    eventsPerStream,
    measurements,
    ratios,
  });
  console.log(`results written to ${path}`);
  if (sink === -1) console.log('unreachable');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
