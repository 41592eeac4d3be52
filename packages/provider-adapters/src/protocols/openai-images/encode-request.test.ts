import { isCodecErrorV1, type PreparedMediaItemV2, type ProviderAdapterTargetV1, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeOpenAiImagesRequest } from './encode-request.js';

function target(providerModel: string): ProviderAdapterTargetV1 {
  return { providerModel, capability: { protocolFamily: 'openai-images/v1', executionMode: 'sync', taskKinds: ['image-generation', 'image-edit'] } };
}

let opened: string[] = [];
function item(role: 'image' | 'mask', fileName: string, sizeBytes = 4): PreparedMediaItemV2 {
  return {
    role,
    fileName,
    mediaType: 'image/png',
    sizeBytes,
    sha256: '0'.repeat(64),
    async *open() {
      opened.push(fileName);
      yield new Uint8Array(sizeBytes);
    },
  };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code} ${error.path ?? ''}`.trim() : 'other';
  }
  return undefined;
}

describe('encodeOpenAiImagesRequest', () => {
  it('encodes a generation with only the fields the task sets', () => {
    expect(encodeOpenAiImagesRequest({ kind: 'image-generation', prompt: 'p' }, target('dall-e-2'))).toEqual({
      method: 'POST',
      path: '/images/generations',
      headers: { accept: 'application/json' },
      body: { type: 'json', value: { model: 'dall-e-2', prompt: 'p' } },
    });
    const full = encodeOpenAiImagesRequest(
      { kind: 'image-generation', prompt: 'p', count: 3, size: '512x512', quality: 'hd', background: 'opaque', outputFormat: 'webp', delivery: 'url', style: 'vivid' },
      target('dall-e-3'),
    );
    expect(full.body).toEqual({
      type: 'json',
      value: { model: 'dall-e-3', prompt: 'p', n: 3, size: '512x512', quality: 'hd', background: 'opaque', output_format: 'webp', response_format: 'url', style: 'vivid' },
    });
  });

  it('treats only gpt-image and chatgpt-image names as GPT image models', () => {
    for (const model of ['gpt-images-x', 'my-gpt-image-1', 'dall-e-3']) {
      expect(encodeOpenAiImagesRequest({ kind: 'image-generation', prompt: 'p', delivery: 'url' }, target(model)).body).toMatchObject({ value: { response_format: 'url' } });
    }
  });

  it.each(['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5', 'gpt-image-2-2026-04-21', 'chatgpt-image-latest'])(
    'never sends response_format to the GPT image model %s',
    (model) => {
      const encoded = encodeOpenAiImagesRequest({ kind: 'image-generation', prompt: 'p', delivery: 'url' }, target(model));
      expect(encoded.body).toEqual({ type: 'json', value: { model, prompt: 'p' } });
    },
  );

  it('maps base64 delivery to b64_json for models that take response_format', () => {
    const encoded = encodeOpenAiImagesRequest({ kind: 'image-generation', prompt: 'p', delivery: 'base64' }, target('dall-e-2'));
    expect(encoded.body).toEqual({ type: 'json', value: { model: 'dall-e-2', prompt: 'p', response_format: 'b64_json' } });
  });

  it('refuses what the dialect cannot carry before anything is sent', () => {
    expect(codeOf(() => encodeOpenAiImagesRequest({ kind: 'image-generation', prompt: 'p', negativePrompt: 'n' }, target('dall-e-3')))).toBe(
      'unsupported-feature negativePrompt',
    );
    expect(codeOf(() => encodeOpenAiImagesRequest({ kind: 'image-generation', prompt: 'p', style: 'vivid' }, target('gpt-image-1')))).toBe('unsupported-feature style');
    expect(codeOf(() => encodeOpenAiImagesRequest({ kind: 'image-generation', prompt: 'p', background: 'transparent', outputFormat: 'jpeg' }, target('gpt-image-1')))).toBe(
      'invalid-request background',
    );
    expect(codeOf(() => encodeOpenAiImagesRequest({ kind: 'embedding', inputs: ['x'] }, target('m')))).toBe('unsupported-feature kind');
  });

  it('sends one source image as `image`, and the mask as its own file part, without opening any stream', () => {
    opened = [];
    const task: TaskEnvelopeV2 = { kind: 'image-edit', prompt: 'edit', count: 2, size: '1024x1024' };
    const encoded = encodeOpenAiImagesRequest(task, target('dall-e-2'), { items: [item('mask', 'm.png', 2), item('image', 'a.png', 5)], totalBytes: 7 });
    expect(opened).toEqual([]);
    if (encoded.body.type !== 'multipart') throw new Error('expected multipart');
    expect(encoded.path).toBe('/images/edits');
    expect(encoded.body.parts.map((part) => (part.kind === 'file' ? [part.name, part.fileName, part.sizeBytes, part.mediaType] : [part.name, part.value]))).toEqual([
      ['image', 'a.png', 5, 'image/png'],
      ['mask', 'm.png', 2, 'image/png'],
      ['prompt', 'edit'],
      ['model', 'dall-e-2'],
      ['n', '2'],
      ['size', '1024x1024'],
    ]);
  });

  it('sends several source images as repeated `image[]` parts in prepared order, streaming each from its source', async () => {
    opened = [];
    const encoded = encodeOpenAiImagesRequest({ kind: 'image-edit', prompt: 'edit' }, target('gpt-image-1'), {
      items: [item('image', '1.png'), item('image', '2.png'), item('image', '3.png')],
      totalBytes: 12,
    });
    if (encoded.body.type !== 'multipart') throw new Error('expected multipart');
    const files = encoded.body.parts.filter((part) => part.kind === 'file');
    expect(files.map((part) => [part.name, part.fileName])).toEqual([
      ['image[]', '1.png'],
      ['image[]', '2.png'],
      ['image[]', '3.png'],
    ]);
    const second = files[1];
    if (second?.kind !== 'file') throw new Error('expected a file');
    for await (const chunk of second.open()) expect(chunk.byteLength).toBe(4);
    expect(opened).toEqual(['2.png']);
  });

  it('refuses edits without an image, with too many images or with two masks', () => {
    const edit: TaskEnvelopeV2 = { kind: 'image-edit', prompt: 'edit' };
    expect(codeOf(() => encodeOpenAiImagesRequest(edit, target('gpt-image-1')))).toBe('invalid-request preparedMedia');
    expect(codeOf(() => encodeOpenAiImagesRequest(edit, target('gpt-image-1'), { items: [item('mask', 'm.png')], totalBytes: 4 }))).toBe('invalid-request preparedMedia');
    const seventeen = Array.from({ length: 17 }, (_, index) => item('image', `${index}.png`));
    expect(codeOf(() => encodeOpenAiImagesRequest(edit, target('gpt-image-1'), { items: seventeen, totalBytes: 68 }))).toBe('invalid-request preparedMedia');
    const twoMasks = [item('image', 'a.png'), item('mask', 'm1.png'), item('mask', 'm2.png')];
    expect(codeOf(() => encodeOpenAiImagesRequest(edit, target('gpt-image-1'), { items: twoMasks, totalBytes: 12 }))).toBe('invalid-request preparedMedia');
  });
});
