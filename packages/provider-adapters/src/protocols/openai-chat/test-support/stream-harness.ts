import { readFileSync } from 'node:fs';
import type { AdapterStreamPartV1, AdapterTerminalOutcome, NormalizedStreamEventV1 } from '@tokenforge/model-protocol';
import { createAdapterStreamParts } from '../../../codec-kit/index.js';
import { frameRecordedChunksV1 } from '../../../testing/frame-recorded-chunks.js';
import { createOpenAiChatStreamMachine } from '../decode-stream.js';

const encoder = new TextEncoder();

/** Reads a file of this family's `__fixtures__` folder. */
export function readFixture(name: string): string {
  return readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), 'utf8');
}

/** The SSE body of a recorded chunks file, framed as the server sent it (with `[DONE]` unless omitted). */
export function framedFixture(name: string, options?: { omitTerminator?: boolean }): string {
  return frameRecordedChunksV1(readFixture(name), { framing: 'openai-chat', ...(options?.omitTerminator === true ? { omitTerminator: true } : {}) }).join('');
}

/** SSE frames of the given chunk objects, then `[DONE]` unless `done` is false. */
export function sse(chunks: readonly unknown[], done = true): string {
  return chunks.map((chunk) => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}

/** A minimal chunk with one choice delta. */
export function chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra };
}

/** A body that yields the given reads, tracking whether it was released. */
export function bodyOf(reads: readonly (string | Uint8Array)[]): AsyncIterable<Uint8Array> & { released: boolean } {
  const state = { released: false };
  const iterable = {
    get released() {
      return state.released;
    },
    async *[Symbol.asyncIterator]() {
      try {
        for (const read of reads) yield typeof read === 'string' ? encoder.encode(read) : read;
      } finally {
        state.released = true;
      }
    },
  };
  return iterable;
}

/** Splits bytes at the given cut points (sorted, deduplicated, in range). */
export function splitBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < bytes.byteLength))].sort((left, right) => left - right);
  const reads: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    reads.push(bytes.subarray(start, point));
    start = point;
  }
  reads.push(bytes.subarray(start));
  return reads;
}

/** Runs the machine over a body through the kit's SSE decoder and stream driver. */
export async function runStream(
  reads: string | readonly (string | Uint8Array)[],
  signal: AbortSignal = new AbortController().signal,
): Promise<{ events: NormalizedStreamEventV1[]; terminal: AdapterTerminalOutcome; parts: AdapterStreamPartV1[]; released: boolean }> {
  const body = bodyOf(typeof reads === 'string' ? [reads] : reads);
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of createAdapterStreamParts({
    body,
    sse: { bareJson: true },
    machine: createOpenAiChatStreamMachine(),
    signal,
  })) {
    parts.push(part);
  }
  const last = parts.at(-1);
  if (last === undefined || last.type !== 'terminal') throw new Error('the stream ended without a terminal');
  if (parts.filter((part) => part.type === 'terminal').length !== 1) throw new Error('more than one terminal');
  return {
    events: parts.filter((part): part is NormalizedStreamEventV1 => part.type !== 'terminal'),
    terminal: last.outcome,
    parts,
    released: body.released,
  };
}

/** Joins the deltas of each block and returns the per-index text, the way the engine checks a stream. */
export function accumulate(events: readonly NormalizedStreamEventV1[]): Map<number, string> {
  const texts = new Map<number, string[]>();
  for (const event of events) {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta' || event.type === 'tool-call-delta') {
      const list = texts.get(event.index) ?? [];
      list.push(event.delta);
      texts.set(event.index, list);
    }
  }
  return new Map([...texts].map(([index, list]) => [index, list.join('')]));
}
