import type { AdapterTerminalOutcomeV4, ChatMessageV2, ProtocolFamily } from '@tokenforge/model-protocol';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindSimulator, engine } from '../../simulator/test-support/simulator-client.js';

const FAMILIES: ProtocolFamily[] = ['openai-chat/v1', 'anthropic-messages/v1', 'gemini-generate-content/v1', 'openai-responses/v1'];
const signal = new AbortController().signal;
const tools = [
  { name: 'read_file', inputSchema: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } } },
  { name: 'list_files', inputSchema: { type: 'object', required: ['dir', 'depth'], properties: { dir: { type: 'string' }, depth: { type: 'integer' } } } },
];
const question: ChatMessageV2[] = [{ role: 'user', content: [{ type: 'text', text: 'list the files' }] }];

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator();
});
afterAll(async () => {
  await simulator.close();
});

async function run(family: ProtocolFamily, messages: ChatMessageV2[], stream: boolean): Promise<{ terminal: AdapterTerminalOutcomeV4; events: string[] }> {
  const binding = bindSimulator(simulator, family, 'scripted.list_files', { executionMode: 'stream-capable', taskKinds: ['chat'], tools: true });
  const execution = await engine.execute({ binding, task: { kind: 'chat', messages, tools, stream, maxOutputTokens: 256 }, signal });
  if (execution.kind === 'response') return { terminal: execution.terminal, events: [] };
  if (execution.kind !== 'stream') throw new Error(`unexpected ${execution.kind}`);
  const events: string[] = [];
  for await (const event of execution.events) events.push(event.type);
  return { terminal: await execution.terminal, events };
}

describe.each(FAMILIES)('scripted model through engine + http-transport: %s', (family) => {
  it.each([true, false])('calls the scenario tool, then answers with text once the result is back (stream %s)', async (stream) => {
    const first = await run(family, question, stream);
    expect(first.terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'tool-calls' } });
    const parts = first.terminal.status === 'completed' && first.terminal.result.kind === 'chat' ? first.terminal.result.content : [];
    const call = parts.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ toolName: 'list_files' });
    expect(JSON.parse((call as { argumentsText: string }).argumentsText)).toEqual({ dir: '*', depth: 1 });
    if (stream) expect(first.events.filter((type) => type === 'tool-call-delta').length).toBeGreaterThan(family === 'gemini-generate-content/v1' ? 0 : 1);

    const toolCallId = (call as { toolCallId: string }).toolCallId;
    const back: ChatMessageV2[] = [
      ...question,
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: 'list_files', argumentsText: '{"dir":"*","depth":1}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: 'list_files', content: [{ type: 'text', text: 'a.txt b.txt' }] }] },
    ];
    const second = await run(family, back, stream);
    expect(second.terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'stop' }, result: { content: [{ type: 'text', text: 'The tool returned its result.' }] } });
  });
});
