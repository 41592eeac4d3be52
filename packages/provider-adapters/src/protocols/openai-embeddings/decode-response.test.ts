import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import { OPENAI_EMBEDDING_JSON } from './__fixtures__/recorded-fixtures.js';
import { decodeOpenAiEmbeddingsResponse } from './decode-response.js';
import { encodeFloat32Base64 } from './encode-base64-float32.js';

const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } };

function vectorsOf(result: ReturnType<typeof decodeOpenAiEmbeddingsResponse>): Float32Array[] {
  const terminal = result.terminal;
  if (terminal.status !== 'completed' || terminal.result.kind !== 'embedding') throw new Error(`not completed: ${JSON.stringify(terminal)}`);
  return terminal.result.vectors;
}

function body(data: unknown[], extra: Record<string, unknown> = {}): unknown {
  return { object: 'list', data, model: 'm', ...extra };
}

describe('decodeOpenAiEmbeddingsResponse', () => {
  it('decodes the recorded float body (recorded: vercel-ai__openai-embedding.json)', () => {
    const decoded = decodeOpenAiEmbeddingsResponse(parseSafeJson(OPENAI_EMBEDDING_JSON), { inputCount: 2, dimensions: 5, spaceId: 'space' });
    expect(decoded).toEqual({
      terminal: {
        status: 'completed',
        result: {
          kind: 'embedding',
          vectors: [
            new Float32Array([0.0057293195, -0.012727811, 0.020042092, -0.013437585, 0.022833068]),
            new Float32Array([-0.037104916, -0.05178114, -0.008340587, 0.001164541, -0.0035253682]),
          ],
          dimensions: 5,
          spaceId: 'space',
        },
        usage: { inputTokens: 12, totalTokens: 12 },
      },
      providerModel: 'text-embedding-3-small',
    });
  });

  it('decodes the fact sheet base64 test vectors (constructed)', () => {
    const decoded = decodeOpenAiEmbeddingsResponse(body([{ index: 0, embedding: 'AAAAPwAAgD4AAAC+' }]), { inputCount: 1, dimensions: 3 });
    expect(vectorsOf(decoded)).toEqual([new Float32Array([0.5, 0.25, -0.125])]);
  });

  it('places vectors by index, not by position (constructed)', () => {
    const decoded = decodeOpenAiEmbeddingsResponse(
      body([
        { index: 2, embedding: [3, 3] },
        { index: 0, embedding: 'AACAPwAAAMA=' },
        { index: 1, embedding: [2, 2] },
      ]),
      { inputCount: 3, dimensions: 2 },
    );
    expect(vectorsOf(decoded)).toEqual([new Float32Array([1, -2]), new Float32Array([2, 2]), new Float32Array([3, 3])]);
  });

  it('infers the dimension from the first vector when the target declares none, and holds every vector to it', () => {
    expect(vectorsOf(decodeOpenAiEmbeddingsResponse(body([{ index: 0, embedding: 'AACAPwAAAMA=' }, { index: 1, embedding: [1, 2] }]), { inputCount: 2 }))).toHaveLength(2);
    expect(decodeOpenAiEmbeddingsResponse(body([{ index: 0, embedding: [1, 2] }, { index: 1, embedding: [1, 2, 3] }]), { inputCount: 2 }).terminal).toEqual(violation);
  });

  it('tolerates a missing usage and reports none (compatible servers)', () => {
    const decoded = decodeOpenAiEmbeddingsResponse({ data: [{ index: 0, embedding: [1] }] }, { inputCount: 1, dimensions: 1 });
    expect(decoded.terminal).toEqual({ status: 'completed', result: { kind: 'embedding', vectors: [new Float32Array([1])], dimensions: 1 } });
    expect(decoded.providerModel).toBeUndefined();
  });

  it.each([
    ['not an object', [1, 2]],
    ['data missing', { model: 'm' }],
    ['data not an array', { data: {} }],
    ['item not an object', body(['x'])],
    ['index missing', body([{ embedding: [1, 2] }])],
    ['index negative', body([{ index: -1, embedding: [1, 2] }])],
    ['index fractional', body([{ index: 0.5, embedding: [1, 2] }])],
    ['index out of range', body([{ index: 1, embedding: [1, 2] }])],
    ['index repeated', body([{ index: 0, embedding: [1, 2] }, { index: 0, embedding: [1, 2] }], {})],
    ['fewer vectors than inputs', body([])],
    ['embedding missing', body([{ index: 0 }])],
    ['embedding an object', body([{ index: 0, embedding: { a: 1 } }])],
    ['float vector too short', body([{ index: 0, embedding: [1] }])],
    ['float vector too long', body([{ index: 0, embedding: [1, 2, 3] }])],
    ['float element a string', body([{ index: 0, embedding: [1, '2'] }])],
    ['float element null', body([{ index: 0, embedding: [1, null] }])],
    ['float element past float32 range', body([{ index: 0, embedding: [1, 1e39] }])],
    ['base64 of the wrong length', body([{ index: 0, embedding: 'AAAAPwAAgD4AAAC+' }])],
    ['base64 with bad characters', body([{ index: 0, embedding: 'AACAP!AAAMA=' }])],
    ['base64 not whole floats', body([{ index: 0, embedding: 'AACAPwAAAA==' }])],
    ['base64 with whitespace', body([{ index: 0, embedding: 'AACAPwAA AMA=' }])],
    ['base64 empty', body([{ index: 0, embedding: '' }])],
    ['base64 NaN', body([{ index: 0, embedding: encodeFloat32Base64(new Float32Array([1, Number.NaN])) }])],
    ['base64 infinity', body([{ index: 0, embedding: encodeFloat32Base64(new Float32Array([Number.POSITIVE_INFINITY, 1])) }])],
    ['model not a string', body([{ index: 0, embedding: [1, 2] }], { model: 7 })],
    ['usage not an object', body([{ index: 0, embedding: [1, 2] }], { usage: 'x' })],
    ['usage negative', body([{ index: 0, embedding: [1, 2] }], { usage: { prompt_tokens: -1 } })],
    ['usage fractional', body([{ index: 0, embedding: [1, 2] }], { usage: { prompt_tokens: 1.5 } })],
    ['usage total below prompt', body([{ index: 0, embedding: [1, 2] }], { usage: { prompt_tokens: 5, total_tokens: 4 } })],
  ])('a body with %s is a protocol violation (constructed)', (_label, value) => {
    const inputCount = _label === 'index repeated' ? 2 : 1;
    expect(decodeOpenAiEmbeddingsResponse(value, { inputCount, dimensions: 2 }).terminal).toEqual(violation);
  });

  it('base64 round trip: any finite float32 vector decodes to itself (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 300 }), (values) => {
        const vector = new Float32Array(values);
        const decoded = decodeOpenAiEmbeddingsResponse(body([{ index: 0, embedding: encodeFloat32Base64(vector) }]), { inputCount: 1, dimensions: vector.length });
        const [only] = vectorsOf(decoded);
        expect(only).toEqual(vector);
        expect(only?.buffer).not.toBe(vector.buffer);
      }),
    );
  });

  it('base64 and float forms of the same vectors decode alike, in any data order (property)', () => {
    const vectorsArbitrary = fc
      .integer({ min: 1, max: 8 })
      .chain((dimensions) =>
        fc.array(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 6 }),
      )
      .chain((vectors) => {
        const indexes = [...vectors.keys()];
        return fc.tuple(fc.constant(vectors), fc.shuffledSubarray(indexes, { minLength: indexes.length, maxLength: indexes.length }));
      });
    fc.assert(
      fc.property(vectorsArbitrary, ([vectors, order]) => {
        const expected = vectors.map((values) => new Float32Array(values));
        const dimensions = expected[0]?.length ?? 1;
        const asBase64 = order.map((index) => ({ index, embedding: encodeFloat32Base64(expected[index] as Float32Array) }));
        const asFloat = order.map((index) => ({ index, embedding: Array.from(expected[index] as Float32Array) }));
        const expectation = { inputCount: expected.length, dimensions };
        expect(vectorsOf(decodeOpenAiEmbeddingsResponse(body(asBase64), expectation))).toEqual(expected);
        expect(vectorsOf(decodeOpenAiEmbeddingsResponse(body(asFloat), expectation))).toEqual(expected);
      }),
    );
  });

  it('any random body ends in a terminal, never a throw (property)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.integer({ min: 1, max: 4 }), (value, inputCount) => {
        const decoded = decodeOpenAiEmbeddingsResponse(value, { inputCount, dimensions: 2 });
        expect(['completed', 'failed']).toContain(decoded.terminal.status);
      }),
    );
  });
});
