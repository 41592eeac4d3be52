import { describe, expect, it } from 'vitest';
import { errorTypeOf } from './gateway-telemetry.js';
import { genAiOperationName } from './gen-ai-operation-name.js';

describe('genAiOperationName', () => {
  it('uses the convention’s well-known values where one fits', () => {
    expect(genAiOperationName('chat')).toBe('chat');
    expect(genAiOperationName('embedding')).toBe('embeddings');
    expect(genAiOperationName('image-generation')).toBe('generate_content');
    expect(genAiOperationName('image-edit')).toBe('generate_content');
    expect(genAiOperationName('video-generation')).toBe('generate_content');
    expect(genAiOperationName('rerank')).toBe('rerank');
  });
});

describe('errorTypeOf', () => {
  it('is the code of an outcome, and nothing for a completed one', () => {
    expect(errorTypeOf('completed')).toBeUndefined();
    expect(errorTypeOf('ok')).toBeUndefined();
    expect(errorTypeOf('failed:rate-limited')).toBe('rate-limited');
    expect(errorTypeOf('failed-in-stream:network')).toBe('network');
    expect(errorTypeOf('refused:client-key')).toBe('client-key');
    expect(errorTypeOf('cancelled')).toBe('cancelled');
  });
});
