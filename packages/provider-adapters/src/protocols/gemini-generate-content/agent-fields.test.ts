import { isCodecErrorV1, type ChatTaskV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeGeminiRequest } from './encode-request.js';
import { decodeGeminiClientRequest } from './ingress.js';

const encoder = new TextEncoder();
const decode = (body: unknown) => decodeGeminiClientRequest({ path: '/v1beta/models/g:generateContent', body: encoder.encode(JSON.stringify(body)) });

const agentRequest = {
  contents: [{ role: 'user', parts: [{ text: 'Search.' }] }],
  tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object' } }] }],
  generationConfig: { thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' } },
};

describe('gemini agent-era fields', () => {
  it('keeps googleSearch and the thinking level through a same-dialect round trip to a target declaring levels', () => {
    const task = decode(agentRequest).task as ChatTaskV3;
    const { body } = encodeGeminiRequest(task, 'g', undefined, ['minimal', 'low', 'medium', 'high']);
    expect(body).toEqual({ type: 'json', value: agentRequest });
  });

  it('sends today\u2019s budget to a target without declared levels and refuses a search limited to domains', () => {
    const task = decode(agentRequest).task as ChatTaskV3;
    expect((encodeGeminiRequest(task, 'g').body as { value: { generationConfig: unknown } }).value.generationConfig).toEqual({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 24_576 },
    });
    let refused: unknown;
    try {
      encodeGeminiRequest({ ...task, hostedTools: [{ kind: 'web-search', allowedDomains: ['a.com'] }] }, 'g');
    } catch (error) {
      refused = error;
    }
    expect(isCodecErrorV1(refused) && refused.code).toBe('unsupported-feature');
  });
});
