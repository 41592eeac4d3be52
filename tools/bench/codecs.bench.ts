/**
 * The codec hot paths, end to end: a provider SSE body (an async iterable of pre-split reads) through the adapter
 * (SSE decoding, safe JSON, the family's state machine), the engine (`execute` with its full validation) and a
 * consumer iterating the events. Each is compared with a floor measured in the same run over the same reads:
 * UTF-8 decode + line split + `JSON.parse` with the same async iteration.
 *
 * Targets: the openai-chat text stream at 1,400-byte reads costs at most 1.5x its floor (64-byte reads are
 * reported too); tool-argument accumulation is linear (4x the deltas cost at most 4.5x the time).
 *
 * Component figures beside them (parseSafeJson vs JSON.parse, the SSE decoder alone, the stream driver) show
 * where the time goes. If `tools/bench/codecs-embeddings.ts` exists it runs afterwards, so `npx --yes pnpm@12.4.2 bench:codecs`
 * reports everything.
 *
 * Run: `npx --yes pnpm@12.4.2 bench:codecs`. Writes tools/bench/results/codecs.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChatTaskV2, ProtocolFamily, ProviderTransport, ProviderTransportResponse } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import {
  createAdapterStreamParts,
  createAnthropicMessagesAdapterFactory,
  createOpenAiChatAdapterFactory,
  createSseParser,
  decodeSseStream,
  parseSafeJson,
  type AdapterStreamMachine,
} from '@tokenforge/provider-adapters';
import { formatMeasurement, machineFacts, measureInterleaved, pairedRatio, writeResults, type BenchCase, type Measurement } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ADAPTERS = join(HERE, '../../packages/provider-adapters/src/protocols');
const OPENAI_TEXT_FIXTURE = join(ADAPTERS, 'openai-chat/__fixtures__/vercel-ai__openai-text.chunks.txt');
const OPENAI_TOOL_FIXTURE = join(ADAPTERS, 'openai-chat/__fixtures__/vercel-ai__deepseek-tool-call.chunks.txt');
const ANTHROPIC_TOOL_FIXTURE = join(ADAPTERS, 'anthropic-messages/__fixtures__/vercel-ai__anthropic-tool-no-args.chunks.txt');
const EMBEDDINGS_BENCH = join(HERE, 'codecs-embeddings.ts');

const TARGET_FLOOR_RATIO = 1.5;
const TARGET_SCALING_RATIO = 4.5;
const STREAM_CHUNKS = 2000;
const LARGE_READ = 1400;
const SMALL_READ = 64;
const OPENAI_CHAT = 'openai-chat/v1' as ProtocolFamily;
const ANTHROPIC_MESSAGES = 'anthropic-messages/v1' as ProtocolFamily;
const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------------------------
// Workloads, built from the recorded fixture shapes.

type Json = Record<string, unknown>;

function fixtureLines(path: string): Json[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Json);
}

/** A recorded chunk with the two optional padding fields OpenAI adds left out (about 270 bytes a frame). */
function trimmed(chunk: Json): Json {
  const { service_tier: _tier, obfuscation: _padding, ...rest } = chunk;
  return rest;
}

function withDelta(template: Json, delta: Json, finishReason: string | null = null): Json {
  const choice = (template.choices as Json[])[0] as Json;
  return { ...template, choices: [{ ...choice, delta, finish_reason: finishReason }] };
}

function dataFrame(payload: Json | string): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}

/** An openai-chat text stream of `chunks` SSE frames: role chunk, content deltas, finish chunk, usage chunk, [DONE]. */
export function openAiTextStream(chunks: number): string {
  const recorded = fixtureLines(OPENAI_TEXT_FIXTURE).map(trimmed);
  const template = recorded[1] as Json;
  const tokens = recorded
    .map((chunk) => ((chunk.choices as Json[])[0]?.delta as Json | undefined)?.content)
    .filter((content): content is string => typeof content === 'string' && content.length > 0);
  const usage = recorded.at(-1) as Json;
  const frames = [dataFrame(recorded[0] as Json)];
  for (let position = 0; position < chunks - 4; position += 1) {
    frames.push(dataFrame(withDelta(template, { content: tokens[position % tokens.length] })));
  }
  frames.push(dataFrame(withDelta(template, {}, 'stop')));
  frames.push(dataFrame({ ...usage, usage: { ...(usage.usage as Json), completion_tokens: chunks - 4, total_tokens: chunks + 12 } }));
  frames.push(dataFrame('[DONE]'));
  return frames.join('');
}

/** Argument fragments that join to one JSON object: `{"items":[` then `"tok000001",` ... then `"end"]}`. */
function argumentFragments(count: number): string[] {
  const fragments = ['{"items":['];
  for (let position = 0; position < count - 2; position += 1) fragments.push(`"tok${String(position).padStart(6, '0')}",`);
  fragments.push('"end"]}');
  return fragments;
}

/** An openai-chat tool-call stream (the recorded DeepSeek shape) with `deltas` argument fragments. */
export function openAiToolStream(deltas: number): string {
  const recorded = fixtureLines(OPENAI_TOOL_FIXTURE);
  const opening = recorded.find((chunk) => JSON.stringify(chunk).includes('"name":"weather"')) as Json;
  const template = recorded[1] as Json;
  const usage = recorded.at(-1) as Json;
  const frames = [dataFrame(opening)];
  for (const fragment of argumentFragments(deltas)) {
    frames.push(dataFrame(withDelta(template, { tool_calls: [{ index: 0, function: { arguments: fragment } }] })));
  }
  frames.push(dataFrame(withDelta(template, {}, 'tool_calls')));
  frames.push(dataFrame({ ...usage, choices: [] }));
  frames.push(dataFrame('[DONE]'));
  return frames.join('');
}

/** An Anthropic tool-use stream (the recorded shape) of `deltas` input_json_delta events plus six framing events. */
export function anthropicToolStream(deltas: number): string {
  const recorded = fixtureLines(ANTHROPIC_TOOL_FIXTURE);
  const byType = (type: string): Json => recorded.find((event) => event.type === type) as Json;
  const toolStart = recorded.find((event) => event.type === 'content_block_start' && (event.content_block as Json).type === 'tool_use') as Json;
  const typed = (event: Json): string => `event: ${event.type as string}\ndata: ${JSON.stringify(event)}\n\n`;
  const frames = [typed(byType('message_start')), typed({ ...toolStart, index: 0 }), typed({ type: 'ping' })];
  for (const fragment of argumentFragments(deltas)) {
    frames.push(typed({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: fragment } }));
  }
  frames.push(typed({ type: 'content_block_stop', index: 0 }), typed(byType('message_delta')), typed(byType('message_stop')));
  return frames.join('');
}

function frameCount(body: string): number {
  return body.split('\n\n').length - 1;
}

function split(body: string, readSize: number): Uint8Array[] {
  const bytes = encoder.encode(body);
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += readSize) pieces.push(bytes.slice(offset, offset + readSize));
  return pieces;
}

/** The fixture-like transport body: an async iterable of the pre-split reads, the same for every path measured. */
async function* readsOf(pieces: readonly Uint8Array[]): AsyncGenerator<Uint8Array, void, undefined> {
  for (const piece of pieces) yield piece;
}

// ---------------------------------------------------------------------------------------------------------------
// The floor and the full path.

let sink = 0;

/** UTF-8 decode + line split + JSON.parse of each `data:` line, with the same async iteration of the reads. */
async function floorPass(pieces: readonly Uint8Array[]): Promise<number> {
  const decoder = new TextDecoder();
  let buffered = '';
  let parsed = 0;
  for await (const piece of readsOf(pieces)) {
    buffered += decoder.decode(piece, { stream: true });
    let start = 0;
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n', start)) {
      const line = buffered.slice(start, newline);
      start = newline + 1;
      if (line.startsWith('data: ') && line !== 'data: [DONE]') {
        sink += (JSON.parse(line.slice(6)) as { type?: string; object?: string }).toString.length;
        parsed += 1;
      }
    }
    buffered = buffered.slice(start);
  }
  return parsed;
}

interface FullPath {
  readonly engine: ProtocolEngineV1;
  run(pieces: readonly Uint8Array[], family: ProtocolFamily, tools: boolean): Promise<number>;
}

function fullPath(): FullPath {
  let current: readonly Uint8Array[] = [];
  const transport: ProviderTransport = {
    send: async (): Promise<ProviderTransportResponse> => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: readsOf(current),
    }),
  };
  const families = new Map([
    [OPENAI_CHAT, createOpenAiChatAdapterFactory({ now: () => 0 })],
    [ANTHROPIC_MESSAGES, createAnthropicMessagesAdapterFactory({ now: () => 0 })],
  ]);
  const engine = createProtocolEngineV1({
    registry: {
      listProtocolFamilies: () => [...families.keys()],
      require: (family) => families.get(family) as NonNullable<ReturnType<typeof families.get>>,
    },
  });
  const bindings = new Map(
    [...families.keys()].map((family) => [
      family,
      createProtocolEngineTargetBindingV1({
        target: {
          provider: 'bench',
          providerModel: 'bench-model',
          connectionRef: 'bench-connection',
          capability: { protocolFamily: family, executionMode: 'stream-capable', taskKinds: ['chat'], tools: true },
        },
        bindTransport: () => transport,
      }),
    ]),
  );
  const messages: ChatTaskV2['messages'] = [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }];
  const plainTask: ChatTaskV2 = { kind: 'chat', messages, stream: true };
  const toolTask: ChatTaskV2 = { ...plainTask, tools: [{ name: 'weather', inputSchema: { type: 'object' } }] };
  const signal = new AbortController().signal;
  return {
    engine,
    async run(pieces, family, tools) {
      current = pieces;
      const execution = await engine.execute({ binding: bindings.get(family)!, task: tools ? toolTask : plainTask, signal });
      if (execution.kind !== 'stream') throw new Error('expected a stream execution');
      let events = 0;
      for await (const event of execution.events) {
        sink += event.type.length;
        events += 1;
      }
      const terminal = await execution.terminal;
      if (terminal.status !== 'completed') throw new Error(`expected a completed terminal, got ${JSON.stringify(terminal)}`);
      return events;
    },
  };
}

/** The codec kit's SSE decoder and stream driver alone, with a machine that only counts frames. */
async function driverPass(pieces: readonly Uint8Array[]): Promise<number> {
  let frames = 0;
  const machine: AdapterStreamMachine<unknown> = {
    onFrame: () => {
      frames += 1;
      return undefined;
    },
    onEnd: () => ({ terminal: { status: 'cancelled' } }),
  };
  const signal = new AbortController().signal;
  for await (const part of createAdapterStreamParts({ body: readsOf(pieces), sse: {}, machine, signal })) {
    sink += part.type.length;
  }
  return frames;
}

async function sseIteratedPass(pieces: readonly Uint8Array[]): Promise<number> {
  let items = 0;
  for await (const item of decodeSseStream(readsOf(pieces))) {
    sink += item.kind.length;
    items += 1;
  }
  return items;
}

function sseParserPass(pieces: readonly Uint8Array[]): number {
  const parser = createSseParser();
  let items = 0;
  for (const piece of pieces) items += parser.push(piece).length;
  return items + parser.finish().length;
}

// ---------------------------------------------------------------------------------------------------------------

interface StreamCaseInput {
  readonly name: string;
  readonly framesPerStream: number;
  readonly streamsPerRound: number;
  readonly pass: () => Promise<unknown> | unknown;
}

/** A case whose operation is one SSE frame; each call runs whole streams. */
function streamCase(input: StreamCaseInput): BenchCase {
  return {
    name: input.name,
    operationsPerRound: input.framesPerStream * input.streamsPerRound,
    fn: async (operations) => {
      for (let stream = 0; stream < operations / input.framesPerStream; stream += 1) await input.pass();
    },
  };
}

interface EmbeddingsBenchModule {
  runCodecsEmbeddingsBench?: (options?: { readonly rounds?: number }) => Promise<{ readonly ratios: unknown; readonly met: boolean; readonly path: string }>;
}

/** Runs the embeddings codec benchmark when its file exists (it writes its own results file too). */
async function runEmbeddingsBench(quick: boolean): Promise<{ ratios: unknown; met: boolean } | undefined> {
  if (!existsSync(EMBEDDINGS_BENCH)) return undefined;
  console.log('\nembeddings codec benchmark (tools/bench/codecs-embeddings.ts):');
  // A computed specifier: the file belongs to another benchmark and may be absent from a checkout.
  const specifier = pathToFileURL(EMBEDDINGS_BENCH).href;
  const module = (await import(specifier)) as EmbeddingsBenchModule;
  if (typeof module.runCodecsEmbeddingsBench !== 'function') throw new Error('codecs-embeddings.ts exports no runCodecsEmbeddingsBench');
  const result = await module.runCodecsEmbeddingsBench(quick ? { rounds: 5 } : {});
  console.log(`embeddings results written to ${result.path}\n`);
  return { ratios: result.ratios, met: result.met };
}

function exponent(small: number, large: number, factor: number): number {
  return Math.round((Math.log(large / small) / Math.log(factor)) * 1000) / 1000;
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const rounds = quick ? 5 : 11;
  const path = fullPath();

  const openAiText = openAiTextStream(STREAM_CHUNKS);
  const anthropicTool = anthropicToolStream(STREAM_CHUNKS - 6);
  const openAiFrames = frameCount(openAiText);
  const anthropicFrames = frameCount(anthropicTool);
  const openAiLarge = split(openAiText, LARGE_READ);
  const openAiSmall = split(openAiText, SMALL_READ);
  const anthropicLarge = split(anthropicTool, LARGE_READ);
  const anthropicSmall = split(anthropicTool, SMALL_READ);
  const bytesPerOpenAiFrame = Math.round(encoder.encode(openAiText).length / openAiFrames);
  const bytesPerAnthropicFrame = Math.round(encoder.encode(anthropicTool).length / anthropicFrames);

  // Sanity: every path sees the whole stream and ends completed.
  await path.run(openAiLarge, OPENAI_CHAT, false);
  await path.run(anthropicSmall, ANTHROPIC_MESSAGES, true);
  if ((await floorPass(openAiSmall)) !== openAiFrames - 1) throw new Error('the floor did not parse every chunk');

  const streams = quick ? 2 : 4;
  const pair = (label: string, pieces: Uint8Array[], frames: number, family: ProtocolFamily, tools: boolean): [BenchCase, BenchCase] => [
    streamCase({ name: `floor: ${label}`, framesPerStream: frames, streamsPerRound: streams, pass: () => floorPass(pieces) }),
    streamCase({ name: `full path: ${label}`, framesPerStream: frames, streamsPerRound: streams, pass: () => path.run(pieces, family, tools) }),
  ];
  const endToEndCases = [
    ...pair(`openai-chat text, ${LARGE_READ}-byte reads`, openAiLarge, openAiFrames, OPENAI_CHAT, false),
    ...pair(`openai-chat text, ${SMALL_READ}-byte reads`, openAiSmall, openAiFrames, OPENAI_CHAT, false),
    ...pair(`anthropic tool use, ${LARGE_READ}-byte reads`, anthropicLarge, anthropicFrames, ANTHROPIC_MESSAGES, true),
    ...pair(`anthropic tool use, ${SMALL_READ}-byte reads`, anthropicSmall, anthropicFrames, ANTHROPIC_MESSAGES, true),
  ];

  // Tool-argument accumulation: 1k versus 4k deltas through the full path, 1,400-byte reads.
  const scalingInputs = [
    { label: 'openai-chat', family: OPENAI_CHAT, build: openAiToolStream },
    { label: 'anthropic', family: ANTHROPIC_MESSAGES, build: anthropicToolStream },
  ].flatMap(({ label, family, build }) =>
    [1000, 4000].map((deltas) => {
      const pieces = split(build(deltas), LARGE_READ);
      return {
        label,
        deltas,
        case: {
          name: `full path: ${label} tool call, ${deltas} deltas (per stream)`,
          operationsPerRound: quick ? 2 : 4,
          fn: async (operations: number) => {
            for (let stream = 0; stream < operations; stream += 1) await path.run(pieces, family, true);
          },
        } satisfies BenchCase,
      };
    }),
  );

  // Components, to see where the time goes.
  const openAiChunkJson = JSON.stringify(withDelta(trimmed(fixtureLines(OPENAI_TEXT_FIXTURE)[1] as Json), { content: ' Harmony' }));
  const anthropicDeltaJson = JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"tok000123",' } });
  const perCall = (name: string, run: () => unknown, operationsPerRound: number): BenchCase => ({
    name,
    operationsPerRound,
    fn: (operations) => {
      for (let index = 0; index < operations; index += 1) sink += run() === null ? 0 : 1;
    },
  });
  const componentCases: BenchCase[] = [
    perCall(`JSON.parse, ${encoder.encode(openAiChunkJson).length}-byte openai-chat chunk`, () => JSON.parse(openAiChunkJson), 100_000),
    perCall(`parseSafeJson, ${encoder.encode(openAiChunkJson).length}-byte openai-chat chunk`, () => parseSafeJson(openAiChunkJson), 100_000),
    perCall(`JSON.parse, ${anthropicDeltaJson.length}-byte anthropic delta`, () => JSON.parse(anthropicDeltaJson), 100_000),
    perCall(`parseSafeJson, ${anthropicDeltaJson.length}-byte anthropic delta`, () => parseSafeJson(anthropicDeltaJson), 100_000),
    streamCase({ name: 'SSE parser push, openai-chat 1400-byte reads (per event)', framesPerStream: openAiFrames, streamsPerRound: streams, pass: () => sseParserPass(openAiLarge) }),
    streamCase({ name: 'decodeSseStream iterated, 1400-byte reads (per event)', framesPerStream: openAiFrames, streamsPerRound: streams, pass: () => sseIteratedPass(openAiLarge) }),
    streamCase({ name: 'stream driver + SSE, no-op machine, 1400-byte reads (per event)', framesPerStream: openAiFrames, streamsPerRound: streams, pass: () => driverPass(openAiLarge) }),
    streamCase({ name: 'stream driver + SSE, no-op machine, 64-byte reads (per event)', framesPerStream: openAiFrames, streamsPerRound: streams, pass: () => driverPass(openAiSmall) }),
  ];

  const machine = machineFacts();
  console.log(`codecs benchmark on Node ${machine.node}, ${machine.cpuModel} x${machine.cpuCount}${quick ? ' (quick)' : ''}`);
  console.log(`openai-chat stream: ${openAiFrames} frames, ${bytesPerOpenAiFrame} bytes a frame; anthropic tool-use stream: ${anthropicFrames} frames, ${bytesPerAnthropicFrame} bytes a frame`);

  const endToEnd = await measureInterleaved(endToEndCases, { rounds });
  const scaling = await measureInterleaved(scalingInputs.map((input) => input.case), { rounds });
  const components = await measureInterleaved(componentCases, { rounds });
  for (const measurement of [...endToEnd, ...scaling, ...components]) console.log(formatMeasurement(measurement));
  console.log('');

  const paired = (top: Measurement, bottom: Measurement): number =>
    pairedRatio((round) => (top.samples[round] as number) / (bottom.samples[round] as number), top.samples.length);
  const floorRatios: Record<string, number> = {};
  for (let position = 0; position < endToEnd.length; position += 2) {
    const floor = endToEnd[position] as Measurement;
    const full = endToEnd[position + 1] as Measurement;
    floorRatios[full.name.replace('full path: ', '')] = paired(full, floor);
  }
  const scalingResults = scalingInputs
    .filter((input) => input.deltas === 1000)
    .map((input) => {
      const small = scaling.find((measurement) => measurement.name === input.case.name) as Measurement;
      const large = scaling.find((measurement) => measurement.name === input.case.name.replace('1000 deltas', '4000 deltas')) as Measurement;
      const timeRatio = paired(large, small);
      return { stream: input.label, timeRatio4kOver1k: timeRatio, exponent: exponent(1, timeRatio, 4) };
    });
  const component = (index: number): Measurement => components[index] as Measurement;
  const componentRatios = {
    parseSafeJsonVsJsonParseOpenAiChunk: paired(component(1), component(0)),
    parseSafeJsonVsJsonParseAnthropicDelta: paired(component(3), component(2)),
    sseParserPushNsPerEvent: component(4).medianNsPerOperation,
    sseIteratedNsPerEvent: component(5).medianNsPerOperation,
    driverAndSseNsPerEvent1400: component(6).medianNsPerOperation,
    driverAndSseNsPerEvent64: component(7).medianNsPerOperation,
  };

  const headline = floorRatios[`openai-chat text, ${LARGE_READ}-byte reads`] as number;
  const worstScaling = Math.max(...scalingResults.map((result) => result.timeRatio4kOver1k));
  for (const [name, value] of Object.entries(floorRatios)) console.log(`${name}: ${value}x the floor`);
  console.log(`openai-chat text at ${LARGE_READ}-byte reads: ${headline}x the floor (target <= ${TARGET_FLOOR_RATIO}x)`);
  for (const result of scalingResults) {
    console.log(`${result.stream} tool arguments: 4x the deltas took ${result.timeRatio4kOver1k}x the time, scaling exponent ${result.exponent} (target <= ${TARGET_SCALING_RATIO}x)`);
  }
  console.log(`parseSafeJson vs JSON.parse: ${componentRatios.parseSafeJsonVsJsonParseOpenAiChunk}x (openai-chat chunk), ${componentRatios.parseSafeJsonVsJsonParseAnthropicDelta}x (anthropic delta)`);
  console.log(`SSE decoder: ${componentRatios.sseParserPushNsPerEvent.toFixed(0)} ns/event pushed, ${componentRatios.sseIteratedNsPerEvent.toFixed(0)} ns/event iterated; stream driver + SSE: ${componentRatios.driverAndSseNsPerEvent1400.toFixed(0)} ns/event`);

  const embeddings = await runEmbeddingsBench(quick);

  const written = writeResults('codecs', {
    target: { fullPathVsFloorAt1400ByteReads: TARGET_FLOOR_RATIO, toolArgumentTimeRatio4kOver1k: TARGET_SCALING_RATIO },
    met: headline <= TARGET_FLOOR_RATIO && worstScaling <= TARGET_SCALING_RATIO,
    quick,
    workloads: {
      openAiChatText: { frames: openAiFrames, bytesPerFrame: bytesPerOpenAiFrame, reads: { [LARGE_READ]: openAiLarge.length, [SMALL_READ]: openAiSmall.length } },
      anthropicToolUse: { frames: anthropicFrames, bytesPerFrame: bytesPerAnthropicFrame, reads: { [LARGE_READ]: anthropicLarge.length, [SMALL_READ]: anthropicSmall.length } },
    },
    ratios: { fullPathVsFloor: floorRatios, toolArgumentScaling: scalingResults, components: componentRatios },
    measurements: [...endToEnd, ...scaling, ...components],
    ...(embeddings === undefined ? {} : { embeddings }),
  });
  console.log(`results written to ${written}`);
  if (sink === -1) console.log('unreachable');

}

// Importable for profiling scripts without running.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
