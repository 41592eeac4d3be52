import { isCodecErrorV1, type ProviderAdapterTargetV1, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeOpenAiEmbeddingsRequest } from './encode-request.js';

const target: ProviderAdapterTargetV1 = {
  providerModel: 'embed-model',
  capability: {
    protocolFamily: 'openai-embeddings/v1',
    executionMode: 'sync',
    taskKinds: ['embedding'],
    embedding: { spaceId: 'space', defaultDimensions: 1536, allowedDimensions: [256], maxInputs: 3 },
  },
};

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code} ${error.path ?? ''}`.trim() : 'other';
  }
  return undefined;
}

describe('encodeOpenAiEmbeddingsRequest', () => {
  it('sends the inputs as an array with base64 encoding and no dimensions by default', () => {
    expect(encodeOpenAiEmbeddingsRequest({ kind: 'embedding', inputs: ['a'] }, target)).toEqual({
      method: 'POST',
      path: '/embeddings',
      headers: { accept: 'application/json' },
      body: { type: 'json', value: { model: 'embed-model', input: ['a'], encoding_format: 'base64' } },
    });
  });

  it('sends dimensions only when they differ from the space default', () => {
    const shortened = encodeOpenAiEmbeddingsRequest({ kind: 'embedding', inputs: ['a'], dimensions: 256 }, target);
    expect(shortened.body.value.dimensions).toBe(256);
    const same = encodeOpenAiEmbeddingsRequest({ kind: 'embedding', inputs: ['a'], dimensions: 1536 }, target);
    expect('dimensions' in same.body.value).toBe(false);
  });

  it('asks for float when the protocol option says so', () => {
    expect(encodeOpenAiEmbeddingsRequest({ kind: 'embedding', inputs: ['a'] }, target, { encodingFormat: 'float' }).body.value.encoding_format).toBe('float');
  });

  it('copies the inputs (the wire body never aliases the task)', () => {
    const inputs = ['a', 'b'];
    const encoded = encodeOpenAiEmbeddingsRequest({ kind: 'embedding', inputs }, target);
    expect(encoded.body.value.input).toEqual(inputs);
    expect(encoded.body.value.input).not.toBe(inputs);
  });

  it('refuses limits before anything is sent', () => {
    const task = (inputs: string[]): TaskEnvelopeV2 => ({ kind: 'embedding', inputs });
    const open = { ...target, capability: { ...target.capability, embedding: { spaceId: 's', defaultDimensions: 8 } } };
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest(task([]), target))).toBe('invalid-request inputs');
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest(task(['a', '', 'c']), target))).toBe('invalid-request inputs.1');
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest(task(['a', 'b', 'c', 'd']), target))).toBe('unsupported-feature inputs');
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest(task(Array.from({ length: 2049 }, () => 'x')), open))).toBe('invalid-request inputs');
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest(task(Array.from({ length: 2048 }, () => 'x')), open))).toBeUndefined();
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest(task(['x'.repeat(65_537)]), target))).toBe('invalid-request inputs.0');
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest(task(['x'.repeat(65_536)]), target))).toBeUndefined();
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest(task(['xyz']), target, { maxInputCharacters: 2 }))).toBe('invalid-request inputs.0');
  });

  it('refuses a task of another kind as unsupported', () => {
    expect(codeOf(() => encodeOpenAiEmbeddingsRequest({ kind: 'rerank', query: 'q', documents: ['d'] }, target))).toBe('unsupported-feature kind');
  });

  it('never puts an input into an error message', () => {
    try {
      encodeOpenAiEmbeddingsRequest({ kind: 'embedding', inputs: ['secret prompt'.repeat(10_000)] }, target);
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret');
    }
  });
});
