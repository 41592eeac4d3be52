import { readFileSync } from 'node:fs';
import { splitAt } from '../../../codec-kit/test-support/byte-streams.js';
import { runSseStream, type SseStreamRun } from '../../../codec-kit/test-support/run-sse-stream.js';
import { frameRecordedChunksV1 } from '../../../testing/frame-recorded-chunks.js';
import { createOpenAiResponsesStreamMachine } from '../decode-stream.js';

export { bodyOf } from '../../../codec-kit/test-support/run-sse-stream.js';

/** Splits bytes at the given cut points (sorted, deduplicated, in range). */
export const splitBytes = splitAt;

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

/** Runs the machine over a body through the kit's SSE decoder and stream driver. */
export function runStream(reads: string | readonly (string | Uint8Array)[], signal: AbortSignal = new AbortController().signal): Promise<SseStreamRun> {
  return runSseStream(reads, createOpenAiResponsesStreamMachine(), { bareJson: true }, signal);
}
