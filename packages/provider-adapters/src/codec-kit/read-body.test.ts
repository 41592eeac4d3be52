import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { readBodyBytes, readJsonBody, releaseBody } from './read-body.js';
import { bytesOf, trackedBody } from './test-support/byte-streams.js';

describe('readBodyBytes', () => {
  it('joins every chunk in order and marks the body released by reading it to the end', async () => {
    const body = trackedBody([bytesOf('ab'), new Uint8Array(0), bytesOf('cd'), bytesOf('e')]);
    expect(new TextDecoder().decode(await readBodyBytes(body))).toBe('abcde');
    expect(body.released).toBe(true);
    expect(body.returnCalls).toBe(0);
  });

  it('reads an empty body as zero bytes', async () => {
    expect((await readBodyBytes(trackedBody([]))).byteLength).toBe(0);
  });

  it('accepts a body of exactly the cap', async () => {
    expect((await readBodyBytes(trackedBody([new Uint8Array(6), new Uint8Array(4)]), { maxBytes: 10 })).byteLength).toBe(10);
  });

  it('fails with body-too-large on the chunk that passes the cap, stops reading and releases the body', async () => {
    const body = trackedBody([new Uint8Array(8)], { repeatForever: new Uint8Array(1024) });
    await expect(readBodyBytes(body, { maxBytes: 4096 })).rejects.toMatchObject({ code: 'body-too-large' });
    expect(body.pulls).toBe(5);
    expect(body.returnCalls).toBe(1);
  });

  it('passes a failing read through and still asks the body to close', async () => {
    const failure = new Error('connection reset');
    const body = trackedBody([bytesOf('ab')], { failWith: failure });
    await expect(readBodyBytes(body)).rejects.toBe(failure);
    expect(body.returnCalls).toBe(1);
  });
});

describe('readJsonBody', () => {
  it('parses the body with the safe parser', async () => {
    expect(await readJsonBody(trackedBody([bytesOf('\ufeff{"a":'), bytesOf('[1,2]}')]))).toEqual({ a: [1, 2] });
  });

  it.each([
    ['body-too-large', [bytesOf('{"a":"0123456789"}')], { maxBytes: 10 }],
    ['malformed-json', [bytesOf('{"a":')], {}],
    ['forbidden-key', [bytesOf('{"__proto__":{}}')], {}],
    ['nesting-too-deep', [bytesOf('[[[1]]]')], { maxDepth: 2 }],
    ['invalid-encoding', [new Uint8Array([0x22, 0xff, 0x22])], {}],
  ] as const)('fails with %s', async (code, chunks, options) => {
    const error: unknown = await readJsonBody(trackedBody(chunks), options).catch((caught: unknown) => caught);
    expect(isCodecErrorV1(error) && error.code).toBe(code);
  });
});

describe('releaseBody', () => {
  it('calls return() on the body iterator', async () => {
    const body = trackedBody([bytesOf('a')]);
    await releaseBody(body);
    expect(body.returnCalls).toBe(1);
  });

  it('accepts an iterator already taken from the body', async () => {
    const body = trackedBody([bytesOf('a')]);
    const iterator = body[Symbol.asyncIterator]();
    await releaseBody(iterator);
    expect(body.returnCalls).toBe(1);
  });

  it('never throws: not for a failing return(), a missing return(), or a throwing iterator getter', async () => {
    const failingReturn: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.resolve({ done: true, value: undefined }),
        return: () => Promise.reject(new Error('close failed')),
      }),
    };
    const syncThrowingReturn: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.resolve({ done: true, value: undefined }),
        return: () => {
          throw new Error('close failed');
        },
      }),
    };
    const noReturn: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }),
    };
    const throwingGetter: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => {
        throw new Error('no iterator');
      },
    };
    for (const body of [failingReturn, syncThrowingReturn, noReturn, throwingGetter]) {
      await expect(releaseBody(body)).resolves.toBeUndefined();
    }
  });

  it('closes an async generator body, running its cleanup', async () => {
    let cleaned = false;
    async function* generator(): AsyncGenerator<Uint8Array> {
      try {
        yield bytesOf('a');
        yield bytesOf('b');
      } finally {
        cleaned = true;
      }
    }
    const body = generator();
    await body.next();
    await releaseBody(body);
    expect(cleaned).toBe(true);
  });
});
