import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderSimulator, type ProviderSimulator } from '../start-provider-simulator.js';
import { send } from '../test-support/simulator-client.js';

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator({ scriptedToolArguments: { list_files: { path: '.' }, exec: 'ls()' } });
});
afterAll(async () => {
  await simulator.close();
});

const schema = { type: 'object', required: ['path'], properties: { path: { type: 'string' } } };
const scenario = { 'x-simulator-scenario': 'scripted.list_files' };
const openAi = (): Record<string, string> => ({ authorization: `Bearer ${simulator.credentials.openAiApiKey}`, ...scenario });
const anthropic = (): Record<string, string> => ({ 'x-api-key': simulator.credentials.anthropicApiKey, 'anthropic-version': '2023-06-01', ...scenario });
const gemini = (): Record<string, string> => ({ 'x-goog-api-key': simulator.credentials.geminiApiKey, ...scenario });

/** The `data:` payloads of an SSE body, parsed (the `[DONE]` marker kept as a string). */
function payloads(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));
}

describe('scripted model: a call of the declared tool, then text once its result is back', () => {
  it('anthropic-messages streams a tool_use block with input_json_delta fragments, then text', async () => {
    const tools = [{ name: 'other', input_schema: schema }, { name: 'list_files', input_schema: schema }];
    const first = await send(simulator, 'POST', '/v1/messages', anthropic(), { model: 'm', max_tokens: 100, stream: true, tools, messages: [{ role: 'user', content: 'list' }] });
    const events = payloads(first.text) as { type: string; content_block?: { type: string; name?: string }; delta?: { partial_json?: string; stop_reason?: string } }[];
    expect(events.find((event) => event.type === 'content_block_start')?.content_block).toMatchObject({ type: 'tool_use', name: 'list_files' });
    expect(JSON.parse(events.map((event) => event.delta?.partial_json ?? '').join(''))).toEqual({ path: '.' });
    expect(events.filter((event) => event.delta?.partial_json !== undefined).length).toBeGreaterThan(2);
    expect(events.find((event) => event.type === 'message_delta')?.delta?.stop_reason).toBe('tool_use');
    const messages = [
      { role: 'user', content: 'list' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_sim0001', name: 'list_files', input: { path: '.' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_sim0001', content: 'a.txt' }] },
    ];
    const second = await send(simulator, 'POST', '/v1/messages', anthropic(), { model: 'm', max_tokens: 100, stream: false, tools, messages });
    expect(second.json).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'The tool returned its result.' }] });
  });

  it('openai-chat streams tool_calls deltas ending with finish_reason tool_calls and [DONE], then text', async () => {
    const tools = [{ type: 'function', function: { name: 'list_files', parameters: schema } }];
    const first = await send(simulator, 'POST', '/v1/chat/completions', openAi(), { model: 'm', stream: true, tools, messages: [{ role: 'user', content: 'list' }] });
    const chunks = payloads(first.text);
    expect(chunks[chunks.length - 1]).toBe('[DONE]');
    const deltas = (chunks.slice(0, -1) as { choices: { delta: { tool_calls?: { function: { name?: string; arguments?: string } }[] }; finish_reason: string | null }[] }[]).flatMap((chunk) => chunk.choices);
    expect(deltas.flatMap((choice) => choice.delta.tool_calls ?? []).find((call) => call.function.name !== undefined)?.function.name).toBe('list_files');
    expect(JSON.parse(deltas.flatMap((choice) => choice.delta.tool_calls ?? []).map((call) => call.function.arguments ?? '').join(''))).toEqual({ path: '.' });
    expect(deltas.map((choice) => choice.finish_reason).filter((reason) => reason !== null)).toEqual(['tool_calls']);
    const messages = [{ role: 'user', content: 'list' }, { role: 'assistant', tool_calls: [{ id: 'call_sim_0001', type: 'function', function: { name: 'list_files', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'call_sim_0001', content: 'a.txt' }];
    const second = await send(simulator, 'POST', '/v1/chat/completions', openAi(), { model: 'm', tools, messages });
    expect(second.json).toMatchObject({ choices: [{ finish_reason: 'stop', message: { content: 'The tool returned its result.' } }] });
  });

  it('openai-responses streams a function_call item, and a custom_tool_call for a freeform tool, then text', async () => {
    const tools = [{ type: 'function', name: 'list_files', parameters: schema }];
    const first = await send(simulator, 'POST', '/v1/responses', openAi(), { model: 'm', stream: true, tools, input: 'list' });
    const events = payloads(first.text) as { type: string; item?: { type: string; name?: string; arguments?: string }; delta?: string }[];
    expect(events.find((event) => event.type === 'response.output_item.added')?.item).toMatchObject({ type: 'function_call', name: 'list_files' });
    expect(JSON.parse(events.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => event.delta).join(''))).toEqual({ path: '.' });
    expect(events[events.length - 1]?.type).toBe('response.completed');

    const custom = { input: [{ type: 'additional_tools', tools: [{ type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec' }] }] }, { type: 'message', role: 'user', content: 'run' }] };
    const freeform = await send(simulator, 'POST', '/v1/responses', { ...openAi(), 'x-simulator-scenario': 'scripted.exec' }, { model: 'm', stream: true, ...custom });
    const freeformEvents = payloads(freeform.text) as { type: string; item?: { type: string }; delta?: string; input?: string }[];
    expect(freeformEvents.find((event) => event.type === 'response.output_item.done')?.item).toMatchObject({ type: 'custom_tool_call', name: 'exec', input: 'ls()' });
    expect(freeformEvents.filter((event) => event.type === 'response.custom_tool_call_input.delta').map((event) => event.delta).join('')).toBe('ls()');
    expect(freeformEvents.find((event) => event.type === 'response.custom_tool_call_input.done')?.input).toBe('ls()');

    const back = { input: [...custom.input, { type: 'custom_tool_call', call_id: 'call_sim_0001', name: 'exec', input: 'ls()' }, { type: 'custom_tool_call_output', call_id: 'call_sim_0001', output: 'a.txt' }] };
    const second = await send(simulator, 'POST', '/v1/responses', { ...openAi(), 'x-simulator-scenario': 'scripted.exec' }, { model: 'm', ...back });
    expect(second.json).toMatchObject({ status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'The tool returned its result.' }] }] });
  });

  it('gemini streams a functionCall part, then text once a functionResponse comes back', async () => {
    const tools = [{ functionDeclarations: [{ name: 'list_files', parametersJsonSchema: schema }] }];
    const first = await send(simulator, 'POST', '/v1beta/models/m:streamGenerateContent?alt=sse', gemini(), { tools, contents: [{ role: 'user', parts: [{ text: 'list' }] }] });
    const chunks = payloads(first.text) as { candidates?: { content: { parts: { functionCall?: { name: string; args: unknown } }[] } }[] }[];
    const call = chunks.flatMap((chunk) => chunk.candidates ?? []).flatMap((candidate) => candidate.content.parts).find((part) => part.functionCall !== undefined);
    expect(call?.functionCall).toEqual({ name: 'list_files', args: { path: '.' } });
    const contents = [{ role: 'user', parts: [{ text: 'list' }] }, { role: 'model', parts: [{ functionCall: { name: 'list_files', args: { path: '.' } } }] }, { role: 'user', parts: [{ functionResponse: { name: 'list_files', response: { output: 'a.txt' } } }] }];
    const second = await send(simulator, 'POST', '/v1beta/models/m:generateContent', gemini(), { tools, contents });
    expect(second.json).toMatchObject({ candidates: [{ content: { parts: [{ text: 'The tool returned its result.' }] } }] });
  });

  it('answers the dialect 400 when the scenario names a tool the request does not declare; the model name can pick the scenario', async () => {
    const refused = await send(simulator, 'POST', '/v1/chat/completions', { authorization: `Bearer ${simulator.credentials.openAiApiKey}` }, { model: 'scripted.missing', tools: [{ type: 'function', function: { name: 'list_files' } }], messages: [{ role: 'user', content: 'x' }] });
    expect(refused).toMatchObject({ status: 400, json: { error: { type: 'invalid_request_error' } } });
    const byModel = await send(simulator, 'POST', '/v1/chat/completions', { authorization: `Bearer ${simulator.credentials.openAiApiKey}` }, { model: 'scripted', tools: [{ type: 'function', function: { name: 'list_files', parameters: schema } }], messages: [{ role: 'user', content: 'x' }] });
    expect(byModel.json).toMatchObject({ choices: [{ finish_reason: 'tool_calls', message: { tool_calls: [{ function: { name: 'list_files' } }] } }] });
  });
});
