import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOpenAiImagesIngressCodec } from './ingress.js';

const ingress = createOpenAiImagesIngressCodec();
const encoder = new TextEncoder();

/** Decodes, or returns the thrown error: anything but a CodecErrorV1 is a defect. */
function attempt(body: Uint8Array): unknown {
  try {
    return ingress.decodeRequest({ path: '/v1/images/generations', body });
  } catch (error) {
    return error;
  }
}

describe('openai-images ingress on hostile input (property)', () => {
  it('random bytes decode or fail with a typed codec error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        const outcome = attempt(bytes);
        if (outcome instanceof Error) expect(isCodecErrorV1(outcome)).toBe(true);
      }),
    );
  });

  it('random JSON values, also under the fields it reads, decode or fail with a typed codec error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (value, field) => {
        for (const body of [value, { model: 'm', prompt: field }, { model: field, query: 'q', prompt: 'p', input: 'i', documents: ['d'] }]) {
          const outcome = attempt(encoder.encode(JSON.stringify(body)));
          if (outcome instanceof Error) expect(isCodecErrorV1(outcome)).toBe(true);
        }
      }),
    );
  });
});
