import { describe, expect, it } from 'vitest';
import { declaredTools } from './declared-tools.js';

const schema = { type: 'object', properties: { path: { type: 'string' } } };

describe('declaredTools', () => {
  it('reads each dialect, in declaration order, leaving hosted tools out', () => {
    expect(declaredTools('anthropic-messages', { tools: [{ name: 'Read', input_schema: schema }, { type: 'web_search_20250305', name: 'web_search' }] })).toEqual([{ name: 'Read', kind: 'function', schema }]);
    expect(declaredTools('openai-chat', { tools: [{ type: 'function', function: { name: 'list', parameters: schema } }] })).toEqual([{ name: 'list', kind: 'function', schema }]);
    expect(declaredTools('gemini', { tools: [{ functionDeclarations: [{ name: 'a', parametersJsonSchema: schema }, { name: 'b', parameters: schema }] }, { googleSearch: {} }] }).map((tool) => tool.name)).toEqual(['a', 'b']);
  });

  it('finds Responses tools at the top level, in additional_tools items and inside namespaces', () => {
    const body = {
      tools: [{ type: 'function', name: 'top', parameters: schema }, { type: 'web_search' }],
      input: [
        { type: 'additional_tools', tools: [{ type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec' }, { type: 'function', name: 'wait', parameters: schema }] }] },
        { type: 'message', role: 'user', content: 'hi' },
      ],
    };
    expect(declaredTools('openai-responses', body).map((tool) => `${tool.kind}:${tool.name}`)).toEqual(['function:top', 'custom:exec', 'function:wait']);
  });

  it('is empty for a request without tools or with malformed ones', () => {
    expect(declaredTools('openai-chat', {})).toEqual([]);
    expect(declaredTools('anthropic-messages', { tools: 'nope' })).toEqual([]);
    expect(declaredTools('openai-chat', { tools: [{ type: 'function', function: { name: 3 } }] })).toEqual([]);
  });
});
