import { describe, expect, it } from 'vitest';
import { structuredOutputInstruction } from '../../codec-kit/index.js';
import { expectTextAnswer, PERSON_SCHEMA, RESERVED, runStructured, structuredCapability, structuredTask } from '../../codec-kit/test-support/structured-output-harness.js';
import { createOpenAiResponsesAdapterFactory } from './adapter.js';

const factory = createOpenAiResponsesAdapterFactory();
const capability = (mode: 'native-json-schema' | 'json-object' | 'forced-tool') => structuredCapability('openai-responses/v1', mode);
const response = (output: unknown[]) => ({
  body: { type: 'json' as const, value: { id: 'resp_1', object: 'response', status: 'completed', model: 'model-x', output, usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8 } } },
});
const textOutput = [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '{"name":"Ada"}', annotations: [] }] }];

describe('openai-responses structured output', () => {
  it('native: text.format json_schema (flat)', async () => {
    const { sent } = await runStructured(factory, capability('native-json-schema'), structuredTask(), response(textOutput));
    expect(sent.text).toEqual({ format: { type: 'json_schema', name: 'person', schema: PERSON_SCHEMA } });
  });

  it('json-object: text.format json_object and the schema in the instructions after the client\'s', async () => {
    const { sent } = await runStructured(factory, capability('json-object'), structuredTask(), response(textOutput));
    expect(sent.text).toEqual({ format: { type: 'json_object' } });
    expect(sent.instructions).toBe(`Be brief.\n\n${structuredOutputInstruction(PERSON_SCHEMA)}`);
  });

  it('forced-tool: the reserved function, forced; the function_call comes back as text', async () => {
    const call = [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: RESERVED, arguments: '{"name":"Ada"}', status: 'completed' }];
    const { sent, execution } = await runStructured(factory, capability('forced-tool'), structuredTask(), response(call));
    expect(sent.text).toBeUndefined();
    expect(sent.tools).toEqual([expect.objectContaining({ type: 'function', name: RESERVED, parameters: PERSON_SCHEMA })]);
    expect(sent.tool_choice).toEqual({ type: 'function', name: RESERVED });
    expectTextAnswer(execution, '{"name":"Ada"}');
  });
});
