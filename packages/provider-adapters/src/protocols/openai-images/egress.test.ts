import type { AdapterTerminalOutcome, EgressContextV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJsonBytes } from '../../codec-kit/index.js';
import { createOpenAiImagesEgressCodec } from './egress.js';

const egress = createOpenAiImagesEgressCodec();
const context: EgressContextV1 = { responseId: 'r', modelLabel: 'm', createdAtMs: 1_700_000_000_500 };

describe('openai-images egress', () => {
  it('writes an ImagesResponse with created from the context, output format and token usage', () => {
    const outcome: AdapterTerminalOutcome = {
      status: 'completed',
      result: { kind: 'image-edit', images: [{ base64: 'AAAA', mediaType: 'image/webp', revisedPrompt: 'r' }, { base64: 'BBBB', mediaType: 'image/webp' }] },
      usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30, images: 2 },
    };
    const response = egress.encodeResponse(outcome, context);
    expect(response.status).toBe(200);
    expect(parseSafeJsonBytes(response.body)).toEqual({
      created: 1_700_000_000,
      data: [{ b64_json: 'AAAA', revised_prompt: 'r' }, { b64_json: 'BBBB' }],
      output_format: 'webp',
      usage: { input_tokens: 10, output_tokens: 20, total_tokens: 30 },
    });
  });

  it('writes URLs, and no usage or output format it does not know', () => {
    const outcome: AdapterTerminalOutcome = {
      status: 'completed',
      result: { kind: 'image-generation', images: [{ url: 'https://a.example/x.png' }, { base64: 'AAAA', mediaType: 'image/png' }] },
      usage: { images: 2 },
    };
    expect(parseSafeJsonBytes(egress.encodeResponse(outcome, context).body)).toEqual({
      created: 1_700_000_000,
      data: [{ url: 'https://a.example/x.png' }, { b64_json: 'AAAA' }],
    });
  });

  it('writes failures in the OpenAI error envelope', () => {
    const filtered = egress.encodeResponse({ status: 'failed', failure: { code: 'content-filtered', retryable: false } }, context);
    expect(filtered.status).toBe(400);
    expect(parseSafeJsonBytes(filtered.body)).toMatchObject({ error: { code: 'content_filter' } });
    expect(egress.encodeResponse({ status: 'cancelled' }, context).status).toBe(499);
    expect(egress.encodeResponse({ status: 'completed', result: { kind: 'rerank', results: [] } }, context).status).toBe(500);
    expect(egress.encodeError({ source: 'engine', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' }, context).status).toBe(400);
  });
});
