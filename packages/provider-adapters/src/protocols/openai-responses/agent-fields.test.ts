import { isCodecErrorV1, type ChatTaskV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeOpenAiResponsesRequest } from './encode-request.js';
import { decodeOpenAiResponsesClientRequest } from './ingress.js';

const encoder = new TextEncoder();
const decode = (body: unknown) => decodeOpenAiResponsesClientRequest({ path: '/v1/responses', body: encoder.encode(JSON.stringify(body)) });

/** What Codex sends, cut down to the agent-era fields. */
const codexRequest = {
  model: 'gpt-x',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it.' }] }],
  tools: [
    { type: 'function', name: 'shell', parameters: { type: 'object' }, strict: false, defer_loading: true },
    { type: 'web_search', filters: { allowed_domains: ['docs.example.com'] } },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'xhigh', summary: 'concise', context: 'current_turn' },
  store: false,
  include: ['reasoning.encrypted_content'],
  text: { verbosity: 'low' },
  safety_identifier: 'user-7',
  stream: true,
};

describe('openai-responses agent-era fields', () => {
  it('keeps every agent-era field through a same-dialect round trip to a target declaring the whole effort scale', () => {
    const task = decode(codexRequest).task as ChatTaskV3;
    const { body } = encodeOpenAiResponsesRequest(task, 'gpt-x', { encryptedReasoning: true, reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] });
    expect(body.value).toEqual({
      model: 'gpt-x',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it.' }] }],
      tools: codexRequest.tools,
      tool_choice: 'auto',
      parallel_tool_calls: false,
      text: { verbosity: 'low' },
      reasoning: { effort: 'xhigh', summary: 'concise', context: 'current_turn' },
      safety_identifier: 'user-7',
      store: false,
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
  });

  it('maps the effort onto the default levels, sends no parallel switch without tools, and refuses blocked domains', () => {
    const base: ChatTaskV3 = { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] };
    const plain = encodeOpenAiResponsesRequest({ ...base, reasoning: { effort: 'max' }, parallelToolCalls: true }, 'm').body.value;
    expect(plain.reasoning).toEqual({ effort: 'high' });
    expect(plain).not.toHaveProperty('parallel_tool_calls');
    const only = encodeOpenAiResponsesRequest({ ...base, hostedTools: [{ kind: 'web-search', maxUses: 2 }], toolChoice: { type: 'auto' } }, 'm').body.value;
    expect(only.tools).toEqual([{ type: 'web_search' }]);
    expect(only.tool_choice).toBe('auto');
    let refused: unknown;
    try {
      encodeOpenAiResponsesRequest({ ...base, hostedTools: [{ kind: 'web-search', blockedDomains: ['x.com'] }] }, 'm');
    } catch (error) {
      refused = error;
    }
    expect(isCodecErrorV1(refused) && refused.code).toBe('unsupported-feature');
  });
});
