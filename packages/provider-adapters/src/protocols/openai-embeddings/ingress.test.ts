import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createOpenAiEmbeddingsIngressCodec } from './ingress.js';

const ingress = createOpenAiEmbeddingsIngressCodec();
const encoder = new TextEncoder();

function decode(body: unknown) {
  return ingress.decodeRequest({ path: '/v1/embeddings', body: encoder.encode(typeof body === 'string' ? body : JSON.stringify(body)) });
}

function failure(body: unknown): string | undefined {
  try {
    decode(body);
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code} ${error.path ?? ''}`.trim() : 'other';
  }
  return undefined;
}

describe('openai-embeddings ingress', () => {
  it('decodes one string, an array, dimensions and the encoding format', () => {
    expect(decode({ model: 'm', input: 'hello' })).toEqual({ task: { kind: 'embedding', inputs: ['hello'] }, modelLabel: 'm', clientEncodingFormat: 'float' });
    expect(decode({ model: 'm', input: ['a', 'b'], dimensions: 256, encoding_format: 'base64', user: 'u-1', extra: true })).toEqual({
      task: { kind: 'embedding', inputs: ['a', 'b'], dimensions: 256 },
      modelLabel: 'm',
      clientEncodingFormat: 'base64',
    });
    expect(decode({ model: 'm', input: ['a'], encoding_format: null, dimensions: null }).task).toEqual({ kind: 'embedding', inputs: ['a'] });
  });

  it.each([
    ['no model', { input: 'a' }, 'invalid-request model'],
    ['an empty model', { model: '', input: 'a' }, 'invalid-request model'],
    ['no input', { model: 'm' }, 'invalid-request input'],
    ['an empty array', { model: 'm', input: [] }, 'invalid-request input'],
    ['an empty string', { model: 'm', input: '' }, 'invalid-request input.0'],
    ['an empty string in the array', { model: 'm', input: ['a', ''] }, 'invalid-request input.1'],
    ['too many inputs', { model: 'm', input: Array.from({ length: 2049 }, () => 'a') }, 'invalid-request input'],
    ['an object input', { model: 'm', input: [{ text: 'a' }] }, 'invalid-request input.0'],
    ['a number input', { model: 'm', input: 7 }, 'invalid-request input'],
    ['a token array', { model: 'm', input: [1, 2, 3] }, 'unsupported-feature input'],
    ['token arrays', { model: 'm', input: [[1, 2], [3]] }, 'unsupported-feature input'],
    ['an unknown encoding', { model: 'm', input: 'a', encoding_format: 'int8' }, 'invalid-request encoding_format'],
    ['fractional dimensions', { model: 'm', input: 'a', dimensions: 1.5 }, 'invalid-request dimensions'],
    ['zero dimensions', { model: 'm', input: 'a', dimensions: 0 }, 'invalid-request dimensions'],
    ['string dimensions', { model: 'm', input: 'a', dimensions: '256' }, 'invalid-request dimensions'],
    ['an array body', [], 'invalid-request body'],
  ])('refuses %s', (_label, body, expected) => {
    expect(failure(body)).toBe(expected);
  });

  it('refuses hostile bytes with the parser codes', () => {
    expect(failure('{"model": "m", "input": ')).toBe('malformed-json');
    expect(failure('{"__proto__": {"x": 1}, "model": "m", "input": "a"}')).toBe('forbidden-key');
    expect(failure(`${'['.repeat(200)}${']'.repeat(200)}`)).toBe('nesting-too-deep');
    const tiny = createOpenAiEmbeddingsIngressCodec({ limits: { maxBytes: 8 } });
    expect(() => tiny.decodeRequest({ path: '/embeddings', body: encoder.encode('{"model":"m","input":"a"}') })).toThrow(
      expect.objectContaining({ code: 'body-too-large' }),
    );
  });

  it('never quotes the input in an error message', () => {
    try {
      decode({ model: 'm', input: ['secret', 12] });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('secret');
    }
  });
});
