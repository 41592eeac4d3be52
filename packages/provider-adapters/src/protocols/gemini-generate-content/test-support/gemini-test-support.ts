import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  AdapterStreamPartV1,
  AdapterTerminalOutcomeV4,
  ChatTaskV2,
  NormalizedStreamEventV4,
  ProviderAdapterTargetV1,
  ProviderTransport,
} from '@tokenforge/model-protocol';
import type { SseItem } from '../../../codec-kit/index.js';
import { createGeminiGenerateContentAdapterFactory } from '../adapter.js';
import { createGeminiStreamMachine } from '../decode-stream.js';

/** Reads a file of this family's `__fixtures__` folder. */
export function readFixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url)), 'utf8');
}

/** The payload lines of a `*.chunks.txt` fixture. */
export function fixtureChunkLines(name: string): string[] {
  return readFixture(name)
    .split(/\r?\n/)
    .filter((line) => line.trim().length > 0);
}

/** SSE `data:` items for JSON payloads (what the kit's SSE parser would yield). */
export function dataItems(payloads: readonly (string | object)[]): SseItem[] {
  return payloads.map((payload) => ({
    kind: 'event',
    event: undefined,
    id: undefined,
    data: typeof payload === 'string' ? payload : JSON.stringify(payload),
  }));
}

/** What the stream machine makes of some items, including the end of the body. */
export interface MachineRun {
  readonly events: NormalizedStreamEventV4[];
  /** The terminal, or `undefined` when the machine left it to the kit (truncated). */
  readonly terminal: AdapterTerminalOutcomeV4 | undefined;
}

/** Runs the stream machine over items the way the kit's driver does (stops at a terminal). */
export function runMachine(items: readonly SseItem[]): MachineRun {
  const machine = createGeminiStreamMachine();
  const events: NormalizedStreamEventV4[] = [];
  for (const item of items) {
    const step = machine.onFrame(item);
    events.push(...(step?.events ?? []));
    if (step?.terminal !== undefined) return { events, terminal: step.terminal };
  }
  const end = machine.onEnd?.();
  events.push(...(end?.events ?? []));
  return { events, terminal: end?.terminal };
}

/** A candidate chunk with the given parts. */
export function chunk(parts: readonly object[], extra: Record<string, unknown> = {}, candidate: Record<string, unknown> = {}): object {
  return { candidates: [{ content: { role: 'model', parts }, index: 0, ...candidate }], responseId: 'resp-1', ...extra };
}

/** A stream task for adapter tests. */
export const streamTask: ChatTaskV2 = { kind: 'chat', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };

/** Adapter dispatch facts for tests. */
export const adapterTarget: ProviderAdapterTargetV1 = {
  providerModel: 'gemini-test',
  capability: { protocolFamily: 'gemini-generate-content/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, reasoning: true },
};

/** The parts of an adapter stream over the given body reads (a 200 response), drained. */
export async function runStream(reads: readonly Uint8Array[], signal = new AbortController().signal): Promise<{ parts: AdapterStreamPartV1[]; terminal: AdapterTerminalOutcomeV4 }> {
  const transport: ProviderTransport = {
    send: async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: (async function* body() {
        for (const read of reads) yield read;
      })(),
    }),
  };
  const execution = await createGeminiGenerateContentAdapterFactory().createAdapter().execute({ task: streamTask, target: adapterTarget, transport, signal });
  if (execution.kind !== 'stream') throw new Error('expected a stream');
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of execution.parts) parts.push(part);
  const last = parts.at(-1);
  if (last?.type !== 'terminal') throw new Error('the stream did not end with a terminal');
  if (parts.filter((part) => part.type === 'terminal').length !== 1) throw new Error('more than one terminal');
  return { parts, terminal: last.outcome };
}

/** Splits bytes at the given cut positions. */
export function splitBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < bytes.byteLength))].sort((left, right) => left - right);
  const reads: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    reads.push(bytes.slice(start, point));
    start = point;
  }
  reads.push(bytes.slice(start));
  return reads;
}

/** SSE framing of JSON payloads (`\r\n` line endings by default, as Google sends). */
export function sseBody(payloads: readonly (string | object)[], newline = '\r\n'): string {
  return payloads.map((payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}${newline}${newline}`).join('');
}
