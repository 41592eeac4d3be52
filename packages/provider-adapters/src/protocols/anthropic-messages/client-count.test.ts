import { describe, expect, it } from 'vitest';
import { decodeAnthropicClientCountRequest } from './decode-client-count-request.js';
import { encodeAnthropicClientCountResponse } from './encode-client-count-response.js';

const wire = (body: unknown) => ({ path: '/v1/messages/count_tokens', body: new TextEncoder().encode(JSON.stringify(body)) });

describe('anthropic-messages client count codecs', () => {
  it('decodes a count_tokens body (no max_tokens) into a token-count task', () => {
    const decoded = decodeAnthropicClientCountRequest(
      wire({
        model: 'claude',
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello' }],
        tools: [{ name: 'lookup', description: 'Looks up', input_schema: { type: 'object', properties: {} } }],
        tool_choice: { type: 'auto' },
      }),
    );
    expect(decoded.modelLabel).toBe('claude');
    expect(decoded.task).toMatchObject({
      kind: 'token-count',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      tools: [{ name: 'lookup' }],
      toolChoice: { type: 'auto' },
    });
    expect(decoded.task).not.toHaveProperty('maxOutputTokens');
  });

  it('refuses a streamed count and a body without messages', () => {
    expect(() => decodeAnthropicClientCountRequest(wire({ model: 'claude', stream: true, messages: [{ role: 'user', content: 'x' }] }))).toThrow(/not streamed/);
    expect(() => decodeAnthropicClientCountRequest(wire({ model: 'claude' }))).toThrow();
  });

  it('encodes {input_tokens}', () => {
    const answer = encodeAnthropicClientCountResponse({ kind: 'token-count', inputTokens: 42 });
    expect(answer.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(answer.body))).toEqual({ input_tokens: 42 });
  });
});
