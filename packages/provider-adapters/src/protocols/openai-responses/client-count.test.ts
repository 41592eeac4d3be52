import { describe, expect, it } from 'vitest';
import { decodeOpenAiResponsesClientCountRequest } from './decode-client-count-request.js';
import { encodeOpenAiResponsesClientCountResponse } from './encode-client-count-response.js';

const wire = (body: unknown) => ({ path: '/v1/responses/input_tokens', body: new TextEncoder().encode(JSON.stringify(body)) });

describe('openai-responses client count codecs', () => {
  it('decodes an input_tokens body into a token-count task', () => {
    const decoded = decodeOpenAiResponsesClientCountRequest(wire({ model: 'gpt', instructions: 'Be brief.', input: 'Hello' }));
    expect(decoded).toEqual({
      modelLabel: 'gpt',
      task: { kind: 'token-count', system: [{ type: 'text', text: 'Be brief.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] },
    });
  });

  it('refuses stored conversation state and a missing model', () => {
    expect(() => decodeOpenAiResponsesClientCountRequest(wire({ model: 'gpt', input: 'x', previous_response_id: 'resp_1' }))).toThrow();
    expect(() => decodeOpenAiResponsesClientCountRequest(wire({ input: 'x' }))).toThrow();
  });

  it('encodes {object: response.input_tokens, input_tokens}', () => {
    const answer = encodeOpenAiResponsesClientCountResponse({ kind: 'token-count', inputTokens: 7 });
    expect(JSON.parse(new TextDecoder().decode(answer.body))).toEqual({ object: 'response.input_tokens', input_tokens: 7 });
  });
});
