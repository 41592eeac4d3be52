import { describe, expect, it } from 'vitest';
import { decodeGeminiResponse } from './decode-response.js';
import { encodeGeminiResponse } from './egress.js';
import { encodeGeminiRequest } from './encode-request.js';
import { decodeGeminiClientRequest } from './ingress.js';
import { readFixture } from './test-support/gemini-test-support.js';

const encoder = new TextEncoder();

describe('gemini-generate-content round trips', () => {
  it('client request → task → provider request gives the client body back (canonical form)', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
        {
          role: 'model',
          parts: [
            { text: 'Plan', thought: true, thoughtSignature: 'VFM=' },
            { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'RkM=' },
            { functionCall: { name: 'time', args: {}, id: 'call-2' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'weather', response: { output: 'sunny' } } },
            { functionResponse: { name: 'time', response: { error: 'broken' }, id: 'call-2' } },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [
        {
          functionDeclarations: [
            { name: 'weather', description: 'W', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } },
            { name: 'time', parametersJsonSchema: { type: 'object', properties: {} } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] } },
      generationConfig: {
        temperature: 0.3,
        maxOutputTokens: 64,
        stopSequences: ['END'],
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object' },
        thinkingConfig: { thinkingBudget: 512, includeThoughts: true },
      },
    };
    const { task, modelLabel } = decodeGeminiClientRequest({
      path: '/v1beta/models/gemini-x:streamGenerateContent',
      query: { alt: 'sse' },
      body: encoder.encode(JSON.stringify(body)),
    });
    const request = encodeGeminiRequest(task, modelLabel);
    expect(request.path).toBe('/v1beta/models/gemini-x:streamGenerateContent');
    expect(request.query).toEqual({ alt: 'sse' });
    expect(request.body).toEqual({ type: 'json', value: body });
  });

  it('provider response → terminal → client response decodes to the same terminal (recorded)', () => {
    const first = decodeGeminiResponse(JSON.parse(readFixture('vercel-ai__google-tool-call-gemini3.json')) as unknown).terminal;
    const egress = encodeGeminiResponse(first, { responseId: 'JniLacKqGqH0xs0P0O776As', modelLabel: 'label', createdAtMs: 0 });
    const second = decodeGeminiResponse(JSON.parse(new TextDecoder().decode(egress.body)) as unknown).terminal;
    expect(second).toEqual(first);
  });
});
