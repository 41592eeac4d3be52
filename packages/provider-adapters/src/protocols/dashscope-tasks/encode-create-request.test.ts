import { isCodecErrorV1, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeDashScopeCreateRequest } from './encode-create-request.js';

function refusal(task: TaskEnvelopeV2): string | undefined {
  try {
    encodeDashScopeCreateRequest(task, 'm');
    return undefined;
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code} ${error.path ?? ''}` : 'other';
  }
}

describe('encodeDashScopeCreateRequest', () => {
  it('routes a first-and-last-frame video to the image2video task path', () => {
    const request = encodeDashScopeCreateRequest({ kind: 'video-generation', image: 'https://i.example/a.png', imageTail: 'https://i.example/z.png', prompt: 'p' }, 'm');
    expect(request).toEqual({
      method: 'POST',
      path: '/api/v1/services/aigc/image2video/video-synthesis',
      headers: { accept: 'application/json', 'x-dashscope-async': 'enable' },
      body: { type: 'json', value: { model: 'm', input: { prompt: 'p', first_frame_url: 'https://i.example/a.png', last_frame_url: 'https://i.example/z.png' } } },
    });
  });

  it('encodes a WxH resolution as size with a * separator, and the aspect ratio as ratio', () => {
    const request = encodeDashScopeCreateRequest({ kind: 'video-generation', prompt: 'p', resolution: '1280x720', aspectRatio: '16:9', negativePrompt: 'n' }, 'm');
    expect(request.body.value).toEqual({ model: 'm', input: { prompt: 'p', negative_prompt: 'n' }, parameters: { size: '1280*720', ratio: '16:9' } });
  });

  it('omits an auto image size and sends no parameters when none are set; never sends the idempotency key', () => {
    expect(encodeDashScopeCreateRequest({ kind: 'image-generation', prompt: 'p', size: 'auto', idempotencyKey: 'k-1' }, 'm').body.value).toEqual({ model: 'm', input: { prompt: 'p' } });
  });

  it.each([
    ['a chat task', { kind: 'rerank', query: 'q', documents: ['d'] }, 'unsupported-feature kind'],
    ['video guidance', { kind: 'video-generation', prompt: 'p', guidance: 0.5 }, 'unsupported-feature guidance'],
    ['video mode', { kind: 'video-generation', prompt: 'p', mode: 'pro' }, 'unsupported-feature mode'],
    ['a fractional duration', { kind: 'video-generation', prompt: 'p', durationSeconds: 2.5 }, 'unsupported-feature durationSeconds'],
    ['a last frame alone', { kind: 'video-generation', prompt: 'p', imageTail: 'https://i.example/z.png' }, 'unsupported-feature imageTail'],
    ['raw base64 image', { kind: 'video-generation', image: 'iVBORw0KGgo=' }, 'unsupported-feature image'],
    ['an odd resolution', { kind: 'video-generation', prompt: 'p', resolution: '4k' }, 'unsupported-feature resolution'],
    ['image quality', { kind: 'image-generation', prompt: 'p', quality: 'hd' }, 'unsupported-feature quality'],
    ['image background', { kind: 'image-generation', prompt: 'p', background: 'transparent' }, 'unsupported-feature background'],
    ['image output format', { kind: 'image-generation', prompt: 'p', outputFormat: 'png' }, 'unsupported-feature outputFormat'],
  ] satisfies [string, TaskEnvelopeV2, string][])('refuses %s', (_name, task, expected) => {
    expect(refusal(task)).toBe(expected);
  });
});
