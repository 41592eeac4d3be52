import { describe, expect, it } from 'vitest';
import { joined } from '../wire/answer-plan.js';
import { conversationEndsWithToolResult } from './conversation-ends-with-tool-result.js';
import { planScriptedTurn, SCRIPTED_FINAL_TEXT } from './plan-scripted-turn.js';

const schema = { type: 'object', required: ['path'], properties: { path: { type: 'string' } } };
const chat = (messages: unknown[]): Record<string, unknown> => ({ tools: [{ type: 'function', function: { name: 'first', parameters: schema } }, { type: 'function', function: { name: 'list', parameters: schema } }], messages });

describe('planScriptedTurn', () => {
  it('calls the scenario tool with its schema instance, in several argument chunks', () => {
    const turn = planScriptedTurn({ dialect: 'openai-chat', body: chat([{ role: 'user', content: 'hi' }]), tool: 'list', inputTokens: 5 });
    expect('plan' in turn && turn.plan.toolCall?.name).toBe('list');
    const call = 'plan' in turn ? turn.plan.toolCall : undefined;
    expect(call?.argumentChunks.length).toBeGreaterThan(1);
    expect(JSON.parse(joined(call?.argumentChunks ?? []))).toEqual({ path: '*' });
  });

  it('calls the first declared tool when the scenario names none, with the arguments given for it', () => {
    const turn = planScriptedTurn({ dialect: 'openai-chat', body: chat([{ role: 'user', content: 'hi' }]), tool: undefined, inputTokens: 5, toolArguments: { first: { path: '/tmp' } } });
    const call = 'plan' in turn ? turn.plan.toolCall : undefined;
    expect(call?.name).toBe('first');
    expect(JSON.parse(joined(call?.argumentChunks ?? []))).toEqual({ path: '/tmp' });
  });

  it('answers with text once the tool result is back, or when no tool is declared', () => {
    const back = planScriptedTurn({ dialect: 'openai-chat', body: chat([{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'c', content: 'x' }]), tool: 'list', inputTokens: 5 });
    expect('plan' in back && back.plan).toMatchObject({ text: [...SCRIPTED_FINAL_TEXT] });
    expect('plan' in back && back.plan.toolCall).toBeUndefined();
    const none = planScriptedTurn({ dialect: 'openai-chat', body: { messages: [] }, tool: 'list', inputTokens: 5 });
    expect('plan' in none && none.plan.toolCall).toBeUndefined();
  });

  it('refuses a scenario tool the request does not declare', () => {
    expect(planScriptedTurn({ dialect: 'openai-chat', body: chat([]), tool: 'missing', inputTokens: 5 })).toEqual({ refusal: expect.stringContaining('not among the declared tools') });
  });

  it('makes a custom (freeform) call for a Responses custom tool', () => {
    const body = { input: [{ type: 'additional_tools', tools: [{ type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec' }] }] }] };
    const turn = planScriptedTurn({ dialect: 'openai-responses', body, tool: 'exec', inputTokens: 5, toolArguments: { exec: 'run()' } });
    expect('plan' in turn && turn.plan.toolCall).toMatchObject({ name: 'exec', kind: 'custom' });
    expect(joined(('plan' in turn && turn.plan.toolCall?.argumentChunks) || [])).toBe('run()');
  });
});

describe('conversationEndsWithToolResult', () => {
  it('reads the last turn of each dialect', () => {
    expect(conversationEndsWithToolResult('anthropic-messages', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }] })).toBe(true);
    expect(conversationEndsWithToolResult('anthropic-messages', { messages: [{ role: 'user', content: [{ type: 'tool_result' }] }, { role: 'user', content: 'again' }] })).toBe(false);
    expect(conversationEndsWithToolResult('anthropic-messages', { messages: [{ role: 'user', content: [{ type: 'tool_result' }] }, { role: 'system', content: 'note' }] })).toBe(true);
    expect(conversationEndsWithToolResult('openai-responses', { input: [{ type: 'custom_tool_call_output', call_id: 'c', output: 'x' }] })).toBe(true);
    expect(conversationEndsWithToolResult('openai-responses', { input: 'just text' })).toBe(false);
    expect(conversationEndsWithToolResult('gemini', { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] }] })).toBe(true);
    expect(conversationEndsWithToolResult('gemini', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })).toBe(false);
  });
});
