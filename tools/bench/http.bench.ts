/**
 * `pnpm bench:http`: what engine + http-transport add on top of a bare undici request, against the provider
 * simulator running in a child process (so its work does not share this process's event loop).
 *
 * - sync chat completions at concurrency 1 and 32: per-call latency (p50, p99) of a bare undici request that reads
 *   and parses the JSON body, and of `engine.execute` through `@tokenforge/http-transport` to the same endpoint;
 * - one 2,000-chunk chat stream: bare undici reading the SSE body to the end versus the engine draining validated
 *   events.
 *
 * Target: added p50 <= 0.3 ms per sync call at concurrency 1. Writes tools/bench/results/http.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHttpProviderTransport } from '@tokenforge/http-transport';
import type { TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { setMaxListeners } from 'node:events';
import { createRequire } from 'node:module';
import { machineFacts, measureInterleaved, writeResults } from './harness.js';

interface ChildReady {
  readonly url: string;
  readonly apiKey: string;
}

// undici is not a root devDependency yet: load the copy the acceptance package depends on.
interface BarePool {
  request(options: { path: string; method: string; headers: Record<string, string>; body: string }): Promise<{
    statusCode: number;
    body: AsyncIterable<Uint8Array> & { json(): Promise<unknown> };
  }>;
  close(): Promise<void>;
}
const { Pool } = (await import(createRequire(new URL('../../packages/acceptance/package.json', import.meta.url)).resolve('undici'))) as {
  Pool: new (origin: string, options: { connections: number }) => BarePool;
};

const SIMULATOR_CLI = fileURLToPath(new URL('../../packages/provider-simulator/src/simulator-cli.ts', import.meta.url));

/** Starts `pnpm simulator`'s entry point in a child process and reads its URL and the OpenAI test key from stdout. */
async function startSimulatorChild(): Promise<{ child: ChildProcess; ready: ChildReady }> {
  const child = spawn(process.execPath, [...process.execArgv, SIMULATOR_CLI], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise<ChildReady>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /listening on (\S+)/.exec(output)?.[1];
      const apiKey = /openai-chat\/v1\s+\S+\s+api key (\S+)/.exec(output)?.[1];
      if (url !== undefined && apiKey !== undefined) resolve({ url, apiKey });
    });
    child.once('exit', () => reject(new Error('the simulator child exited')));
  });
  return { child, ready };
}

await main();

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
}

function summary(samplesNs: number[]): { p50Ms: number; p99Ms: number; meanMs: number; calls: number } {
  const sorted = [...samplesNs].sort((left, right) => left - right);
  const round = (ns: number): number => Math.round(ns / 1000) / 1000;
  return { p50Ms: round(percentile(sorted, 0.5)), p99Ms: round(percentile(sorted, 0.99)), meanMs: round(sorted.reduce((sum, value) => sum + value, 0) / sorted.length), calls: sorted.length };
}

async function main(): Promise<void> {
  const { child, ready } = await startSimulatorChild();
  try {
    const family = 'openai-chat/v1';
    const suite = createBuiltinTokenForgeProtocolSuiteV1();
    const engine = createProtocolEngineV1({ registry: suite.registry });
    const transport = createHttpProviderTransport({
      baseUrl: `${ready.url}/v1`,
      credentials: { type: 'api-key', apiKey: ready.apiKey },
      metadata: suite.transportMetadataFor(family),
      policy: { allowedAddressCategories: ['loopback'], allowInsecureHttpToLoopback: true, maxConnections: 32 },
    });
    const bindingFor = (model: string) =>
      createProtocolEngineTargetBindingV1({
        target: { provider: 'simulator', providerModel: model, connectionRef: 'bench', capability: { protocolFamily: family, executionMode: 'stream-capable', taskKinds: ['chat'] } },
        bindTransport: () => transport,
      });
    const syncBinding = bindingFor('gpt-4.1-mini');
    const streamBinding = bindingFor('text.2000');
    const signal = new AbortController().signal;
    setMaxListeners(100, signal); // 32 calls in flight share it
    const question: TaskEnvelopeV2 = { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream: false };
    const pool = new Pool(ready.url, { connections: 32 });
    const headers = { authorization: `Bearer ${ready.apiKey}`, 'content-type': 'application/json' };
    const bareBody = (model: string, stream: boolean): string =>
      JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) });

    const bareSync = async (): Promise<void> => {
      const answer = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body: bareBody('gpt-4.1-mini', false) });
      const parsed = (await answer.body.json()) as { choices?: unknown[] };
      if (answer.statusCode !== 200 || !Array.isArray(parsed.choices)) throw new Error('bare request failed');
    };
    const engineSync = async (): Promise<void> => {
      const execution = await engine.execute({ binding: syncBinding, task: question, signal });
      if (execution.kind !== 'response' || execution.terminal.status !== 'completed') throw new Error('engine call failed');
    };
    const bareStream = async (): Promise<void> => {
      const answer = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body: bareBody('text.2000', true) });
      let bytes = 0;
      for await (const chunk of answer.body) bytes += chunk.length;
      if (answer.statusCode !== 200 || bytes === 0) throw new Error('bare stream failed');
    };
    const engineStream = async (): Promise<void> => {
      const execution = await engine.execute({ binding: streamBinding, task: { ...question, stream: true }, signal });
      if (execution.kind !== 'stream') throw new Error('engine stream failed');
      let events = 0;
      for await (const _event of execution.events) events += 1;
      const terminal = await execution.terminal;
      if (terminal.status !== 'completed' || events < 2000) throw new Error('engine stream failed');
    };

    // Concurrency 1: alternate batches so load changes hit both alike.
    for (let warm = 0; warm < 300; warm += 1) {
      await bareSync();
      await engineSync();
    }
    const bare1: number[] = [];
    const engine1: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      for (const [samples, call] of [[bare1, bareSync], [engine1, engineSync]] as const) {
        for (let index = 0; index < 200; index += 1) {
          const started = process.hrtime.bigint();
          await call();
          samples.push(Number(process.hrtime.bigint() - started));
        }
      }
    }

    // Concurrency 32: 32 workers, each call timed on its own.
    const concurrent = async (call: () => Promise<void>, callsPerWorker: number): Promise<number[]> => {
      const samples: number[] = [];
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          for (let index = 0; index < callsPerWorker; index += 1) {
            const started = process.hrtime.bigint();
            await call();
            samples.push(Number(process.hrtime.bigint() - started));
          }
        }),
      );
      return samples;
    };
    await concurrent(bareSync, 10);
    await concurrent(engineSync, 10);
    const bare32: number[] = [];
    const engine32: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      bare32.push(...(await concurrent(bareSync, 20)));
      engine32.push(...(await concurrent(engineSync, 20)));
    }

    const streams = await measureInterleaved(
      [
        { name: 'bare undici: 2,000-chunk stream read to the end', fn: async (count) => { for (let index = 0; index < count; index += 1) await bareStream(); }, operationsPerRound: 3 },
        { name: 'engine + http-transport: 2,000-chunk stream drained', fn: async (count) => { for (let index = 0; index < count; index += 1) await engineStream(); }, operationsPerRound: 3 },
      ],
      { warmupRounds: 2, rounds: 7 },
    );

    const s1 = { bare: summary(bare1), engine: summary(engine1) };
    const s32 = { bare: summary(bare32), engine: summary(engine32) };
    const round3 = (value: number): number => Math.round(value * 1000) / 1000;
    const addedP50Ms = round3(s1.engine.p50Ms - s1.bare.p50Ms);
    const [bareStreamResult, engineStreamResult] = streams as [(typeof streams)[number], (typeof streams)[number]];
    const streamAddedMs = round3((engineStreamResult.medianNsPerOperation - bareStreamResult.medianNsPerOperation) / 1e6);
    const results = {
      target: 'added p50 <= 0.3 ms per sync call at concurrency 1',
      syncConcurrency1: { ...s1, addedP50Ms, addedP99Ms: round3(s1.engine.p99Ms - s1.bare.p99Ms), meetsTarget: addedP50Ms <= 0.3 },
      syncConcurrency32: { ...s32, addedP50Ms: round3(s32.engine.p50Ms - s32.bare.p50Ms), addedP99Ms: round3(s32.engine.p99Ms - s32.bare.p99Ms) },
      stream2000Chunks: {
        bareMsPerStream: round3(bareStreamResult.medianNsPerOperation / 1e6),
        engineMsPerStream: round3(engineStreamResult.medianNsPerOperation / 1e6),
        addedMsPerStream: streamAddedMs,
        addedMicrosecondsPerChunk: round3((streamAddedMs * 1000) / 2000),
        relativeSpread: { bare: bareStreamResult.relativeSpread, engine: engineStreamResult.relativeSpread },
      },
      notes: 'The simulator runs in a child process on the same machine; both clients use keep-alive pools of up to 32 sockets. The bare client reads and JSON-parses the body (sync) or reads the SSE bytes (stream); the engine path adds task validation, request encoding, the transport (auth header, policy checks), response decoding and output validation.',
    };
    console.log(`machine: ${machineFacts().cpuModel} x${machineFacts().cpuCount}, node ${process.versions.node}`);
    console.log(`sync c=1   bare p50 ${s1.bare.p50Ms} ms p99 ${s1.bare.p99Ms} ms | engine p50 ${s1.engine.p50Ms} ms p99 ${s1.engine.p99Ms} ms | added p50 ${addedP50Ms} ms (target <= 0.3)`);
    console.log(`sync c=32  bare p50 ${s32.bare.p50Ms} ms p99 ${s32.bare.p99Ms} ms | engine p50 ${s32.engine.p50Ms} ms p99 ${s32.engine.p99Ms} ms`);
    console.log(`stream 2000 chunks: bare ${results.stream2000Chunks.bareMsPerStream} ms | engine ${results.stream2000Chunks.engineMsPerStream} ms | added ${results.stream2000Chunks.addedMicrosecondsPerChunk} us/chunk`);
    console.log(`wrote ${writeResults('http', results)}`);
    await pool.close();
    await transport.close();
  } finally {
    child.kill('SIGINT');
  }
}
