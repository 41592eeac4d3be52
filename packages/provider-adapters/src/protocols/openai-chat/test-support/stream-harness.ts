import { readFileSync } from 'node:fs';
import type { NormalizedStreamEventV4 } from '@tokenforge/model-protocol';
import { splitAt } from '../../../codec-kit/test-support/byte-streams.js';
import { runSseStream, type SseStreamRun } from '../../../codec-kit/test-support/run-sse-stream.js';
import { frameRecordedChunksV1 } from '../../../testing/frame-recorded-chunks.js';
import { createOpenAiChatStreamMachine } from '../decode-stream.js';

export { bodyOf } from '../../../codec-kit/test-support/run-sse-stream.js';

/** Splits bytes at the given cut points (sorted, deduplicated, in range). */
export const splitBytes = splitAt;

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

/** Runs the machine over a body through the kit's SSE decoder and stream driver. */
export function runStream(reads: string | readonly (string | Uint8Array)[], signal: AbortSignal = new AbortController().signal): Promise<SseStreamRun> {
  return runSseStream(reads, createOpenAiChatStreamMachine(), { bareJson: true }, signal);
}

/** Joins the deltas of each block and returns the per-index text, the way the engine checks a stream. */
export function accumulate(events: readonly NormalizedStreamEventV4[]): Map<number, string> {
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
