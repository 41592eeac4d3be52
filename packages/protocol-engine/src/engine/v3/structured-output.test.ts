import type { ProtocolCapabilityV3, ProviderDiagnosticV3, ProviderDispatchTargetV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  CHAT_FAMILY,
  SECRET_CONNECTION,
  SECRET_MODEL,
  SECRET_PROVIDER,
  chatTask,
  collect,
  countingBinding,
  newSignal,
  registryOf,
  respondWith,
  streamFactory,
  syncFactory,
  terminalPart,
  textBlock,
} from '../../test-support/fakes.js';
import { createProtocolEngineV1 } from '../v1/create-protocol-engine-v1.js';

const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }, required: ['name', 'age'], additionalProperties: false };
const asked = { responseFormat: { type: 'json', schema } };

function target(capability: Partial<ProtocolCapabilityV3> = {}): ProviderDispatchTargetV3 {
  return {
    provider: SECRET_PROVIDER,
    providerModel: SECRET_MODEL,
    connectionRef: SECRET_CONNECTION,
    capability: { protocolFamily: CHAT_FAMILY, executionMode: 'stream-capable', taskKinds: ['chat'], structuredOutput: 'native-json-schema', ...capability },
  };
}

const completed = (text: string, finish = 'stop') => ({
  status: 'completed',
  result: { kind: 'chat', content: [{ type: 'text', text }] },
  finishReason: { unified: finish, raw: finish },
  usage: { inputTokens: 4, outputTokens: 6 },
});

async function runSync(task: Record<string, unknown>, terminal: unknown, capability: Partial<ProtocolCapabilityV3> = {}) {
  const diagnostics: ProviderDiagnosticV3[] = [];
  const engine = createProtocolEngineV1({ registry: registryOf([syncFactory(respondWith(terminal))]) });
  const execution = await engine.execute({
    binding: countingBinding(target(capability)).binding,
    task: chatTask(task),
    signal: newSignal(),
    observer: { onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) },
  });
  if (execution.kind !== 'response') throw new Error('expected a response');
  return { terminal: execution.terminal, diagnostics };
}

async function refusal(task: Record<string, unknown>, capability: Partial<ProtocolCapabilityV3>) {
  const factory = syncFactory(respondWith(completed('{}')));
  const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
  const { binding, calls } = countingBinding(target(capability));
  try {
    await engine.execute({ binding, task: chatTask(task), signal: newSignal() });
  } catch (error) {
    if (!isProtocolEngineErrorV1(error)) throw error;
    return { code: error.code, phase: error.phase, calls: calls.count };
  }
  throw new Error('expected a refusal');
}

describe('engine structured output: the terminal check (sync)', () => {
  it('passes a conforming answer unchanged', async () => {
    const terminal = completed('{"name":"Ada","age":36}');
    expect((await runSync(asked, terminal)).terminal).toEqual(terminal);
  });

  it('fails a non-conforming answer with output-schema-mismatch, not retryable, usage kept, path in the diagnostics only', async () => {
    const { terminal, diagnostics } = await runSync(asked, completed('{"name":"Ada","age":-1}'));
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'output-schema-mismatch', retryable: false }, usage: { inputTokens: 4, outputTokens: 6 } });
    expect(diagnostics).toEqual([{ code: 'output-schema-mismatch', rule: 'less than 0', location: '$.age' }]);
    expect((await runSync(asked, completed('not json'))).terminal).toMatchObject({ status: 'failed', failure: { code: 'output-schema-mismatch' } });
    expect((await runSync(asked, completed('{"name":"Ada"}'))).terminal).toMatchObject({ status: 'failed' });
  });

  it('checks nothing without a schema, and lets keywords outside the subset pass', async () => {
    expect((await runSync({}, completed('not json'))).terminal.status).toBe('completed');
    expect((await runSync({ responseFormat: { type: 'json' } }, completed('not json'))).terminal.status).toBe('completed');
    const unchecked = { responseFormat: { type: 'json', schema: { type: 'object', properties: { id: { type: 'string', pattern: '^a' } } } } };
    expect((await runSync(unchecked, completed('{"id":"zzz"}'))).terminal.status).toBe('completed');
  });

  it('leaves answers that are not final alone: cut short, tool turns', async () => {
    expect((await runSync(asked, completed('{"name":', 'length'))).terminal.status).toBe('completed');
    const toolTurn = {
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', argumentsText: '{}' }] },
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    };
    const withTool = { ...asked, tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] };
    expect((await runSync(withTool, toolTurn, { tools: true })).terminal.status).toBe('completed');
  });
});

describe('engine structured output: the terminal check (stream)', () => {
  it('streams the text, then fails the terminal on a mismatch (the text already went out)', async () => {
    const text = '{"name":"Ada","age":"old"}';
    const parts = [...textBlock(0, text.slice(0, 10), text.slice(10)), terminalPart(completed(text))];
    const engine = createProtocolEngineV1({ registry: registryOf([streamFactory(parts)]) });
    const execution = await engine.execute({ binding: countingBinding(target()).binding, task: chatTask({ ...asked, stream: true }), signal: newSignal() });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const events = await collect(execution.events);
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(2);
    expect(await execution.terminal).toEqual({ status: 'failed', failure: { code: 'output-schema-mismatch', retryable: false }, usage: { inputTokens: 4, outputTokens: 6 } });
  });

  it('completes a conforming stream', async () => {
    const text = '{"name":"Ada","age":36}';
    const engine = createProtocolEngineV1({ registry: registryOf([streamFactory([...textBlock(0, text), terminalPart(completed(text))])]) });
    const execution = await engine.execute({ binding: countingBinding(target()).binding, task: chatTask({ ...asked, stream: true }), signal: newSignal() });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    await collect(execution.events);
    expect((await execution.terminal).status).toBe('completed');
  });
});

describe('engine structured output: refusals before any transport work', () => {
  const forced = { structuredOutput: 'forced-tool', tools: true, forcedToolChoice: true } as const;
  const tool = { name: 'lookup', inputSchema: { type: 'object' } };

  it('refuses forced-tool beside the task\'s own tools, and with reasoning the target cannot force through', async () => {
    expect(await refusal({ ...asked, tools: [tool] }, forced)).toEqual({ code: 'PROTOCOL_ENGINE_STRUCTURED_OUTPUT_CONFLICT', phase: 'input', calls: 0 });
    expect(await refusal({ ...asked, reasoning: { effort: 'high' } }, { ...forced, reasoning: true })).toMatchObject({ code: 'PROTOCOL_ENGINE_STRUCTURED_OUTPUT_CONFLICT', calls: 0 });
    expect((await runSync({ ...asked, reasoning: { effort: 'high' } }, completed('{"name":"a","age":1}'), { ...forced, reasoning: true, forcedToolChoiceWithReasoning: true })).terminal.status).toBe('completed');
  });

  it('refuses a schema on a target without structured output, or forced-tool without forcing', async () => {
    expect(await refusal(asked, { structuredOutput: 'none' })).toMatchObject({ code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', calls: 0 });
    expect(await refusal(asked, { structuredOutput: 'forced-tool', tools: true })).toMatchObject({ code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', calls: 0 });
  });

  it('refuses a task tool with the reserved name', async () => {
    const reserved = { name: 'tokenforge_structured_output', inputSchema: { type: 'object' } };
    expect(await refusal({ tools: [reserved] }, { tools: true })).toMatchObject({ code: 'PROTOCOL_ENGINE_INPUT_INVALID', calls: 0 });
  });

  it('refuses a forced tool choice on a target that cannot force', async () => {
    const choice = { tools: [tool], toolChoice: { type: 'tool', toolName: 'lookup' } };
    expect(await refusal(choice, { tools: true })).toMatchObject({ code: 'PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED', calls: 0 });
    expect(await refusal({ tools: [tool], toolChoice: { type: 'required' } }, { tools: true, forcedToolChoice: false })).toMatchObject({ code: 'PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED' });
  });
});
