import { readFileSync } from 'node:fs';
import type { AdapterStreamPartV1, AdapterTerminalOutcome, NormalizedStreamEventV1 } from '@tokenforge/model-protocol';
import { createAdapterStreamParts } from '../../../codec-kit/index.js';
import { frameRecordedChunksV1 } from '../../../testing/frame-recorded-chunks.js';
import { createOpenAiResponsesStreamMachine } from '../decode-stream.js';

const encoder = new TextEncoder();

/** Reads a file of this family's `__fixtures__` folder. */
export function readFixture(name: string): string {
  return readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), 'utf8');
}

/**
 * The recorded multi-step file holds four responses one after another (a multi-step test in its origin); each starts
 * with `response.created`. Returns the payload lines of each response as its own chunks text.
 */
export function splitRecordedResponses(text: string): string[] {
  const responses: string[][] = [];
  for (const line of text.split('\n')) {
    if (line.trim().length === 0) continue;
    if (line.startsWith('{"type":"response.created"')) responses.push([]);
    const current = responses.at(-1);
    if (current === undefined) throw new Error('the chunks file does not start with response.created');
    current.push(line);
  }
  return responses.map((lines) => `${lines.join('\n')}\n`);
}

/** The typed SSE body (`event:` + `data:`) of chunk lines, as the server sent it. */
export function typedSse(chunksText: string): string {
  return frameRecordedChunksV1(chunksText, { framing: 'typed-sse' }).join('');
}

/** Typed SSE frames of the given event objects; each object's `type` becomes its `event:` name. */
export function sse(events: readonly unknown[]): string {
  return events
    .map((event) => {
      if (typeof event === 'string') return `data: ${event}\n\n`;
      const type = (event as { type?: unknown }).type;
      return `${typeof type === 'string' ? `event: ${type}\n` : ''}data: ${JSON.stringify(event)}\n\n`;
    })
    .join('');
}

/** A body that yields the given reads, tracking whether it was released. */
export function bodyOf(reads: readonly (string | Uint8Array)[]): AsyncIterable<Uint8Array> & { released: boolean } {
  const state = { released: false };
  return {
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
    machine: createOpenAiResponsesStreamMachine(),
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
