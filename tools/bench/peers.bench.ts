/**
 * TokenForge beside the libraries people would otherwise use, in one process, on the same bytes.
 *
 * Every path reads the same pre-split provider bytes from a fresh `ReadableStream` (what a `fetch` body is):
 * the floor (UTF-8 decode + line split + `JSON.parse` of each `data:` line), our engine with the family adapter
 * and full validation (`engine.execute`, events iterated to the terminal), and the peers through a custom
 * `fetch`: `@ai-sdk/openai` (provider `doStream`/`doGenerate`/`doEmbed`, and `streamText` from `ai`), the
 * official `openai` SDK and `@anthropic-ai/sdk` (their stream iterators and response parsing). The peers are
 * devDependencies of `@tokenforge/acceptance`, loaded from that package.
 *
 * Workloads: a 2,000-chunk openai-chat text stream at 1,400- and 64-byte reads; a 2,000-event Anthropic tool-use
 * stream; one 4 MB base64 image event (openai-responses `partial_image`) in 1 KB reads; tool arguments at 1k, 4k
 * and 16k deltas (scaling exponent); embeddings 64 x 1536 as float and base64 bodies; sync chat latency (p50/p99
 * over 5,000 calls each); heap retained after 100 streams.
 *
 * Cases of a workload run interleaved, their order reversed every other round, each paying for the garbage of its
 * own round; ratios are taken per round and their median reported. The openai-chat text workloads time 8 streams
 * per round over 21 rounds (a single ~6 ms stream was at the mercy of one GC pause). The CPU model is recorded
 * with the results (`machine.cpuModel`). Run: `npx --yes pnpm@12.4.2 bench:peers` (`--quick` for a smoke run, `--only=chat,sync,...` for some
 * workloads, `--with-slow-peers` to time the openai SDK on the 4 MB event too, `BENCH_TRACE=1` to print each
 * path's first pass). Writes tools/bench/results/peers.json.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type {
  ChatTaskV2,
  ProtocolCapabilityV2,
  ProtocolFamily,
  ProviderAdapterFactory,
  ProviderTransport,
  TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import {
  createAnthropicMessagesAdapterFactory,
  createOpenAiChatAdapterFactory,
  createOpenAiEmbeddingsAdapterFactory,
  createOpenAiResponsesAdapterFactory,
} from '@tokenforge/provider-adapters';
import { anthropicToolStream, openAiTextStream, openAiToolStream } from './codecs.bench.js';
import { formatMeasurement, machineFacts, writeResults, type BenchCase, type Measurement } from './harness.js';
import type { BenchMetric } from './report/bench-metric.js';
import { measureAlternating } from './report/measure-alternating.js';
import { quantile, round3, scalingExponent } from './report/statistics.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ACCEPTANCE = join(HERE, '../../packages/acceptance');
const fromAcceptance = createRequire(join(ACCEPTANCE, 'package.json'));
const encoder = new TextEncoder();
const BASE_URL = 'http://peers.bench.invalid/v1';
const STREAM_CHUNKS = 2000;
/** Streams per timed round of the openai-chat text workloads (a round of one ~6 ms stream swung with one GC). */
const CHAT_STREAMS_PER_ROUND = 8;
/** Timed rounds of the openai-chat text workloads (a full run), for a tight interquartile range. */
const CHAT_ROUNDS = 21;
const TOOL_DELTAS = [1000, 4000, 16000] as const;
const EMBEDDING_VECTORS = 64;
const EMBEDDING_DIMENSIONS = 1536;
const BIG_EVENT_BYTES = 4 * 1024 * 1024;
const SYNC_CALLS = 5000;
const HEAP_STREAMS = 100;
const HEAP_LIMIT_BYTES = 1024 * 1024;
/** Chat stream at 1,400-byte reads: at most 1.4x the floor, per-round ratios within an IQR of 0.1 (issue #33). */
const TARGETS = { chatVsFloor: 1.4, chatVsFloorIqr: 0.1, speedupVsAiSdk: 5, speedupVsAnthropicSdk: 1, scalingExponent: 1.15 } as const;

let sink = 0;

// ---------------------------------------------------------------------------------------------------------------
// Bytes and bodies.

function split(bytes: Uint8Array, readSize: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += readSize) pieces.push(bytes.slice(offset, offset + readSize));
  return pieces;
}

/** A fresh fetch-style body over the pre-split reads: one read per pull. */
function bodyStream(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let position = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (position < pieces.length) controller.enqueue(pieces[position++] as Uint8Array);
      else controller.close();
    },
  });
}

/** What the next request of any path answers with. */
interface CannedResponse {
  readonly contentType: string;
  readonly pieces: readonly Uint8Array[];
}

let canned: CannedResponse = { contentType: 'application/json', pieces: [] };

function answerWith(response: CannedResponse): void {
  canned = response;
}

const fakeFetch = (): Promise<Response> =>
  Promise.resolve(
    new Response(bodyStream(canned.pieces), { status: 200, headers: { 'content-type': canned.contentType, 'x-request-id': 'req_bench' } }),
  );

const fakeTransport: ProviderTransport = {
  send: () =>
    Promise.resolve({
      status: 200,
      headers: { 'content-type': canned.contentType, 'x-request-id': 'req_bench' },
      body: bodyStream(canned.pieces),
    }),
};

/** UTF-8 decode + line split + JSON.parse of every `data:` line, over the same stream iteration; linear in the body. */
async function floorPass(pieces: readonly Uint8Array[]): Promise<number> {
  const decoder = new TextDecoder();
  let pending: string[] = [];
  let parsed = 0;
  const line = (text: string): void => {
    if (text.startsWith('data: ') && text !== 'data: [DONE]') {
      sink += (JSON.parse(text.slice(6)) as object) === null ? 0 : 1;
      parsed += 1;
    }
  };
  for await (const piece of bodyStream(pieces)) {
    const text = decoder.decode(piece, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      pending.push(text.slice(start, newline));
      line(pending.length === 1 ? (pending[0] as string) : pending.join(''));
      pending = [];
      start = newline + 1;
    }
    if (start < text.length) pending.push(text.slice(start));
  }
  return parsed;
}

/** UTF-8 decode + JSON.parse of a whole JSON body, over the same stream iteration. */
async function floorJsonPass(pieces: readonly Uint8Array[]): Promise<unknown> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for await (const piece of bodyStream(pieces)) parts.push(decoder.decode(piece, { stream: true }));
  parts.push(decoder.decode());
  return JSON.parse(parts.join('')) as unknown;
}

// ---------------------------------------------------------------------------------------------------------------
// Our path: engine + family adapter, full validation.

interface OurPath {
  run(task: TaskEnvelopeV2): Promise<number>;
}

function ourPath(factory: ProviderAdapterFactory, capability: ProtocolCapabilityV2): OurPath {
  const engine = createProtocolEngineV1({
    registry: { listProtocolFamilies: () => [factory.protocolFamily], require: () => factory },
  });
  const binding = createProtocolEngineTargetBindingV1({
    target: { provider: 'bench', providerModel: 'bench-model', connectionRef: 'bench-connection', capability },
    bindTransport: () => fakeTransport,
  });
  const signal = new AbortController().signal;
  return {
    async run(task) {
      const execution = await engine.execute({ binding, task, signal });
      let events = 0;
      if (execution.kind === 'stream') {
        for await (const event of execution.events) {
          sink += event.type.length;
          events += 1;
        }
        const terminal = await execution.terminal;
        if (terminal.status !== 'completed') throw new Error(`expected a completed stream, got ${JSON.stringify(terminal).slice(0, 300)}`);
        return events;
      }
      if (execution.kind !== 'response') throw new Error(`unexpected execution kind ${execution.kind}`);
      if (execution.terminal.status !== 'completed') throw new Error(`expected a completed response, got ${JSON.stringify(execution.terminal).slice(0, 300)}`);
      return 1;
    },
  };
}

function chatCapability(family: string): ProtocolCapabilityV2 {
  return { protocolFamily: family as ProtocolFamily, executionMode: 'stream-capable', taskKinds: ['chat'], tools: true };
}

const userMessages: ChatTaskV2['messages'] = [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }];
const streamTask: ChatTaskV2 = { kind: 'chat', messages: userMessages, stream: true };
const toolStreamTask: ChatTaskV2 = { ...streamTask, tools: [{ name: 'weather', inputSchema: { type: 'object' } }] };
const syncTask: ChatTaskV2 = { kind: 'chat', messages: userMessages, stream: false };

// ---------------------------------------------------------------------------------------------------------------
// Peers, loaded from @tokenforge/acceptance's devDependencies (typed here by the little we call).

interface AsyncIterableResult {
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
}

interface OpenAiClient {
  readonly chat: { readonly completions: { create(body: object): Promise<unknown> } };
  readonly responses: { create(body: object): Promise<unknown> };
  readonly embeddings: { create(body: object): Promise<{ readonly data: readonly { readonly embedding: unknown }[] }> };
}

interface AnthropicClient {
  readonly messages: { create(body: object): Promise<unknown> };
}

interface AiSdkLanguageModel {
  doStream(options: object): Promise<{ readonly stream: ReadableStream<{ readonly type: string }> }>;
  doGenerate(options: object): Promise<{ readonly content: readonly unknown[] }>;
}

interface AiSdkProvider {
  chat(modelId: string): AiSdkLanguageModel;
  responses(modelId: string): AiSdkLanguageModel;
  textEmbeddingModel(modelId: string): { doEmbed(options: object): Promise<{ readonly embeddings: readonly unknown[] }> };
}

interface Peers {
  readonly openai: OpenAiClient;
  readonly anthropic: AnthropicClient;
  readonly aiSdk: AiSdkProvider;
  readonly streamText: (options: object) => { readonly fullStream: AsyncIterableResult };
  readonly versions: Record<string, string>;
}

async function loadPeer(name: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(fromAcceptance.resolve(name)).href)) as Record<string, unknown>;
}

function peerVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(ACCEPTANCE, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

async function loadPeers(): Promise<Peers> {
  const [openaiModule, anthropicModule, aiSdkModule, aiModule] = await Promise.all(['openai', '@anthropic-ai/sdk', '@ai-sdk/openai', 'ai'].map(loadPeer));
  const OpenAI = openaiModule!.OpenAI as new (options: object) => OpenAiClient;
  const Anthropic = anthropicModule!.Anthropic as new (options: object) => AnthropicClient;
  const createOpenAI = aiSdkModule!.createOpenAI as (options: object) => AiSdkProvider;
  const common = { apiKey: 'bench-key', fetch: fakeFetch, maxRetries: 0 };
  return {
    openai: new OpenAI({ ...common, baseURL: BASE_URL }),
    anthropic: new Anthropic({ ...common, baseURL: 'http://peers.bench.invalid' }),
    aiSdk: createOpenAI({ apiKey: 'bench-key', baseURL: BASE_URL, fetch: fakeFetch }),
    streamText: aiModule!.streamText as Peers['streamText'],
    versions: Object.fromEntries(['openai', '@anthropic-ai/sdk', '@ai-sdk/openai', 'ai'].map((name) => [name, peerVersion(name)])),
  };
}

async function drain(iterable: AsyncIterableResult): Promise<number> {
  let items = 0;
  for await (const item of iterable as AsyncIterable<unknown>) {
    sink += item === undefined ? 0 : 1;
    items += 1;
  }
  return items;
}

const aiSdkPrompt = [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }];
const aiSdkTools = [{ type: 'function', name: 'weather', inputSchema: { type: 'object' } }];

async function aiSdkStream(model: AiSdkLanguageModel, tools: boolean): Promise<number> {
  const { stream } = await model.doStream({ prompt: aiSdkPrompt, ...(tools ? { tools: aiSdkTools } : {}) });
  let parts = 0;
  let finished = false;
  for await (const part of stream as unknown as AsyncIterable<{ type: string }>) {
    if (part.type === 'error') throw new Error('the ai-sdk stream reported an error');
    if (part.type === 'finish') finished = true;
    parts += 1;
  }
  if (!finished) throw new Error('the ai-sdk stream did not finish');
  return parts;
}

// ---------------------------------------------------------------------------------------------------------------
// Workload bodies.

type Json = Record<string, unknown>;

/** An openai-responses stream whose one `partial_image` event carries about `bytes` of base64 (image generation). */
function bigImageEventStream(bytes: number): string {
  const response = { id: 'resp_bench', object: 'response', created_at: 1_732_900_000, status: 'in_progress', model: 'gpt-image-bench', output: [] };
  const item = { id: 'ig_bench', type: 'image_generation_call', status: 'in_progress' };
  const raw = new Uint8Array(Math.floor((bytes * 3) / 4));
  for (let index = 0; index < raw.length; index += 1) raw[index] = (index * 7919) & 0xff;
  let binary = '';
  for (let index = 0; index < raw.length; index += 0x8000) binary += String.fromCharCode(...raw.subarray(index, index + 0x8000));
  const image = btoa(binary);
  const events: Json[] = [
    { type: 'response.created', sequence_number: 0, response },
    { type: 'response.in_progress', sequence_number: 1, response },
    { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item },
    { type: 'response.image_generation_call.in_progress', sequence_number: 3, output_index: 0, item_id: item.id },
    { type: 'response.image_generation_call.generating', sequence_number: 4, output_index: 0, item_id: item.id },
    { type: 'response.image_generation_call.partial_image', sequence_number: 5, output_index: 0, item_id: item.id, partial_image_index: 0, partial_image_b64: image },
    { type: 'response.image_generation_call.completed', sequence_number: 6, output_index: 0, item_id: item.id },
    { type: 'response.output_item.done', sequence_number: 7, output_index: 0, item: { ...item, status: 'completed', result: 'aGk=' } },
    {
      type: 'response.completed',
      sequence_number: 8,
      response: {
        ...response,
        status: 'completed',
        output: [{ ...item, status: 'completed', result: 'aGk=' }],
        usage: { input_tokens: 12, output_tokens: 1500, total_tokens: 1512, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      },
    },
  ];
  return events.map((event) => `event: ${event.type as string}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

function embeddingVector(seed: number): Float32Array {
  const values = new Float32Array(EMBEDDING_DIMENSIONS);
  let state = seed * 2_654_435_761 + 1;
  for (let index = 0; index < EMBEDDING_DIMENSIONS; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    values[index] = (state / 2_147_483_648 - 0.5) * 0.08;
  }
  return values;
}

function embeddingsBody(format: 'base64' | 'float'): string {
  const data = Array.from({ length: EMBEDDING_VECTORS }, (_, index) => {
    const values = embeddingVector(index + 1);
    const bytes = new Uint8Array(values.buffer);
    let binary = '';
    for (let offset = 0; offset < bytes.length; offset += 1) binary += String.fromCharCode(bytes[offset] as number);
    return { object: 'embedding', index, embedding: format === 'base64' ? btoa(binary) : Array.from(values) };
  });
  return JSON.stringify({ object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: 640, total_tokens: 640 } });
}

function syncChatBody(): string {
  return JSON.stringify({
    id: 'chatcmpl-AbC123dEf456GhI789jKl0MnO',
    object: 'chat.completion',
    created: 1_732_900_000,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Hello! How can I help you today? I can answer questions, draft text and explain code.', refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 21, total_tokens: 33, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
    system_fingerprint: 'fp_0ba0d124f1',
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement plumbing.

type Role = 'floor' | 'ours' | 'peer';

interface WorkloadCase {
  readonly id: string;
  readonly label: string;
  readonly role: Role;
  readonly run: () => Promise<unknown>;
}

interface WorkloadResult {
  readonly id: string;
  readonly title: string;
  readonly operation: string;
  readonly cases: readonly { readonly id: string; readonly label: string; readonly role: Role; readonly medianNs: number; readonly relativeSpread: number }[];
}

interface RunContext {
  readonly rounds: number;
  readonly quick: boolean;
  /** Also time peers known to take minutes on a workload (`--with-slow-peers`). */
  readonly slowPeers: boolean;
  readonly workloads: WorkloadResult[];
  readonly metrics: BenchMetric[];
}

function perRound(top: Measurement, bottom: Measurement): number[] {
  return top.samples.map((value, round) => round3(value / (bottom.samples[round] as number)));
}

/** Measures one workload's cases interleaved and records ratios: each case against the floor, and our speedup over each peer. */
async function runWorkload(
  context: RunContext,
  workload: {
    readonly id: string;
    readonly title: string;
    readonly operation: string;
    readonly cases: readonly WorkloadCase[];
    readonly operationsPerRound?: number;
    /** Timed rounds, when this workload needs more than the context's. */
    readonly rounds?: number;
  },
  targets: { readonly oursVsFloor?: number; readonly oursVsFloorIqr?: number; readonly speedupVs?: Readonly<Record<string, number>> } = {},
): Promise<void> {
  // Every path must complete before it is timed.
  for (const workloadCase of workload.cases) {
    const started = Date.now();
    await workloadCase.run();
    if (process.env.BENCH_TRACE === '1') console.log(`  first pass ${workload.id}/${workloadCase.id}: ${Date.now() - started} ms`);
  }
  const operationsPerRound = workload.operationsPerRound ?? 1;
  const measurements = await measureAlternating(
    workload.cases.map(
      (workloadCase): BenchCase => ({
        name: `${workload.id}: ${workloadCase.label}`,
        operationsPerRound,
        fn: async (operations) => {
          for (let operation = 0; operation < operations; operation += 1) await workloadCase.run();
        },
      }),
    ),
    // No forced GC between cases: measured on this path, a full collection before each case doubled our next
    // eight streams (12.9 ms against 6.6 ms a stream) and slowed the floor by a third, whatever the code under test.
    // Longer rounds and more of them keep the interquartile range tight instead.
    { rounds: workload.rounds ?? context.rounds, warmupRounds: context.quick ? 1 : 2 },
  );
  for (const measurement of measurements) console.log(formatMeasurement(measurement));
  const byId = new Map(workload.cases.map((workloadCase, position) => [workloadCase.id, measurements[position] as Measurement]));
  context.workloads.push({
    id: workload.id,
    title: workload.title,
    operation: workload.operation,
    cases: workload.cases.map((workloadCase) => ({
      id: workloadCase.id,
      label: workloadCase.label,
      role: workloadCase.role,
      medianNs: (byId.get(workloadCase.id) as Measurement).medianNsPerOperation,
      relativeSpread: (byId.get(workloadCase.id) as Measurement).relativeSpread,
    })),
  });
  const floor = workload.cases.find((workloadCase) => workloadCase.role === 'floor');
  const ours = workload.cases.find((workloadCase) => workloadCase.role === 'ours') as WorkloadCase;
  const oursMeasurement = byId.get(ours.id) as Measurement;
  if (floor !== undefined) {
    const floorMeasurement = byId.get(floor.id) as Measurement;
    for (const workloadCase of workload.cases) {
      if (workloadCase.role === 'floor') continue;
      const isOurs = workloadCase.role === 'ours';
      context.metrics.push({
        id: `${workload.id}.${workloadCase.id}-vs-floor`,
        label: `${workload.title}: ${workloadCase.label} / floor`,
        unit: 'ratio',
        better: 'lower',
        samples: perRound(byId.get(workloadCase.id) as Measurement, floorMeasurement),
        ...(isOurs && targets.oursVsFloor !== undefined
          ? { target: { comparison: 'at-most', value: targets.oursVsFloor, gated: true, ...(targets.oursVsFloorIqr === undefined ? {} : { maxInterquartileRange: targets.oursVsFloorIqr }) } }
          : {}),
      });
    }
  }
  for (const peer of workload.cases.filter((workloadCase) => workloadCase.role === 'peer')) {
    const target = targets.speedupVs?.[peer.id];
    context.metrics.push({
      id: `${workload.id}.speedup-vs-${peer.id}`,
      label: `${workload.title}: ${peer.label} / ours (our speedup)`,
      unit: 'ratio',
      better: 'higher',
      samples: perRound(byId.get(peer.id) as Measurement, oursMeasurement),
      ...(target === undefined ? {} : { target: { comparison: 'at-least', value: target, gated: false } }),
    });
  }
  console.log('');
}

function streamResponse(body: string, readSize: number): CannedResponse {
  return { contentType: 'text/event-stream', pieces: split(encoder.encode(body), readSize) };
}

function jsonResponse(body: string): CannedResponse {
  return { contentType: 'application/json', pieces: split(encoder.encode(body), 64 * 1024) };
}

/** Wraps a path so it first arms the fake fetch and transport with `response`. */
function answering(response: CannedResponse, run: () => Promise<unknown>): () => Promise<unknown> {
  return () => {
    answerWith(response);
    return run();
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Workloads.

async function chatStreams(context: RunContext, peers: Peers): Promise<void> {
  const ours = ourPath(createOpenAiChatAdapterFactory({ now: () => 0 }), chatCapability('openai-chat/v1'));
  const text = openAiTextStream(STREAM_CHUNKS);
  const aiSdkModel = peers.aiSdk.chat('bench-model');
  for (const readSize of [1400, 64]) {
    const response = streamResponse(text, readSize);
    await runWorkload(
      context,
      {
        id: `openai-chat-${readSize}`,
        title: `openai-chat text stream, ${STREAM_CHUNKS} chunks, ${readSize}-byte reads`,
        operation: 'stream',
        // One stream is ~6 ms here (at the mercy of one GC pause): rounds of several streams, and more of them.
        operationsPerRound: CHAT_STREAMS_PER_ROUND,
        rounds: context.quick ? context.rounds : CHAT_ROUNDS,
        cases: [
          { id: 'floor', label: 'floor (decode + split + JSON.parse)', role: 'floor', run: answering(response, () => floorPass(response.pieces)) },
          { id: 'tokenforge', label: 'TokenForge engine + openai-chat adapter', role: 'ours', run: answering(response, () => ours.run(streamTask)) },
          { id: 'ai-sdk', label: '@ai-sdk/openai chat doStream', role: 'peer', run: answering(response, () => aiSdkStream(aiSdkModel, false)) },
          {
            id: 'ai-stream-text',
            label: 'ai streamText fullStream',
            role: 'peer',
            run: answering(response, () => drain(peers.streamText({ model: aiSdkModel, prompt: 'Say hello.', maxRetries: 0 }).fullStream)),
          },
          {
            id: 'openai-sdk',
            label: 'openai SDK chat stream iterator',
            role: 'peer',
            run: answering(response, async () =>
              drain((await peers.openai.chat.completions.create({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }], stream: true })) as AsyncIterableResult),
            ),
          },
        ],
      },
      { ...(readSize === 1400 ? { oursVsFloor: TARGETS.chatVsFloor, oursVsFloorIqr: TARGETS.chatVsFloorIqr } : {}), speedupVs: { 'ai-sdk': TARGETS.speedupVsAiSdk, 'ai-stream-text': TARGETS.speedupVsAiSdk } },
    );
  }
}

async function anthropicToolUse(context: RunContext, peers: Peers): Promise<void> {
  const ours = ourPath(createAnthropicMessagesAdapterFactory({ now: () => 0 }), chatCapability('anthropic-messages/v1'));
  const response = streamResponse(anthropicToolStream(STREAM_CHUNKS - 6), 1400);
  await runWorkload(context, {
    id: 'anthropic-tool-use',
    title: `Anthropic tool-use stream, ${STREAM_CHUNKS} events, 1,400-byte reads`,
    operation: 'stream',
    cases: [
      { id: 'floor', label: 'floor (decode + split + JSON.parse)', role: 'floor', run: answering(response, () => floorPass(response.pieces)) },
      { id: 'tokenforge', label: 'TokenForge engine + anthropic-messages adapter', role: 'ours', run: answering(response, () => ours.run(toolStreamTask)) },
      {
        id: 'anthropic-sdk',
        label: '@anthropic-ai/sdk messages stream iterator',
        role: 'peer',
        run: answering(response, async () =>
          drain(
            (await peers.anthropic.messages.create({
              model: 'bench-model',
              max_tokens: 1024,
              messages: [{ role: 'user', content: 'Say hello.' }],
              tools: [{ name: 'weather', input_schema: { type: 'object' } }],
              stream: true,
            })) as AsyncIterableResult,
          ),
        ),
      },
    ],
  }, { speedupVs: { 'anthropic-sdk': TARGETS.speedupVsAnthropicSdk } });
}

async function bigBase64Event(context: RunContext, peers: Peers): Promise<void> {
  const ours = ourPath(createOpenAiResponsesAdapterFactory({ now: () => 0 }), chatCapability('openai-responses/v1'));
  const response = streamResponse(bigImageEventStream(BIG_EVENT_BYTES), 1024);
  const aiSdkModel = peers.aiSdk.responses('bench-model');
  const openAiSdkPass = (): Promise<number> =>
    peers.openai.responses.create({ model: 'bench-model', input: 'Draw.', stream: true }).then((stream) => drain(stream as AsyncIterableResult));
  const cases: WorkloadCase[] = [
    { id: 'floor', label: 'floor (decode + split + JSON.parse)', role: 'floor', run: answering(response, () => floorPass(response.pieces)) },
    { id: 'tokenforge', label: 'TokenForge engine + openai-responses adapter', role: 'ours', run: answering(response, () => ours.run(streamTask)) },
    { id: 'ai-sdk', label: '@ai-sdk/openai responses doStream', role: 'peer', run: answering(response, () => aiSdkStream(aiSdkModel, false)) },
  ];
  // The openai SDK's line decoder copies and re-scans its whole buffer on every read, so one 4 MB event in 1 KB
  // reads takes minutes; it is timed at 4 MB only on request, and its growth is measured on smaller events below.
  if (context.slowPeers) cases.push({ id: 'openai-sdk', label: 'openai SDK responses stream iterator', role: 'peer', run: answering(response, openAiSdkPass) });
  await runWorkload(context, { id: 'base64-event-4mb', title: 'one 4 MB base64 image event (openai-responses partial_image), 1 KB reads', operation: 'stream', cases });

  const sizes = [128 * 1024, 512 * 1024];
  const smaller = sizes.map((bytes) => streamResponse(bigImageEventStream(bytes), 1024));
  const timeOnce = async (response: CannedResponse, run: () => Promise<unknown>): Promise<number> => {
    answerWith(response);
    const started = process.hrtime.bigint();
    await run();
    return Number(process.hrtime.bigint() - started);
  };
  await timeOnce(smaller[0] as CannedResponse, openAiSdkPass);
  const paths = [
    { id: 'tokenforge', label: 'TokenForge engine + openai-responses adapter', role: 'ours' as const, run: () => ours.run(streamTask) },
    { id: 'openai-sdk', label: 'openai SDK responses stream iterator', role: 'peer' as const, run: openAiSdkPass },
  ];
  const workloadCases: WorkloadResult['cases'][number][] = [];
  for (const path of paths) {
    const times: number[] = [];
    for (const [position, response] of smaller.entries()) {
      const elapsed = await timeOnce(response, path.run);
      times.push(elapsed);
      workloadCases.push({ id: `${path.id}-${(sizes[position] as number) / 1024}`, label: `${path.label}, ${(sizes[position] as number) / 1024} KB event`, role: path.role, medianNs: elapsed, relativeSpread: 0 });
      console.log(`base64 event growth: ${path.label}, ${(sizes[position] as number) / 1024} KB: ${(elapsed / 1e6).toFixed(1)} ms (one pass)`);
    }
    context.metrics.push({
      id: `base64-event-growth.${path.id}-exponent`,
      label: `one base64 event of ${sizes.map((bytes) => `${bytes / 1024} KB`).join(' and ')} in 1 KB reads: ${path.label}, size exponent (1 = linear)`,
      unit: 'exponent',
      better: 'lower',
      samples: [scalingExponent(sizes, times)],
    });
  }
  context.workloads.push({ id: 'base64-event-growth', title: 'one base64 event at 128 KB and 512 KB, 1 KB reads (one pass each)', operation: 'stream', cases: workloadCases });
  console.log('');
}

async function toolArgumentScaling(context: RunContext, peers: Peers): Promise<void> {
  const ours = ourPath(createOpenAiChatAdapterFactory({ now: () => 0 }), chatCapability('openai-chat/v1'));
  const aiSdkModel = peers.aiSdk.chat('bench-model');
  const paths: readonly { readonly id: string; readonly label: string; readonly role: Role; readonly run: (pieces: readonly Uint8Array[]) => Promise<unknown> }[] = [
    { id: 'floor', label: 'floor', role: 'floor', run: (pieces) => floorPass(pieces) },
    { id: 'tokenforge', label: 'TokenForge engine + openai-chat adapter', role: 'ours', run: () => ours.run(toolStreamTask) },
    { id: 'ai-sdk', label: '@ai-sdk/openai chat doStream', role: 'peer', run: () => aiSdkStream(aiSdkModel, true) },
    {
      id: 'openai-sdk',
      label: 'openai SDK chat stream iterator',
      role: 'peer',
      run: async () =>
        drain(
          (await peers.openai.chat.completions.create({
            model: 'bench-model',
            messages: [{ role: 'user', content: 'Say hello.' }],
            tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
            stream: true,
          })) as AsyncIterableResult,
        ),
    },
  ];
  const sizes = context.quick ? TOOL_DELTAS.slice(0, 2) : TOOL_DELTAS;
  const responses = new Map(sizes.map((deltas) => [deltas, streamResponse(openAiToolStream(deltas), 1400)]));
  const cases: BenchCase[] = [];
  for (const path of paths) {
    for (const deltas of sizes) {
      const response = responses.get(deltas) as CannedResponse;
      cases.push({
        name: `tool-arguments: ${path.label}, ${deltas} deltas (per stream)`,
        operationsPerRound: 1,
        fn: async () => {
          answerWith(response);
          await path.run(response.pieces);
        },
      });
    }
  }
  for (const benchCase of cases) await benchCase.fn(1);
  const measurements = await measureAlternating(cases, { rounds: context.rounds, warmupRounds: 1 });
  for (const measurement of measurements) console.log(formatMeasurement(measurement));
  const workloadCases: WorkloadResult['cases'][number][] = [];
  paths.forEach((path, pathIndex) => {
    const own = measurements.slice(pathIndex * sizes.length, (pathIndex + 1) * sizes.length);
    sizes.forEach((deltas, sizeIndex) => {
      const measurement = own[sizeIndex] as Measurement;
      workloadCases.push({ id: `${path.id}-${deltas}`, label: `${path.label}, ${deltas} deltas`, role: path.role, medianNs: measurement.medianNsPerOperation, relativeSpread: measurement.relativeSpread });
    });
    const exponents = Array.from({ length: context.rounds }, (_, round) =>
      scalingExponent(
        [...sizes],
        own.map((measurement) => measurement.samples[round] as number),
      ),
    );
    context.metrics.push({
      id: `tool-arguments.${path.id}-exponent`,
      label: `tool-argument deltas ${sizes.join('/')}: ${path.label}, scaling exponent (1 = linear)`,
      unit: 'exponent',
      better: 'lower',
      samples: exponents,
      ...(path.role === 'ours' ? { target: { comparison: 'at-most', value: TARGETS.scalingExponent, gated: true } } : {}),
    });
  });
  context.workloads.push({ id: 'tool-arguments', title: `openai-chat tool-call arguments at ${sizes.join(', ')} deltas, 1,400-byte reads`, operation: 'stream', cases: workloadCases });
  console.log('');
}

async function embeddings(context: RunContext, peers: Peers): Promise<void> {
  const capability: ProtocolCapabilityV2 = {
    protocolFamily: 'openai-embeddings/v1' as ProtocolFamily,
    executionMode: 'sync',
    taskKinds: ['embedding'],
    embedding: { spaceId: 'bench-space', defaultDimensions: EMBEDDING_DIMENSIONS },
  };
  const task: TaskEnvelopeV2 = { kind: 'embedding', inputs: Array.from({ length: EMBEDDING_VECTORS }, (_, index) => `input ${index}`) };
  const inputs = (task as { inputs: string[] }).inputs;
  const base64Floor = async (pieces: readonly Uint8Array[]): Promise<void> => {
    const parsed = (await floorJsonPass(pieces)) as { data: { embedding: string }[] };
    for (const item of parsed.data) {
      const binary = atob(item.embedding);
      const bytes = new Uint8Array(binary.length);
      for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
      sink += new Float32Array(bytes.buffer).length;
    }
  };
  for (const format of ['float', 'base64'] as const) {
    const response = jsonResponse(embeddingsBody(format));
    const ours = ourPath(createOpenAiEmbeddingsAdapterFactory({ now: () => 0, encodingFormat: format }), capability);
    const cases: WorkloadCase[] = [
      {
        id: 'floor',
        label: format === 'float' ? 'floor (decode + JSON.parse)' : 'floor (decode + JSON.parse + atob into Float32Array)',
        role: 'floor',
        run: answering(response, () => (format === 'float' ? floorJsonPass(response.pieces) : base64Floor(response.pieces))),
      },
      { id: 'tokenforge', label: 'TokenForge engine + openai-embeddings adapter', role: 'ours', run: answering(response, () => ours.run(task)) },
      {
        id: 'openai-sdk',
        label: format === 'float' ? 'openai SDK embeddings.create (float)' : 'openai SDK embeddings.create (default: base64, decoded)',
        role: 'peer',
        run: answering(response, async () =>
          (await peers.openai.embeddings.create({ model: 'bench-model', input: inputs, ...(format === 'float' ? { encoding_format: 'float' } : {}) })).data.length,
        ),
      },
    ];
    // The AI SDK asks for float only.
    if (format === 'float') {
      const model = peers.aiSdk.textEmbeddingModel('bench-model');
      cases.push({ id: 'ai-sdk', label: '@ai-sdk/openai doEmbed (float)', role: 'peer', run: answering(response, async () => (await model.doEmbed({ values: inputs })).embeddings.length) });
    }
    await runWorkload(context, {
      id: `embeddings-${format}`,
      title: `embeddings ${EMBEDDING_VECTORS} x ${EMBEDDING_DIMENSIONS}, ${format} body`,
      operation: 'response',
      operationsPerRound: context.quick ? 2 : 5,
      cases,
    });
  }
}

/** Per-call latency of sync chat: rounds of calls, order alternating, every call timed on its own. */
async function syncChatLatency(context: RunContext, peers: Peers): Promise<void> {
  const ours = ourPath(createOpenAiChatAdapterFactory({ now: () => 0 }), chatCapability('openai-chat/v1'));
  const response = jsonResponse(syncChatBody());
  answerWith(response);
  const aiSdkModel = peers.aiSdk.chat('bench-model');
  const paths: readonly { readonly id: string; readonly label: string; readonly role: Role; readonly run: () => Promise<unknown> }[] = [
    { id: 'floor', label: 'floor (decode + JSON.parse of the body)', role: 'floor', run: () => floorJsonPass(response.pieces) },
    { id: 'tokenforge', label: 'TokenForge engine + openai-chat adapter', role: 'ours', run: () => ours.run(syncTask) },
    { id: 'ai-sdk', label: '@ai-sdk/openai chat doGenerate', role: 'peer', run: () => aiSdkModel.doGenerate({ prompt: aiSdkPrompt }) },
    {
      id: 'openai-sdk',
      label: 'openai SDK chat.completions.create',
      role: 'peer',
      run: () => peers.openai.chat.completions.create({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }] }),
    },
  ];
  const calls = context.quick ? 1000 : SYNC_CALLS;
  const block = 500;
  for (const path of paths) for (let call = 0; call < 200; call += 1) await path.run();
  const latencies = paths.map((): number[] => []);
  for (let round = 0; round < calls / block; round += 1) {
    const order = round % 2 === 0 ? paths.map((_, index) => index) : paths.map((_, index) => paths.length - 1 - index);
    for (const position of order) {
      const path = paths[position]!;
      const own = latencies[position]!;
      for (let call = 0; call < block; call += 1) {
        const started = process.hrtime.bigint();
        await path.run();
        own.push(Number(process.hrtime.bigint() - started) / 1000);
      }
    }
  }
  const cases = paths.map((path, position) => {
    const own = latencies[position]!;
    return { id: path.id, label: path.label, role: path.role, p50: round3(quantile(own, 0.5)), p99: round3(quantile(own, 0.99)), calls: own.length };
  });
  for (const entry of cases) console.log(`sync chat: ${entry.label.padEnd(48)} p50 ${entry.p50.toFixed(1)} us  p99 ${entry.p99.toFixed(1)} us  (${entry.calls} calls)`);
  const oursCase = cases.find((entry) => entry.role === 'ours')!;
  context.workloads.push({
    id: 'sync-chat',
    title: `sync chat through the engine, ${calls} calls each, fake in-memory transport`,
    operation: 'call (p50)',
    cases: cases.map((entry) => ({ id: entry.id, label: entry.label, role: entry.role, medianNs: round3(entry.p50 * 1000), relativeSpread: round3((entry.p99 - entry.p50) / entry.p50) })),
  });
  context.metrics.push(
    { id: 'sync-chat.tokenforge-p50', label: 'sync chat through the engine: p50 latency', unit: 'microseconds', better: 'lower', samples: [oursCase.p50] },
    { id: 'sync-chat.tokenforge-p99', label: 'sync chat through the engine: p99 latency', unit: 'microseconds', better: 'lower', samples: [oursCase.p99] },
  );
  for (const entry of cases.filter((candidate) => candidate.role === 'peer')) {
    context.metrics.push({
      id: `sync-chat.p50-speedup-vs-${entry.id}`,
      label: `sync chat p50: ${entry.label} / ours (our speedup)`,
      unit: 'ratio',
      better: 'higher',
      samples: [round3(entry.p50 / oursCase.p50)],
    });
  }
  console.log('');
}

/** The `gc` function: the global one under `--expose-gc`, else switched on at run time. */
function collector(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function settledHeap(gc: () => void): Promise<number> {
  for (let pass = 0; pass < 3; pass += 1) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** Heap still used after 100 complete streams through the engine, against the heap before them. */
async function retainedHeap(context: RunContext): Promise<void> {
  const gc = collector();
  const ours = ourPath(createOpenAiChatAdapterFactory({ now: () => 0 }), chatCapability('openai-chat/v1'));
  const response = streamResponse(openAiTextStream(STREAM_CHUNKS), 1400);
  answerWith(response);
  for (let stream = 0; stream < 5; stream += 1) await ours.run(streamTask);
  const before = await settledHeap(gc);
  for (let stream = 0; stream < HEAP_STREAMS; stream += 1) await ours.run(streamTask);
  const after = await settledHeap(gc);
  const retained = after - before;
  console.log(`heap retained after ${HEAP_STREAMS} streams: ${retained} bytes (limit ${HEAP_LIMIT_BYTES})`);
  context.metrics.push({
    id: 'heap.retained-after-100-streams',
    label: `heap retained after ${HEAP_STREAMS} openai-chat streams through the engine`,
    unit: 'bytes',
    better: 'lower',
    samples: [retained],
    target: { comparison: 'at-most', value: HEAP_LIMIT_BYTES, gated: true },
  });
  console.log('');
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length).split(',');
  const context: RunContext = { rounds: quick ? 3 : 5, quick, slowPeers: process.argv.includes('--with-slow-peers'), workloads: [], metrics: [] };
  const machine = machineFacts();
  console.log(`peers benchmark on Node ${machine.node}, ${machine.cpuModel} x${machine.cpuCount}${quick ? ' (quick)' : ''}\n`);
  // The heap figure first, before the peers' modules are loaded.
  const steps: readonly [string, (peers: Peers) => Promise<void>][] = [
    ['chat', (peers) => chatStreams(context, peers)],
    ['anthropic', (peers) => anthropicToolUse(context, peers)],
    ['big-event', (peers) => bigBase64Event(context, peers)],
    ['tool-arguments', (peers) => toolArgumentScaling(context, peers)],
    ['embeddings', (peers) => embeddings(context, peers)],
    ['sync', (peers) => syncChatLatency(context, peers)],
  ];
  if (only === undefined || only.includes('heap')) await retainedHeap(context);
  const peers = await loadPeers();
  for (const [name, step] of steps) if (only === undefined || only.includes(name)) await step(peers);
  const path = writeResults('peers', { quick, rounds: context.rounds, peerVersions: peers.versions, workloads: context.workloads, metrics: context.metrics });
  console.log(`results written to ${path}`);
  if (sink === -1) console.log('unreachable');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
