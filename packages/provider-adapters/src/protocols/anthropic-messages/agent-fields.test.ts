import { chatTaskV3Schema, type ChatTaskV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeAnthropicContextManagement } from './encode-context-management.js';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import { decodeAnthropicMessagesRequest } from './ingress.js';

const encoder = new TextEncoder();
const decode = (body: unknown) => decodeAnthropicMessagesRequest({ path: '/v1/messages', body: encoder.encode(JSON.stringify(body)) });

/** What Claude Code sends, cut down to the agent-era fields. */
const agentRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 32000,
  messages: [
    { role: 'user', content: 'Find the docs.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a' }, cache_control: { type: 'ephemeral' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'contents' }], cache_control: { type: 'ephemeral', ttl: '1h' } }] },
  ],
  tools: [
    { name: 'Read', input_schema: { type: 'object' }, eager_input_streaming: true },
    { name: 'Later', input_schema: { type: 'object' }, defer_loading: true },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5, allowed_domains: ['docs.example.com'] },
  ],
  tool_choice: { type: 'auto', disable_parallel_tool_use: true },
  metadata: { user_id: 'session-1' },
  thinking: { type: 'adaptive', display: 'summarized' },
  output_config: { effort: 'xhigh' },
  context_management: {
    edits: [
      { type: 'clear_thinking_20251015', keep: 'all' },
      { type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 100000 }, keep: { type: 'tool_uses', value: 3 }, exclude_tools: ['Read'] },
    ],
  },
  stream: true,
};

describe('anthropic-messages agent-era fields', () => {
  it('keeps every agent-era field through a same-dialect round trip to a target declaring efforts', () => {
    const decoded = decode(agentRequest);
    expect(chatTaskV3Schema.safeParse(decoded.task).success).toBe(true);
    expect(decoded.hostedToolNames).toEqual(['web_search_20250305']);
    const task = decoded.task as ChatTaskV3;
    const body = encodeAnthropicMessagesRequest(task, { model: 'claude-sonnet-4-5', reasoningEfforts: ['low', 'medium', 'high', 'xhigh', 'max'] });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 32000,
      messages: agentRequest.messages.map((message, index) => (index === 0 ? { role: 'user', content: [{ type: 'text', text: 'Find the docs.' }] } : message)),
      tools: agentRequest.tools,
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      metadata: { user_id: 'session-1' },
      thinking: { type: 'adaptive', display: 'summarized' },
      output_config: { effort: 'xhigh' },
      context_management: agentRequest.context_management,
      stream: true,
    });
  });

  it('keeps the budget thinking for a target without declared efforts, and maps efforts onto declared levels', () => {
    const task = decode({ ...agentRequest, context_management: undefined }).task as ChatTaskV3;
    const plain = encodeAnthropicMessagesRequest(task, { model: 'm' });
    expect(plain.thinking).toEqual({ type: 'enabled', budget_tokens: 16_384 });
    expect(plain).not.toHaveProperty('output_config');
    const declared = encodeAnthropicMessagesRequest(task, { model: 'm', reasoningEfforts: ['low', 'medium', 'high'] });
    expect(declared.output_config).toEqual({ effort: 'high' });
    const none = encodeAnthropicMessagesRequest({ ...task, reasoning: { effort: 'none' } }, { model: 'm', reasoningEfforts: ['none', 'low', 'high'] });
    expect(none).not.toHaveProperty('thinking');
    expect(none).not.toHaveProperty('output_config');
  });

  it('sends a parallel switch without a choice as auto, never on a none choice, and web search alone as the only tool', () => {
    const base: ChatTaskV3 = { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] };
    const fn = [{ name: 'f', inputSchema: { type: 'object' } }];
    expect(encodeAnthropicMessagesRequest({ ...base, tools: fn, parallelToolCalls: false }, { model: 'm' }).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(encodeAnthropicMessagesRequest({ ...base, tools: fn, parallelToolCalls: false, toolChoice: { type: 'none' } }, { model: 'm' }).tool_choice).toEqual({ type: 'none' });
    expect(encodeAnthropicMessagesRequest({ ...base, tools: fn, parallelToolCalls: true }, { model: 'm' })).not.toHaveProperty('tool_choice');
    expect(encodeAnthropicMessagesRequest({ ...base, hostedTools: [{ kind: 'web-search', blockedDomains: ['x.com'] }] }, { model: 'm' }).tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', blocked_domains: ['x.com'] },
    ]);
  });

  it('encodes context management edits with typed counts', () => {
    expect(encodeAnthropicContextManagement({ clearThinking: { keep: 2 }, clearToolUses: { clearAtLeastInputTokens: 10, clearToolInputs: false } })).toEqual({
      edits: [
        { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 2 } },
        { type: 'clear_tool_uses_20250919', clear_at_least: { type: 'input_tokens', value: 10 }, clear_tool_inputs: false },
      ],
    });
    expect(encodeAnthropicContextManagement({})).toBeUndefined();
  });
});
