import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AdapterTerminalOutcome, NormalizedStreamEventV1 } from '@tokenforge/model-protocol';
import type { SseItem } from '../../../codec-kit/index.js';
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
  readonly events: NormalizedStreamEventV1[];
  /** The terminal, or `undefined` when the machine left it to the kit (truncated). */
  readonly terminal: AdapterTerminalOutcome | undefined;
}

/** Runs the stream machine over items the way the kit's driver does (stops at a terminal). */
export function runMachine(items: readonly SseItem[]): MachineRun {
  const machine = createGeminiStreamMachine();
  const events: NormalizedStreamEventV1[] = [];
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
