import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSimulatorScenario } from '../scenario.js';
import { startProviderSimulator, type ProviderSimulator } from '../start-provider-simulator.js';
import { send } from '../test-support/simulator-client.js';

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator();
});
afterAll(async () => {
  await simulator.close();
});

const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 3 } }, required: ['name', 'age'] };
const openAi = (): Record<string, string> => ({ authorization: `Bearer ${simulator.credentials.openAiApiKey}` });
const anthropic = (): Record<string, string> => ({ 'x-api-key': simulator.credentials.anthropicApiKey, 'anthropic-version': '2023-06-01' });
const gemini = (): Record<string, string> => ({ 'x-goog-api-key': simulator.credentials.geminiApiKey });
const user = [{ role: 'user', content: 'Who?' }];

describe('the structured scenario', () => {
  it('parses structured and structured.bad only', () => {
    expect(parseSimulatorScenario('structured')).toEqual({ kind: 'structured', bad: false });
    expect(parseSimulatorScenario('structured.bad')).toEqual({ kind: 'structured', bad: true });
    expect(parseSimulatorScenario('structured.worse')).toBeUndefined();
  });

  it('answers an instance of the native schema as text, in every dialect', async () => {
    const chat = await send(simulator, 'POST', '/v1/chat/completions', openAi(), { model: 'structured', messages: user, response_format: { type: 'json_schema', json_schema: { name: 'p', schema } } });
    expect(JSON.parse(chat.json.choices[0].message.content)).toEqual({ name: '*', age: 3 });
    const responses = await send(simulator, 'POST', '/v1/responses', openAi(), { model: 'structured', input: 'Who?', text: { format: { type: 'json_schema', name: 'p', schema } } });
    const message = responses.json.output.find((item: { type: string }) => item.type === 'message');
    expect(JSON.parse(message.content[0].text)).toEqual({ name: '*', age: 3 });
    const messages = await send(simulator, 'POST', '/v1/messages', anthropic(), { model: 'structured', max_tokens: 50, messages: user, output_config: { format: { type: 'json_schema', schema } } });
    expect(JSON.parse(messages.json.content[0].text)).toEqual({ name: '*', age: 3 });
    const generated = await send(simulator, 'POST', '/v1beta/models/structured:generateContent', gemini(), {
      contents: [{ role: 'user', parts: [{ text: 'Who?' }] }],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
    });
    expect(JSON.parse(generated.json.candidates[0].content.parts[0].text)).toEqual({ name: '*', age: 3 });
  });

  it('reads the schema from the last system line in JSON-object mode, and breaks it with .bad', async () => {
    const system = { role: 'system', content: `Be brief.\nAnswer with JSON matching:\n${JSON.stringify(schema)}` };
    const good = await send(simulator, 'POST', '/v1/chat/completions', openAi(), { model: 'structured', messages: [system, ...user], response_format: { type: 'json_object' } });
    expect(JSON.parse(good.json.choices[0].message.content)).toEqual({ name: '*', age: 3 });
    const bad = await send(simulator, 'POST', '/v1/chat/completions', openAi(), { model: 'structured.bad', messages: [system, ...user], response_format: { type: 'json_object' } });
    expect(JSON.parse(bad.json.choices[0].message.content)).toEqual({});
  });

  it('answers a forced tool with a call whose arguments are the instance', async () => {
    const tools = [{ name: 'tokenforge_structured_output', input_schema: schema }];
    const answer = await send(simulator, 'POST', '/v1/messages', anthropic(), { model: 'structured', max_tokens: 50, messages: user, tools, tool_choice: { type: 'tool', name: 'tokenforge_structured_output' } });
    expect(answer.json.content[0]).toMatchObject({ type: 'tool_use', name: 'tokenforge_structured_output', input: { name: '*', age: 3 } });
    expect(answer.json.stop_reason).toBe('tool_use');
  });
});
