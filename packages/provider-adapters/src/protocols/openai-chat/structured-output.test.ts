import { describe, expect, it } from 'vitest';
import { structuredOutputInstruction } from '../../codec-kit/index.js';
import {
  expectStreamedText,
  expectTextAnswer,
  PERSON_SCHEMA,
  partsOf,
  RESERVED,
  runStructured,
  sse,
  structuredCapability,
  structuredTask,
} from '../../codec-kit/test-support/structured-output-harness.js';
import { createOpenAiChatAdapterFactory } from './adapter.js';

const factory = createOpenAiChatAdapterFactory();
const capability = (mode: 'native-json-schema' | 'json-object' | 'forced-tool') => structuredCapability('openai-chat/v1', mode);
const textBody = (content: string) => ({
  body: {
    type: 'json' as const,
    value: { id: 'c1', object: 'chat.completion', created: 1, model: 'model-x', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] },
  },
});
const toolBody = {
  body: {
    type: 'json' as const,
    value: {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'model-x',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: RESERVED, arguments: '{"name":"Ada"}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    },
  },
};
const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'model-x', choices: [{ index: 0, delta, finish_reason: finish }] });

describe('openai-chat structured output', () => {
  it('native: response_format json_schema', async () => {
    const { sent } = await runStructured(factory, capability('native-json-schema'), structuredTask(), textBody('{"name":"Ada"}'));
    expect(sent.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'person', schema: PERSON_SCHEMA } });
    expect(sent.tools).toBeUndefined();
  });

  it('json-object: response_format json_object and the schema in a system message after the client\'s', async () => {
    const { sent } = await runStructured(factory, capability('json-object'), structuredTask(), textBody('{"name":"Ada"}'));
    expect(sent.response_format).toEqual({ type: 'json_object' });
    const system = (sent.messages as { role: string; content: unknown }[]).filter((message) => message.role === 'system' || message.role === 'developer');
    expect(JSON.stringify(system)).toContain('Be brief.');
    expect(JSON.stringify(system)).toContain(JSON.stringify(structuredOutputInstruction(PERSON_SCHEMA)).slice(1, -1));
  });

  it('forced-tool: the reserved function, forced, no response_format; its call comes back as text', async () => {
    const { sent, execution } = await runStructured(factory, capability('forced-tool'), structuredTask(), toolBody);
    expect(sent.response_format).toBeUndefined();
    expect(sent.tools).toEqual([{ type: 'function', function: expect.objectContaining({ name: RESERVED, parameters: PERSON_SCHEMA }) }]);
    expect(sent.tool_choice).toEqual({ type: 'function', function: { name: RESERVED } });
    expectTextAnswer(execution, '{"name":"Ada"}');
  });

  it('forced-tool stream: the call\'s argument deltas stream as text deltas', async () => {
    const stream = sse(
      [
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: RESERVED, arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"name":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"Ada"}' } }] }),
        chunk({}, 'tool_calls'),
      ],
      true,
    );
    const { execution } = await runStructured(factory, capability('forced-tool'), structuredTask(true), stream);
    expectStreamedText(await partsOf(execution), '{"name":"Ada"}');
  });
});
