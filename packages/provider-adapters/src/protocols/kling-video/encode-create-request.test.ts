import { isCodecErrorV1, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeKlingCreateRequest } from './encode-create-request.js';

const encode = (task: TaskEnvelopeV2, providerCallbackUrl?: string) =>
  encodeKlingCreateRequest({ task, providerModel: 'kling-v1-6', ...(providerCallbackUrl === undefined ? {} : { providerCallbackUrl }) });

function refusal(task: TaskEnvelopeV2): string | undefined {
  try {
    encode(task);
    return undefined;
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code} ${error.path ?? ''}` : 'other';
  }
}

describe('encodeKlingCreateRequest', () => {
  it('sends model_name (never the legacy model key) and only the fields the task sets', () => {
    expect(encode({ kind: 'video-generation', prompt: 'p' })).toEqual({
      endpoint: 'text2video',
      method: 'POST',
      path: '/v1/videos/text2video',
      headers: { accept: 'application/json' },
      body: { type: 'json', value: { model_name: 'kling-v1-6', prompt: 'p' } },
    });
  });

  it('encodes the duration as a string, the key as external_task_id and the callback as callback_url', () => {
    const request = encode({ kind: 'video-generation', prompt: 'p', durationSeconds: 10, idempotencyKey: 'job:7', negativePrompt: 'blur' }, 'https://h.example/cb');
    expect(request.body.value).toEqual({ model_name: 'kling-v1-6', prompt: 'p', negative_prompt: 'blur', duration: '10', external_task_id: 'job:7', callback_url: 'https://h.example/cb' });
  });

  it('keeps a raw base64 image and a URL as given, and strips a JPEG data URL prefix', () => {
    expect(encode({ kind: 'video-generation', image: 'aGVsbG8=' }).body.value.image).toBe('aGVsbG8=');
    expect(encode({ kind: 'video-generation', image: 'https://i.example/a.png' }).body.value.image).toBe('https://i.example/a.png');
    expect(encode({ kind: 'video-generation', image: 'data:image/jpeg;base64,/9j/4AAQ' }).body.value.image).toBe('/9j/4AAQ');
  });

  it.each([
    ['another task kind', { kind: 'image-generation', prompt: 'p' }, 'unsupported-feature kind'],
    ['a seed', { kind: 'video-generation', prompt: 'p', seed: 1 }, 'unsupported-feature seed'],
    ['a resolution', { kind: 'video-generation', prompt: 'p', resolution: '720p' }, 'unsupported-feature resolution'],
    ['a last frame alone', { kind: 'video-generation', prompt: 'p', imageTail: 'https://i.example/z.png' }, 'unsupported-feature imageTail'],
    ['an aspect ratio on image-to-video', { kind: 'video-generation', image: 'https://i.example/a.png', aspectRatio: '16:9' }, 'unsupported-feature aspectRatio'],
    ['an aspect ratio Kling lacks', { kind: 'video-generation', prompt: 'p', aspectRatio: '4:3' }, 'unsupported-feature aspectRatio'],
    ['an unknown mode', { kind: 'video-generation', prompt: 'p', mode: 'ultra' }, 'unsupported-feature mode'],
    ['a fractional duration', { kind: 'video-generation', prompt: 'p', durationSeconds: 5.5 }, 'unsupported-feature durationSeconds'],
    ['a non-base64 data URL', { kind: 'video-generation', image: 'data:image/gif,GIF89a' }, 'unsupported-feature image'],
  ] satisfies [string, TaskEnvelopeV2, string][])('refuses %s', (_name, task, expected) => {
    expect(refusal(task)).toBe(expected);
  });
});
