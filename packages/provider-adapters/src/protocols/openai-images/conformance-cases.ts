import type { PreparedMediaExecutionInputV2, PreparedMediaItemV2, ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import { parseSafeJson } from '../../codec-kit/index.js';
import type { ConformanceCaseV1 } from '../../conformance/conformance-case-v1.js';
import { GPT_IMAGE_RESPONSE_FORMAT_ERROR_JSON, OPENAI_IMAGE_EDIT_JSON, OPENAI_IMAGE_JSON } from './__fixtures__/recorded-fixtures.js';

function target(providerModel: string, taskKinds: ('image-generation' | 'image-edit')[] = ['image-generation', 'image-edit']): ProviderDispatchTargetV2 {
  return {
    provider: 'conformance-provider',
    providerModel,
    connectionRef: 'conformance-connection',
    capability: { protocolFamily: 'openai-images/v1', executionMode: 'sync', taskKinds, maxPreparedMediaBytes: 1024 * 1024 },
  };
}

/** Constructed bytes: `(i * step + offset) & 255`, delivered in 64-byte reads. */
function mediaItem(role: 'image' | 'mask', fileName: string, size: number, step: number, offset: number, sha256: string): PreparedMediaItemV2 {
  return {
    role,
    fileName,
    mediaType: 'image/png',
    sizeBytes: size,
    sha256,
    async *open() {
      const bytes = new Uint8Array(size).map((_, index) => (index * step + offset) & 255);
      for (let start = 0; start < size; start += 64) yield bytes.subarray(start, start + 64);
    },
  };
}

const IMAGE_SHA256 = '04773f8726c81cafcfa1a09a82664b98b00d2021031a1715bca1154f2dad3472';
const MASK_SHA256 = 'eea83768cf456f3f33133e3b0c000a6554a4a8dc5659ffdfd02f04e7f8080518';
const editMedia: PreparedMediaExecutionInputV2 = {
  items: [mediaItem('image', 'source.png', 300, 7, 3, IMAGE_SHA256), mediaItem('mask', 'mask.png', 120, 13, 1, MASK_SHA256)],
  totalBytes: 420,
};

const generated = parseSafeJson(OPENAI_IMAGE_JSON) as { data: { b64_json: string; revised_prompt?: string }[] };
const edited = parseSafeJson(OPENAI_IMAGE_EDIT_JSON) as { data: { b64_json: string }[] };
const otterPrompt = 'A cute baby sea otter';
const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } } as const;

/**
 * Conformance cases of `openai-images/v1`: the recorded vercel/ai generation, edit and error bodies (see
 * `__fixtures__/NOTICE.md`) and constructed edge cases from §2 of the media wire fact sheet.
 */
export const openAiImagesConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'recorded generation with two base64 images and a revised prompt',
    target: target('openai-images-conformance-model'),
    task: { kind: 'image-generation', prompt: otterPrompt, count: 2, size: '1024x1024', delivery: 'base64' },
    responses: [{ label: 'vercel-ai__openai-image.json', source: 'recorded', headers: { 'x-request-id': 'req-conformance' }, body: { type: 'text', text: OPENAI_IMAGE_JSON } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerRequestId: 'req-conformance' },
      terminal: {
        status: 'completed',
        result: {
          kind: 'image-generation',
          images: [
            { base64: generated.data[0]?.b64_json ?? '', revisedPrompt: generated.data[0]?.revised_prompt ?? '' },
            { base64: generated.data[1]?.b64_json ?? '' },
          ],
        },
        usage: { images: 2 },
      },
    },
    requests: [
      {
        method: 'POST',
        path: '/images/generations',
        headers: { accept: 'application/json' },
        body: { type: 'json', value: { model: 'openai-images-conformance-model', prompt: otterPrompt, n: 2, size: '1024x1024', response_format: 'b64_json' } },
      },
    ],
  },
  {
    name: 'recorded GPT image edit: multipart image and mask streamed, response_format not sent',
    target: target('gpt-image-1'),
    task: { kind: 'image-edit', prompt: 'Add a hat', quality: 'high', outputFormat: 'png', delivery: 'base64' },
    preparedMedia: editMedia,
    responses: [{ label: 'vercel-ai__openai-image-edit.json', source: 'recorded', body: { type: 'text', text: OPENAI_IMAGE_EDIT_JSON } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      terminal: {
        status: 'completed',
        result: { kind: 'image-edit', images: [{ base64: edited.data[0]?.b64_json ?? '', mediaType: 'image/png' }] },
        usage: { images: 1 },
      },
    },
    requests: [
      {
        method: 'POST',
        path: '/images/edits',
        headers: { accept: 'application/json' },
        body: {
          type: 'multipart',
          parts: [
            { kind: 'file', name: 'image', fileName: 'source.png', mediaType: 'image/png', sizeBytes: 300, sha256: IMAGE_SHA256 },
            { kind: 'file', name: 'mask', fileName: 'mask.png', mediaType: 'image/png', sizeBytes: 120, sha256: MASK_SHA256 },
            { kind: 'field', name: 'prompt', value: 'Add a hat' },
            { kind: 'field', name: 'model', value: 'gpt-image-1' },
            { kind: 'field', name: 'quality', value: 'high' },
            { kind: 'field', name: 'output_format', value: 'png' },
          ],
        },
      },
    ],
  },
  {
    name: 'recorded unknown_parameter error is a non-retryable invalid request',
    target: target('gpt-image-1'),
    task: { kind: 'image-generation', prompt: otterPrompt },
    responses: [
      {
        label: 'vercel-ai__gpt-image-response-format-error.json',
        source: 'recorded',
        status: 400,
        body: { type: 'text', text: GPT_IMAGE_RESPONSE_FORMAT_ERROR_JSON },
      },
    ],
    expect: {
      kind: 'response',
      acceptance: 'not-accepted',
      terminal: { status: 'failed', failure: { code: 'invalid-request', retryable: false, providerCode: 'unknown_parameter' } },
    },
    requests: [{ method: 'POST', path: '/images/generations', headers: { accept: 'application/json' }, body: { type: 'json', value: { model: 'gpt-image-1', prompt: otterPrompt } } }],
  },
  {
    name: 'a URL result with usage; response_format url is sent to a model that takes it',
    target: target('dall-e-3'),
    task: { kind: 'image-generation', prompt: otterPrompt, delivery: 'url', style: 'natural' },
    responses: [
      {
        label: 'constructed: dall-e URL answer (fact sheet §2c)',
        source: 'constructed',
        body: { type: 'json', value: { created: 1_770_000_000, data: [{ url: 'https://images.example.com/a.png?sig=1', revised_prompt: 'An otter' }] } },
      },
    ],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      terminal: {
        status: 'completed',
        result: { kind: 'image-generation', images: [{ url: 'https://images.example.com/a.png?sig=1', revisedPrompt: 'An otter' }] },
        usage: { images: 1 },
      },
    },
    requests: [
      {
        method: 'POST',
        path: '/images/generations',
        headers: { accept: 'application/json' },
        body: { type: 'json', value: { model: 'dall-e-3', prompt: otterPrompt, response_format: 'url', style: 'natural' } },
      },
    ],
  },
  {
    name: 'an http image URL is a protocol violation',
    target: target('dall-e-3'),
    task: { kind: 'image-generation', prompt: otterPrompt },
    responses: [{ label: 'constructed: plain http URL', source: 'constructed', body: { type: 'json', value: { created: 1, data: [{ url: 'http://images.example.com/a.png' }] } } }],
    expect: { kind: 'response', acceptance: 'accepted', terminal: violation },
    requests: [{ method: 'POST', path: '/images/generations', headers: { accept: 'application/json' }, body: { type: 'json', value: { model: 'dall-e-3', prompt: otterPrompt } } }],
  },
  {
    name: 'an image URL with userinfo is a protocol violation',
    target: target('dall-e-3'),
    task: { kind: 'image-generation', prompt: otterPrompt },
    responses: [
      { label: 'constructed: https URL with userinfo', source: 'constructed', body: { type: 'json', value: { created: 1, data: [{ url: 'https://user:secret@images.example.com/a.png' }] } } },
    ],
    expect: { kind: 'response', acceptance: 'accepted', terminal: violation },
    requests: [{ method: 'POST', path: '/images/generations', headers: { accept: 'application/json' }, body: { type: 'json', value: { model: 'dall-e-3', prompt: otterPrompt } } }],
  },
  {
    name: 'a transparent jpeg is refused before sending',
    target: target('gpt-image-1'),
    task: { kind: 'image-generation', prompt: otterPrompt, background: 'transparent', outputFormat: 'jpeg' },
    responses: [],
    expect: { kind: 'response', acceptance: 'not-accepted', terminal: { status: 'failed', failure: { code: 'invalid-request', retryable: false } } },
    requests: [],
  },
];
