import { describe, expect, it } from 'vitest';
import { decodeGeminiClientCountRequest } from './decode-client-count-request.js';
import { encodeGeminiClientCountResponse } from './encode-client-count-response.js';

const wire = (body: unknown, path = '/v1beta/models/gemini-2.5-flash:countTokens') => ({ path, body: new TextEncoder().encode(JSON.stringify(body)) });
const hello = [{ role: 'user', parts: [{ text: 'Hello' }] }];

describe('gemini-generate-content client count codecs', () => {
  it('decodes {contents} and {generateContentRequest} alike, model from the path', () => {
    const plain = decodeGeminiClientCountRequest(wire({ contents: hello }));
    expect(plain).toEqual({ modelLabel: 'gemini-2.5-flash', task: { kind: 'token-count', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] } });
    const wrapped = decodeGeminiClientCountRequest(
      wire({ generateContentRequest: { model: 'models/gemini-2.5-flash', contents: hello, systemInstruction: { parts: [{ text: 'Be brief.' }] } } }),
    );
    expect(wrapped.task).toEqual({ kind: 'token-count', system: [{ type: 'text', text: 'Be brief.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] });
  });

  it('refuses both forms at once, unknown fields and another path', () => {
    expect(() => decodeGeminiClientCountRequest(wire({ contents: hello, generateContentRequest: { contents: hello } }))).toThrow(/not both/);
    expect(() => decodeGeminiClientCountRequest(wire({ contents: hello, extra: 1 }))).toThrow(/unknown/);
    expect(() => decodeGeminiClientCountRequest(wire({ contents: hello }, '/v1beta/models/x:generateContent'))).toThrow(/countTokens/);
  });

  it('encodes {totalTokens}', () => {
    const answer = encodeGeminiClientCountResponse({ kind: 'token-count', inputTokens: 3 });
    expect(JSON.parse(new TextDecoder().decode(answer.body))).toEqual({ totalTokens: 3 });
  });
});
