import type { AdapterStreamPartV1, AdapterTerminalOutcomeV4, NormalizedStreamEventV4 } from '@tokenforge/model-protocol';
import { createAdapterStreamParts, type AdapterStreamMachine } from '../adapter-stream.js';
import type { SseDecoderOptions, SseItem } from '../sse-decoder.js';

const encoder = new TextEncoder();

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

/** What {@link runSseStream} saw: the events, the one terminal, every part, and whether the body was released. */
export interface SseStreamRun {
  readonly events: NormalizedStreamEventV4[];
  readonly terminal: AdapterTerminalOutcomeV4;
  readonly parts: AdapterStreamPartV1[];
  readonly released: boolean;
}

/** Runs a family's machine over a body through the kit's SSE decoder and stream driver; exactly one terminal, last. */
export async function runSseStream(
  reads: string | readonly (string | Uint8Array)[],
  machine: AdapterStreamMachine<SseItem>,
  sse: SseDecoderOptions,
  signal: AbortSignal = new AbortController().signal,
): Promise<SseStreamRun> {
  const body = bodyOf(typeof reads === 'string' ? [reads] : reads);
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of createAdapterStreamParts({ body, sse, machine, signal })) parts.push(part);
  const last = parts.at(-1);
  if (last === undefined || last.type !== 'terminal') throw new Error('the stream ended without a terminal');
  if (parts.filter((part) => part.type === 'terminal').length !== 1) throw new Error('more than one terminal');
  return {
    events: parts.filter((part): part is NormalizedStreamEventV4 => part.type !== 'terminal'),
    terminal: last.outcome,
    parts,
    released: body.released,
  };
}
