import { describe, expect, it } from 'vitest';
import {
  expectStreamedText,
  expectTextAnswer,
  PERSON_SCHEMA,
  partsOf,
  RESERVED,
  runStructured,
  sseNamed,
  structuredCapability,
  structuredTask,
} from '../../codec-kit/test-support/structured-output-harness.js';
import { createAnthropicMessagesAdapterFactory } from './adapter.js';

const factory = createAnthropicMessagesAdapterFactory();
const capability = (mode: 'native-json-schema' | 'json-object' | 'forced-tool') => structuredCapability('anthropic-messages/v1', mode);
const message = (content: unknown[], stopReason: string) => ({
  body: {
    type: 'json' as const,
    value: { id: 'msg_1', type: 'message', role: 'assistant', model: 'model-x', content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 3 } },
  },
});

describe('anthropic-messages structured output', () => {
  it('native: output_config.format json_schema', async () => {
    const { sent } = await runStructured(factory, capability('native-json-schema'), structuredTask(), message([{ type: 'text', text: '{"name":"Ada"}' }], 'end_turn'));
    expect(sent.output_config).toEqual({ format: { type: 'json_schema', schema: PERSON_SCHEMA } });
    expect(sent.tools).toBeUndefined();
  });

  it('json-object: refused, nothing sent (the dialect has no JSON-object mode)', async () => {
    const { execution } = await runStructured(factory, capability('json-object'), structuredTask(), message([], 'end_turn'));
    expect(execution).toMatchObject({ kind: 'response', acceptance: { state: 'not-accepted' }, terminal: { status: 'failed', failure: { code: 'unsupported' } } });
  });

  it('forced-tool: the reserved tool, tool_choice tool, no output_config; the tool_use comes back as text', async () => {
    const reply = message([{ type: 'tool_use', id: 'toolu_1', name: RESERVED, input: { name: 'Ada' } }], 'tool_use');
    const { sent, execution } = await runStructured(factory, capability('forced-tool'), structuredTask(), reply);
    expect(sent.output_config).toBeUndefined();
    expect(sent.tools).toEqual([expect.objectContaining({ name: RESERVED, input_schema: PERSON_SCHEMA })]);
    expect(sent.tool_choice).toEqual({ type: 'tool', name: RESERVED });
    expectTextAnswer(execution, '{"name":"Ada"}');
  });

  it('forced-tool stream: input_json_delta fragments stream as text deltas', async () => {
    const stream = sseNamed([
      { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'model-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: RESERVED, input: {} } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"name":' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Ada"}' } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 3 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
    const { execution } = await runStructured(factory, capability('forced-tool'), structuredTask(true), stream);
    expectStreamedText(await partsOf(execution), '{"name":"Ada"}');
  });
});
