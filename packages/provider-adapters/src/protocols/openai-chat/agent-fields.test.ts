import { isCodecErrorV1, type ChatTaskV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeOpenAiChatRequest } from './encode-request.js';
import { decodeOpenAiChatClientRequest } from './ingress.js';

const encoder = new TextEncoder();
const decode = (body: unknown) => decodeOpenAiChatClientRequest({ path: '/v1/chat/completions', body: encoder.encode(JSON.stringify(body)) });

const agentRequest = {
  model: 'gpt-x',
  messages: [{ role: 'user', content: 'Fix it.' }],
  tools: [{ type: 'function', function: { name: 'shell', parameters: { type: 'object' } } }],
  parallel_tool_calls: false,
  reasoning_effort: 'xhigh',
  verbosity: 'low',
  safety_identifier: 'user-7',
  web_search_options: {},
};

describe('openai-chat agent-era fields', () => {
  it('keeps them through a same-dialect round trip to a target declaring its levels', () => {
    const task = decode(agentRequest).task as ChatTaskV3;
    const body = encodeOpenAiChatRequest(task, 'gpt-x', undefined, ['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).body.value;
    expect(body).toEqual({
      model: 'gpt-x',
      messages: [{ role: 'user', content: 'Fix it.' }],
      tools: [{ type: 'function', function: { name: 'shell', parameters: { type: 'object' } } }],
      reasoning_effort: 'xhigh',
      parallel_tool_calls: false,
      verbosity: 'low',
      safety_identifier: 'user-7',
      web_search_options: {},
    });
  });

  it('sends verbosity and the end user only to a target declaring its levels, and the parallel switch only with tools', () => {
    const task = decode(agentRequest).task as ChatTaskV3;
    const body = encodeOpenAiChatRequest(task, 'compatible').body.value;
    expect(body).not.toHaveProperty('verbosity');
    expect(body).not.toHaveProperty('safety_identifier');
    expect(body.reasoning_effort).toBe('high');
    expect(encodeOpenAiChatRequest({ ...task, tools: undefined }, 'm').body.value).not.toHaveProperty('parallel_tool_calls');
  });

  it('refuses a web search limited to domains', () => {
    const task: ChatTaskV3 = { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], hostedTools: [{ kind: 'web-search', allowedDomains: ['a.com'] }] };
    let refused: unknown;
    try {
      encodeOpenAiChatRequest(task, 'm');
    } catch (error) {
      refused = error;
    }
    expect(isCodecErrorV1(refused) && refused.code).toBe('unsupported-feature');
  });
});
