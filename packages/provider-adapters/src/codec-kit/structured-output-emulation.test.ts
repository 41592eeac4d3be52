import type { AdapterStreamPartV1, AdapterTerminalOutcomeV4, ChatTaskV3, ProtocolCapabilityV3 } from '@tokenforge/model-protocol';
import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { applyStructuredOutputStrategy, structuredOutputInstruction, structuredOutputParts, structuredOutputTerminal } from './structured-output-emulation.js';

const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const task: ChatTaskV3 = {
  kind: 'chat',
  stream: false,
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Who?' }] }],
  responseFormat: { type: 'json', schema, name: 'person', strict: true },
};
const capability = (structuredOutput: ProtocolCapabilityV3['structuredOutput']): ProtocolCapabilityV3 => ({
  protocolFamily: 'openai-chat/v1',
  executionMode: 'stream-capable',
  taskKinds: ['chat'],
  tools: true,
  forcedToolChoice: true,
  structuredOutput,
});

describe('applyStructuredOutputStrategy', () => {
  it('leaves a task without a schema, or a native target, alone', () => {
    const plain = { ...task, responseFormat: { type: 'json' as const } };
    expect(applyStructuredOutputStrategy(plain, capability('forced-tool'))).toEqual({ task: plain, strategy: undefined });
    const native = applyStructuredOutputStrategy(task, capability('native-json-schema'));
    expect(native.strategy).toBe('native');
    expect(native.task).toBe(task);
  });

  it('json-object: the JSON mode without the schema, and the schema in a system segment after the client\'s', () => {
    const { task: out, strategy } = applyStructuredOutputStrategy(task, capability('json-object'));
    expect(strategy).toBe('json-object');
    expect(out).toMatchObject({ responseFormat: { type: 'json' }, system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: structuredOutputInstruction(schema) }] });
    expect((out as ChatTaskV3).responseFormat).toEqual({ type: 'json' });
    expect(structuredOutputInstruction(schema)).toContain(JSON.stringify(schema));
  });

  it('forced-tool: the reserved tool with the schema, forced, and no response format', () => {
    const { task: out, strategy } = applyStructuredOutputStrategy(task, capability('forced-tool'));
    expect(strategy).toBe('forced-tool');
    expect(out).toMatchObject({
      tools: [{ name: 'tokenforge_structured_output', inputSchema: schema, strict: true }],
      toolChoice: { type: 'tool', toolName: 'tokenforge_structured_output' },
    });
    expect('responseFormat' in out).toBe(false);
  });

  it('refuses a plan the target cannot carry, and a forced-tool schema that is not an object', () => {
    const refused = (() => {
      try {
        applyStructuredOutputStrategy({ ...task, tools: [{ name: 'own', inputSchema: { type: 'object' } }] }, capability('forced-tool'));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(isCodecErrorV1(refused) && refused.code).toBe('unsupported-feature');
    expect(() => applyStructuredOutputStrategy({ ...task, responseFormat: { type: 'json', schema: { type: 'array' } } }, capability('forced-tool'))).toThrow();
  });
});

const call = { type: 'tool-call', toolCallId: 'c1', toolName: 'tokenforge_structured_output', argumentsText: '{"name":"Ada"}' } as const;

describe('structuredOutputTerminal', () => {
  it('turns the reserved call into text and a tool-calls finish into stop', () => {
    const outcome: AdapterTerminalOutcomeV4 = { status: 'completed', result: { kind: 'chat', content: [{ ...call }] }, finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: { inputTokens: 1 } };
    expect(structuredOutputTerminal(outcome)).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text: '{"name":"Ada"}' }] },
      finishReason: { unified: 'stop', raw: 'tool_use' },
      usage: { inputTokens: 1 },
    });
  });

  it('keeps other calls and other terminals', () => {
    const other: AdapterTerminalOutcomeV4 = { status: 'completed', result: { kind: 'chat', content: [{ ...call, toolName: 'own' }] } };
    expect(structuredOutputTerminal(other)).toBe(other);
    const failed = { status: 'failed', failure: { code: 'overloaded', retryable: true } } as const;
    expect(structuredOutputTerminal(failed)).toBe(failed);
  });
});

describe('structuredOutputParts', () => {
  it('streams the reserved call as a text block and maps the terminal', async () => {
    const parts: AdapterStreamPartV1[] = [
      { type: 'tool-call-start', index: 0, toolCallId: 'c1', toolName: 'tokenforge_structured_output' },
      { type: 'tool-call-delta', index: 0, delta: '{"name"' },
      { type: 'tool-call-delta', index: 0, delta: ':"Ada"}' },
      { type: 'tool-call-end', index: 0, argumentsText: '{"name":"Ada"}' },
      { type: 'usage', usage: { outputTokens: 3 } },
      { type: 'terminal', outcome: { status: 'completed', result: { kind: 'chat', content: [call] }, finishReason: { unified: 'tool-calls', raw: 'tool_use' } } },
    ];
    const out: AdapterStreamPartV1[] = [];
    for await (const part of structuredOutputParts((async function* () { yield* parts; })())) out.push(part);
    expect(out).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: '{"name"' },
      { type: 'text-delta', index: 0, delta: ':"Ada"}' },
      { type: 'text-end', index: 0 },
      { type: 'usage', usage: { outputTokens: 3 } },
      { type: 'terminal', outcome: { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: '{"name":"Ada"}' }] }, finishReason: { unified: 'stop', raw: 'tool_use' } } },
    ]);
  });
});
