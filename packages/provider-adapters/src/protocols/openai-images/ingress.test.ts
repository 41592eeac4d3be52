import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createOpenAiImagesIngressCodec } from './ingress.js';

const ingress = createOpenAiImagesIngressCodec();
const encoder = new TextEncoder();

function decode(body: unknown, path = '/v1/images/generations') {
  return ingress.decodeRequest({ path, body: encoder.encode(typeof body === 'string' ? body : JSON.stringify(body)) });
}

function failure(body: unknown, path?: string): string | undefined {
  try {
    decode(body, path);
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code} ${error.path ?? ''}`.trim() : 'other';
  }
  return undefined;
}

describe('openai-images ingress', () => {
  it('decodes a full generation request and ignores host concerns', () => {
    expect(
      decode({
        model: 'm',
        prompt: 'p',
        n: 2,
        size: '1536x1024',
        quality: 'high',
        background: 'transparent',
        output_format: 'webp',
        response_format: 'url',
        style: 'vivid',
        user: 'u',
        moderation: 'low',
        output_compression: 80,
        stream: false,
        partial_images: 0,
      }),
    ).toEqual({
      task: { kind: 'image-generation', prompt: 'p', count: 2, size: '1536x1024', quality: 'high', background: 'transparent', outputFormat: 'webp', delivery: 'url', style: 'vivid' },
      modelLabel: 'm',
    });
    expect(decode({ model: 'm', prompt: 'p', response_format: 'b64_json' }, '/images/generations').task).toEqual({ kind: 'image-generation', prompt: 'p', delivery: 'base64' });
  });

  it.each([
    ['no model', { prompt: 'p' }, 'invalid-request model'],
    ['no prompt', { model: 'm' }, 'invalid-request prompt'],
    ['an empty prompt', { model: 'm', prompt: '' }, 'invalid-request prompt'],
    ['n of 11', { model: 'm', prompt: 'p', n: 11 }, 'invalid-request n'],
    ['a bad size', { model: 'm', prompt: 'p', size: 'big' }, 'invalid-request size'],
    ['a bad quality', { model: 'm', prompt: 'p', quality: 'ultra' }, 'invalid-request quality'],
    ['a bad output format', { model: 'm', prompt: 'p', output_format: 'gif' }, 'invalid-request output_format'],
    ['a bad response format', { model: 'm', prompt: 'p', response_format: 'file' }, 'invalid-request response_format'],
    ['streaming', { model: 'm', prompt: 'p', stream: true }, 'unsupported-feature stream'],
    ['partial images', { model: 'm', prompt: 'p', partial_images: 2 }, 'unsupported-feature partial_images'],
    ['an array body', [], 'invalid-request body'],
  ])('refuses %s', (_label, body, expected) => {
    expect(failure(body)).toBe(expected);
  });

  it('refuses other paths and hostile bytes', () => {
    expect(failure({ model: 'm', prompt: 'p' }, '/v1/images/variations')).toBe('unsupported-feature path');
    expect(failure({ model: 'm', prompt: 'p' }, '/v1/chat/completions')).toBe('invalid-request path');
    expect(failure('{"model":"m","prompt":')).toBe('malformed-json');
    expect(failure('{"a":{"__proto__":{}},"model":"m","prompt":"p"}')).toBe('forbidden-key');
  });
});
