import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import { OPENAI_IMAGE_EDIT_JSON, OPENAI_IMAGE_JSON } from './__fixtures__/recorded-fixtures.js';
import { decodeOpenAiImagesResponse } from './decode-response.js';

const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } };
const generation = { kind: 'image-generation', count: 1 } as const;

describe('decodeOpenAiImagesResponse', () => {
  it('decodes the recorded generation (recorded: vercel-ai__openai-image.json)', () => {
    const body = parseSafeJson(OPENAI_IMAGE_JSON) as { data: { b64_json: string; revised_prompt?: string }[] };
    expect(decodeOpenAiImagesResponse(body, { kind: 'image-generation', count: 2 })).toEqual({
      status: 'completed',
      result: {
        kind: 'image-generation',
        images: [
          { base64: body.data[0]?.b64_json, revisedPrompt: body.data[0]?.revised_prompt },
          { base64: body.data[1]?.b64_json },
        ],
      },
      usage: { images: 2 },
    });
  });

  it('decodes the recorded GPT image edit with its echoed output format (recorded: vercel-ai__openai-image-edit.json)', () => {
    const body = parseSafeJson(OPENAI_IMAGE_EDIT_JSON) as { data: { b64_json: string }[] };
    expect(decodeOpenAiImagesResponse(body, { kind: 'image-edit', count: 1, outputFormat: 'webp' })).toEqual({
      status: 'completed',
      result: { kind: 'image-edit', images: [{ base64: body.data[0]?.b64_json, mediaType: 'image/png' }] },
      usage: { images: 1 },
    });
  });

  it('maps GPT image usage and falls back to the task format for the media type (constructed)', () => {
    const body = {
      created: 1,
      data: [{ b64_json: 'AAAA' }],
      usage: { input_tokens: 50, output_tokens: 4160, total_tokens: 4210, input_tokens_details: { text_tokens: 10, image_tokens: 40 }, output_tokens_details: { image_tokens: 4160 } },
    };
    expect(decodeOpenAiImagesResponse(body, { ...generation, outputFormat: 'jpeg' })).toEqual({
      status: 'completed',
      result: { kind: 'image-generation', images: [{ base64: 'AAAA', mediaType: 'image/jpeg' }] },
      usage: { inputTokens: 50, outputTokens: 4160, totalTokens: 4210, images: 1 },
    });
    expect(decodeOpenAiImagesResponse({ data: [{ b64_json: 'AAAA' }], output_format: 'avif' }, generation)).toEqual({
      status: 'completed',
      result: { kind: 'image-generation', images: [{ base64: 'AAAA' }] },
      usage: { images: 1 },
    });
  });

  it('keeps a safe https URL as it is (constructed)', () => {
    const url = 'https://oaidalleapiprodscus.blob.core.windows.net/private/img.png?st=2026&sig=abc%2B';
    expect(decodeOpenAiImagesResponse({ data: [{ url, revised_prompt: null }] }, generation)).toMatchObject({ result: { images: [{ url }] } });
  });

  it.each([
    ['not an object', 'x'],
    ['no data', { created: 1 }],
    ['empty data', { data: [] }],
    ['an item that is not an object', { data: ['AAAA'] }],
    ['an item with neither image', { data: [{ revised_prompt: 'x' }] }],
    ['an item with both images', { data: [{ b64_json: 'AAAA', url: 'https://a.example/x.png' }] }],
    ['base64 with bad characters', { data: [{ b64_json: 'AA*A' }] }],
    ['base64 with whitespace', { data: [{ b64_json: 'AA AA===' }] }],
    ['base64 of a bad length', { data: [{ b64_json: 'AAAAA' }] }],
    ['base64 padding inside', { data: [{ b64_json: 'AA==AAAA' }] }],
    ['base64 not a string', { data: [{ b64_json: 12 }] }],
    ['an http URL', { data: [{ url: 'http://a.example/x.png' }] }],
    ['a URL with userinfo', { data: [{ url: 'https://user:pw@a.example/x.png' }] }],
    ['a URL with a user only', { data: [{ url: 'https://user@a.example/x.png' }] }],
    ['a javascript URL', { data: [{ url: 'javascript:alert(1)' }] }],
    ['a data URL', { data: [{ url: 'data:image/png;base64,AAAA' }] }],
    ['a relative URL', { data: [{ url: '/x.png' }] }],
    ['a URL past 8192 characters', { data: [{ url: `https://a.example/${'x'.repeat(8192)}` }] }],
    ['a revised prompt that is not a string', { data: [{ b64_json: 'AAAA', revised_prompt: 1 }] }],
    ['more images than asked for', { data: [{ b64_json: 'AAAA' }, { b64_json: 'AAAA' }] }],
    ['an output format that is not a string', { data: [{ b64_json: 'AAAA' }], output_format: 1 }],
    ['usage not an object', { data: [{ b64_json: 'AAAA' }], usage: [] }],
    ['negative usage', { data: [{ b64_json: 'AAAA' }], usage: { input_tokens: -1 } }],
    ['a usage total below its parts', { data: [{ b64_json: 'AAAA' }], usage: { input_tokens: 5, output_tokens: 5, total_tokens: 9 } }],
  ])('a body with %s is a protocol violation (constructed)', (_label, body) => {
    expect(decodeOpenAiImagesResponse(body, generation)).toEqual(violation);
  });

  it('any random body ends in a terminal, never a throw (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(['completed', 'failed']).toContain(decodeOpenAiImagesResponse(value, { kind: 'image-edit', count: 3 }).status);
      }),
    );
  });

  it('any URL the decoder keeps is https without userinfo (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()), fc.option(fc.constantFrom('user@', 'u:p@', ''), { nil: undefined }), (url, userinfo) => {
        const candidate = userinfo === undefined ? url : url.replace('://', `://${userinfo}`);
        const terminal = decodeOpenAiImagesResponse({ data: [{ url: candidate }] }, generation);
        if (terminal.status === 'completed' && terminal.result.kind === 'image-generation') {
          const kept = new URL(terminal.result.images[0]?.url ?? '');
          expect(kept.protocol).toBe('https:');
          expect(kept.username + kept.password).toBe('');
        }
      }),
    );
  });
});
