import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { ProviderTransportRequest } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { decodeNdjsonLines, decodeSseStream } from '../codec-kit/index.js';
import { createFixtureTransportV1, type FixtureResponseBodyV1 } from './fixture-transport.js';
import type { FixtureChunkFramingV1 } from './frame-recorded-chunks.js';

const fixture = (name: string): string => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const recordedLines = (text: string): string[] => text.split('\n').filter((line) => line.length > 0);

const request: ProviderTransportRequest = {
  method: 'POST',
  path: '/stream',
  headers: {},
  body: { type: 'none' },
  signal: new AbortController().signal,
};

async function replayed(body: FixtureResponseBodyV1, readSize: number) {
  const transport = createFixtureTransportV1({ responses: [{ body, readSize }] });
  return (await transport.send(request)).body;
}

async function sseItems(body: FixtureResponseBodyV1, readSize: number): Promise<{ event: string | undefined; data: string }[]> {
  const items: { event: string | undefined; data: string }[] = [];
  for await (const item of decodeSseStream(await replayed(body, readSize))) {
    if (item.kind === 'event') items.push({ event: item.event, data: item.data });
  }
  return items;
}

// The framing is only right if the codec kit's decoders read back exactly the recorded payloads, at any read size.
describe('frameRecordedChunksV1 read back by the codec kit decoders', () => {
  const openAi = fixture('vercel-ai__openai-text.chunks.txt');
  const anthropic = fixture('vercel-ai__anthropic-text.chunks.txt');

  it('openai-chat: the data payloads, then [DONE], for any read size', async () => {
    const expected = [...recordedLines(openAi).map((data) => ({ event: undefined, data })), { event: undefined, data: '[DONE]' }];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4096 }), async (readSize) => {
        expect(await sseItems({ type: 'chunks', text: openAi, framing: 'openai-chat' }, readSize)).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('typed-sse: each payload under an event named after its type, for any read size', async () => {
    const expected = recordedLines(anthropic).map((data) => ({ event: (JSON.parse(data) as { type: string }).type, data }));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 512 }), async (readSize) => {
        expect(await sseItems({ type: 'chunks', text: anthropic, framing: 'typed-sse' }, readSize)).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it.each<[FixtureChunkFramingV1, 'lf' | 'crlf']>([
    ['gemini-sse', 'lf'],
    ['gemini-sse', 'crlf'],
  ])('%s (%s): the data payloads without terminator, for any read size', async (framing, lineEnding) => {
    const expected = recordedLines(anthropic).map((data) => ({ event: undefined, data }));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 512 }), async (readSize) => {
        expect(await sseItems({ type: 'chunks', text: anthropic, framing, lineEnding }, readSize)).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('raw: the lines as NDJSON, for any read size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 512 }), async (readSize) => {
        const lines: string[] = [];
        for await (const line of decodeNdjsonLines(await replayed({ type: 'chunks', text: anthropic, framing: 'raw' }, readSize))) lines.push(line);
        expect(lines).toEqual(recordedLines(anthropic));
      }),
      { numRuns: 25 },
    );
  });
});
