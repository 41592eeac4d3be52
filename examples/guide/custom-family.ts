/**
 * Guide example 4: adding a protocol family without touching the engine.
 *
 * `line-chat/v1` is a made-up wire dialect (NOT a real provider): `POST /v1/line-chat` with `{model, prompt,
 * stream}`; a sync answer `{text, stop, usage: {in, out}}`; a stream of NDJSON lines `{"delta": "..."}` ending with
 * `{"stop": "...", "usage": {...}}`. The family is written the way the builtin families are (pure encoder, codec-kit
 * decoders, a stream state machine, transport metadata, a suite entry), added to the builtin suite, and run through
 * the unchanged engine. The provider side is the fixture transport of `@tokenforge/provider-adapters`, which replays
 * scripted answers and records every request.
 *
 * Run: `npx tsx examples/guide/custom-family.ts` (exits non-zero if anything
 * unexpected happens). Read it beside section 8 of docs/guides/PROTOCOL_ENGINE.md.
 */
import { pathToFileURL } from 'node:url';
import type {
  AdapterStreamPartV1,
  AdapterTerminalOutcomeV4,
  ChatTaskV4,
  NormalizedStreamEventV4,
  ProtocolFamily,
  ProviderAdapterExecuteInputV1,
  ProviderAdapterExecutionV1,
  ProviderAdapterFactory,
  ProviderTransportMetadataV1,
  ProviderTransportRequest,
  UsageV1,
} from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import {
  createAdapterStreamParts,
  createBuiltinTokenForgeProtocolSuiteV1,
  createFixtureTransportV1,
  createTokenForgeProtocolSuiteV1,
  decodeNdjsonValues,
  isProtocolSuiteErrorV1,
  ProtocolViolationError,
  readJsonResponse,
  terminalForError,
  type AdapterStreamMachine,
  type ProtocolSuiteEntryV1,
} from '@tokenforge/provider-adapters';
import { expectThat } from './support/expect-that.js';

// --- protocol-family.ts: the id names a wire dialect, not a vendor. -------------------------------------------
export const LINE_CHAT_PROTOCOL_FAMILY: ProtocolFamily = 'line-chat/v1';

// --- encode-request.ts: task -> transport request. Pure: no I/O, no clock, never a credential header. ----------
function encodeLineChatRequest(task: ChatTaskV4, providerModel: string): Omit<ProviderTransportRequest, 'signal'> {
  const prompt = task.messages
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
  return {
    method: 'POST',
    path: '/v1/line-chat',
    headers: { 'content-type': 'application/json', accept: task.stream ? 'application/x-ndjson' : 'application/json' },
    body: { type: 'json', value: { model: providerModel, prompt, stream: task.stream } },
  };
}

// --- map-finish-reason.ts and convert-usage.ts: onto the normalized vocabulary, keeping the raw value. ----------
function mapStop(raw: unknown): { unified: 'stop' | 'length' | 'other'; raw?: string } {
  if (raw === 'end') return { unified: 'stop', raw };
  if (raw === 'limit') return { unified: 'length', raw };
  return typeof raw === 'string' && /^[a-z_]{1,32}$/.test(raw) ? { unified: 'other', raw } : { unified: 'other' };
}

function convertUsage(wire: unknown): UsageV1 | undefined {
  if (typeof wire !== 'object' || wire === null) return undefined;
  const { in: input, out: output } = wire as { in?: unknown; out?: unknown };
  const count = (value: unknown): number | undefined => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined);
  const inputTokens = count(input);
  const outputTokens = count(output);
  // A figure the provider did not report stays absent, never zero.
  return { ...(inputTokens === undefined ? {} : { inputTokens }), ...(outputTokens === undefined ? {} : { outputTokens }) };
}

// --- decode-stream.ts: one state machine per stream, fed one NDJSON value at a time by the codec kit. ----------
function createLineChatStreamMachine(): AdapterStreamMachine<unknown> {
  let text = '';
  let open = false;
  return {
    onFrame(frame) {
      if (typeof frame !== 'object' || frame === null) throw new ProtocolViolationError('invalid-event', 'a line-chat line must be an object');
      const line = frame as { delta?: unknown; stop?: unknown; usage?: unknown };
      if (typeof line.delta === 'string') {
        const events: NormalizedStreamEventV4[] = open ? [] : [{ type: 'text-start', index: 0 }];
        open = true;
        text += line.delta;
        events.push({ type: 'text-delta', index: 0, delta: line.delta });
        return { events };
      }
      if (line.stop !== undefined) {
        // The terminal marker: close the block, report usage, complete with everything the deltas said.
        const usage = convertUsage(line.usage);
        const events: NormalizedStreamEventV4[] = open ? [{ type: 'text-end', index: 0 }] : [];
        if (usage !== undefined) events.push({ type: 'usage', usage });
        const terminal: AdapterTerminalOutcomeV4 = {
          status: 'completed',
          result: { kind: 'chat', content: text.length === 0 ? [] : [{ type: 'text', text }] },
          finishReason: mapStop(line.stop),
          ...(usage === undefined ? {} : { usage }),
        };
        return { events, terminal };
      }
      // An unknown line kind could change what the stream means: fail rather than guess.
      throw new ProtocolViolationError('unexpected-event', 'unknown line-chat line');
    },
    // No onEnd: a body that ends without a stop line is a failed, retryable `truncated-stream` (the kit's default).
  };
}

// --- decode-response.ts: a whole sync body -> terminal. ---------------------------------------------------------
function decodeLineChatResponse(value: unknown): AdapterTerminalOutcomeV4 {
  const body = (typeof value === 'object' && value !== null ? value : {}) as { text?: unknown; stop?: unknown; usage?: unknown };
  if (typeof body.text !== 'string') throw new ProtocolViolationError('invalid-event', 'a line-chat answer needs text');
  const usage = convertUsage(body.usage);
  return {
    status: 'completed',
    result: { kind: 'chat', content: body.text.length === 0 ? [] : [{ type: 'text', text: body.text }] },
    finishReason: mapStop(body.stop),
    ...(usage === undefined ? {} : { usage }),
  };
}

// --- adapter.ts: wires the pieces; provider failures are facts (failed terminals), never thrown. ---------------
async function* onlyTerminal(outcome: AdapterTerminalOutcomeV4): AsyncGenerator<AdapterStreamPartV1> {
  yield { type: 'terminal', outcome };
}

async function executeLineChat(input: ProviderAdapterExecuteInputV1): Promise<ProviderAdapterExecutionV1> {
  const { task, transport, signal } = input;
  if (task.kind !== 'chat') {
    // Nothing is sent for a task the dialect cannot express.
    return { kind: 'response', acceptance: { state: 'not-accepted' }, responseMetadata: {}, terminal: { status: 'failed', failure: { code: 'unsupported', retryable: false } } };
  }
  const response = await transport.send({ ...encodeLineChatRequest(task, input.target.providerModel), signal });
  // A stream task always gets a stream execution; a failure before the stream is its only part.
  const finished = (state: 'accepted' | 'not-accepted' | 'unknown', terminal: AdapterTerminalOutcomeV4): ProviderAdapterExecutionV1 =>
    task.stream
      ? { kind: 'stream', acceptance: { state }, responseMetadata: {}, parts: onlyTerminal(terminal) }
      : { kind: 'response', acceptance: { state }, responseMetadata: {}, terminal };
  if (task.stream && response.status >= 200 && response.status <= 299) {
    const parts = createAdapterStreamParts({ body: response.body, decodeFrames: (body) => decodeNdjsonValues(body), machine: createLineChatStreamMachine(), signal });
    return { kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: {}, parts };
  }
  try {
    const outcome = await readJsonResponse(response, { nowMs: Date.now() });
    if (!outcome.ok) return finished(outcome.status >= 500 ? 'unknown' : 'not-accepted', { status: 'failed', failure: outcome.failure });
    return finished('accepted', decodeLineChatResponse(outcome.value));
  } catch (error) {
    const terminal = terminalForError(error, { signal });
    if (terminal === undefined) throw error;
    return finished('unknown', terminal);
  }
}

export function createLineChatAdapterFactory(): ProviderAdapterFactory {
  return Object.freeze({ protocolFamily: LINE_CHAT_PROTOCOL_FAMILY, createAdapter: () => Object.freeze({ execute: executeLineChat }) });
}

// --- transport-metadata.ts and suite-entry.ts. ------------------------------------------------------------------
const LINE_CHAT_TRANSPORT_METADATA: ProviderTransportMetadataV1 = { auth: { scheme: 'header', headerName: 'x-line-key' }, fixedHeaders: { 'x-line-version': '1' } };

export function createLineChatSuiteEntry(): ProtocolSuiteEntryV1 {
  return {
    protocolFamily: LINE_CHAT_PROTOCOL_FAMILY,
    execution: 'sync',
    adapterFactory: createLineChatAdapterFactory(),
    directHttp: false, // no ingress or egress codecs: a client cannot speak this dialect to the gateway
    transportMetadata: LINE_CHAT_TRANSPORT_METADATA,
  };
}

/** What the example observed. */
export interface CustomFamilySummary {
  readonly protocolFamilies: readonly string[];
  readonly answer: string;
  readonly streamed: string;
  readonly failureCode: string;
}

export async function main(log: (line: string) => void = console.log): Promise<CustomFamilySummary> {
  // 1. The suite validates every entry before an engine sees it: an entry that claims direct HTTP without codecs is
  //    refused with a stable code, naming the entry.
  try {
    createTokenForgeProtocolSuiteV1({ entries: [{ ...createLineChatSuiteEntry(), directHttp: true }] });
    expectThat(false, 'a direct-HTTP entry without codecs is refused');
  } catch (error) {
    if (!isProtocolSuiteErrorV1(error)) throw error;
    log(`[family] invalid entry refused: ${error.code} (entry ${error.entryIndex})`);
  }

  // 2. The builtin families plus ours. The engine is the same engine: it reads the family list from the registry.
  const suite = createTokenForgeProtocolSuiteV1({ entries: [...createBuiltinTokenForgeProtocolSuiteV1().entries, createLineChatSuiteEntry()] });
  const engine = createProtocolEngineV1({ registry: suite.registry });
  expectThat(engine.protocolFamilies.includes(LINE_CHAT_PROTOCOL_FAMILY), 'the engine dispatches to the new family');
  log(`[family] engine serves ${engine.protocolFamilies.length} families, including ${LINE_CHAT_PROTOCOL_FAMILY}`);

  // 3. The provider: scripted answers (a sync body, an NDJSON stream, an HTTP 503), every request recorded.
  const transport = createFixtureTransportV1({
    responses: [
      { status: 200, body: { type: 'json', value: { text: 'Hello in lines.', stop: 'end', usage: { in: 7, out: 4 } } } },
      {
        status: 200,
        headers: { 'content-type': 'application/x-ndjson' },
        body: { type: 'chunks', framing: 'raw', text: '{"delta":"Hello"}\n{"delta":" in"}\n{"delta":" lines."}\n{"stop":"end","usage":{"in":7,"out":4}}\n' },
      },
      { status: 503, body: { type: 'json', value: { error: 'busy' } } },
    ],
  });
  const binding = createProtocolEngineTargetBindingV1({
    target: {
      provider: 'example-line-provider',
      providerModel: 'line-1',
      connectionRef: 'line-connection',
      capability: { protocolFamily: LINE_CHAT_PROTOCOL_FAMILY, executionMode: 'stream-capable', taskKinds: ['chat'] },
    },
    bindTransport: () => transport,
  });
  const task: ChatTaskV4 = { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream: false };
  const signal = AbortSignal.timeout(10_000);

  // 4. Sync, through every check the engine applies to the builtin families.
  const sync = await engine.execute({ binding, task, signal });
  expectThat(sync.kind === 'response' && sync.terminal.status === 'completed' && sync.terminal.result.kind === 'chat', 'the sync answer completes');
  const answer = sync.terminal.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  log(`[family] sync: "${answer}" finish=${sync.terminal.finishReason?.unified ?? 'none'} (raw ${sync.terminal.finishReason?.raw ?? 'none'})`);
  expectThat(transport.requests[0]?.path === '/v1/line-chat', 'the adapter sent its request');
  log(`[family] request sent: ${transport.requests[0].method} ${transport.requests[0].path} headers=${Object.keys(transport.requests[0].headers).sort().join(',')}`);

  // 5. Stream: the engine checks the block lifecycle and that the terminal equals the deltas.
  const stream = await engine.execute({ binding, task: { ...task, stream: true }, signal });
  expectThat(stream.kind === 'stream', 'the stream task streams');
  let streamed = '';
  try {
    for await (const event of stream.events) if (event.type === 'text-delta') streamed += event.delta;
  } catch (error) {
    stream.abort(error);
    throw error;
  }
  const terminal = await stream.terminal;
  expectThat(terminal.status === 'completed' && streamed === answer, 'the stream adds up to the same answer');
  log(`[family] stream: "${streamed}" usage in=${terminal.usage?.inputTokens ?? 'absent'} out=${terminal.usage?.outputTokens ?? 'absent'}`);

  // 6. A provider failure: the kit's status default (503 is a retryable `overloaded`), acceptance `unknown` (5xx).
  const failed = await engine.execute({ binding, task, signal });
  expectThat(failed.kind === 'response' && failed.terminal.status === 'failed', 'a 503 is a failed terminal');
  log(`[family] 503: acceptance=${failed.acceptance.state} code=${failed.terminal.failure.code} retryable=${failed.terminal.failure.retryable}`);
  return { protocolFamilies: engine.protocolFamilies, answer, streamed, failureCode: failed.terminal.failure.code };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => console.log('[family] example finished'),
    (error: unknown) => {
      console.error(isProtocolEngineErrorV1(error) ? `${error.code} (${error.phase})` : error);
      process.exitCode = 1;
    },
  );
}
