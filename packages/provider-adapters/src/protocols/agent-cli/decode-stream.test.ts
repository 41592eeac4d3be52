import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { readCliDocuments, type CliDocument } from './decode-stream.js';

async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.slice(offset, offset + size);
}

async function read(text: string, size: number, isKnownNoise?: (line: string) => boolean): Promise<CliDocument[]> {
  const items: CliDocument[] = [];
  const exit = Promise.resolve({ reason: 'exited', exitCode: 0 } as const);
  for await (const item of readCliDocuments(chunks(text, size), exit, { maxLineBytes: 1024, ...(isKnownNoise === undefined ? {} : { isKnownNoise }) })) items.push(item);
  return items;
}

const TEXT = '{"a":"é😀"}\r\n\n  \n{"b":2}\nnoise: ok\n{"c":3}';

describe('the family NDJSON reader', () => {
  it('yields the same documents for every read size, the trailing partial line included, blank lines skipped, the exit last', async () => {
    const noise = (line: string) => line.startsWith('noise:');
    const expected = [{ kind: 'document', value: { a: 'é😀' } }, { kind: 'document', value: { b: 2 } }, { kind: 'document', value: { c: 3 } }, { kind: 'exit', exit: { reason: 'exited', exitCode: 0 } }];
    for (const size of [1, 2, 3, 5, 8, 64]) expect(await read(TEXT, size, noise)).toEqual(expected);
  });

  it('fails on a non-JSON line the mapping does not list as noise', async () => {
    const error = await read(TEXT, 7).catch((caught: unknown) => caught);
    expect(isProtocolViolationError(error)).toBe(true);
  });
});
