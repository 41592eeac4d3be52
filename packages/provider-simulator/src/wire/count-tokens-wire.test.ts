import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderSimulator, type ProviderSimulator } from '../start-provider-simulator.js';
import { send } from '../test-support/simulator-client.js';
import { SIMULATOR_COUNT_BYTES_PER_TOKEN, simulatedInputTokens } from './count-tokens-wire.js';

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator();
});
afterAll(async () => {
  await simulator.close();
});

const anthropic = () => ({ 'x-api-key': simulator.credentials.anthropicApiKey, 'anthropic-version': '2023-06-01' });
const openAi = () => ({ authorization: `Bearer ${simulator.credentials.openAiApiKey}` });
const gemini = () => ({ 'x-goog-api-key': simulator.credentials.geminiApiKey });

const messages = [{ role: 'user', content: 'How many tokens is this?' }];
const expected = (members: readonly unknown[]) => Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(members)) / SIMULATOR_COUNT_BYTES_PER_TOKEN));

describe('simulator counting endpoints', () => {
  it('anthropic POST /v1/messages/count_tokens answers {input_tokens} from the counted members, deterministically', async () => {
    const body = { model: 'claude-sonnet-4-5', system: 'Be brief.', messages };
    const first = await send(simulator, 'POST', '/v1/messages/count_tokens', anthropic(), body);
    expect(first).toMatchObject({ status: 200, json: { input_tokens: expected(['Be brief.', messages, null, null, null]) } });
    expect((await send(simulator, 'POST', '/v1/messages/count_tokens', anthropic(), body)).json).toEqual(first.json);
    const withTools = await send(simulator, 'POST', '/v1/messages/count_tokens', anthropic(), { ...body, tools: [{ name: 'weather', input_schema: { type: 'object' } }] });
    expect(withTools.json.input_tokens).toBeGreaterThan(first.json.input_tokens);
    expect(await send(simulator, 'POST', '/v1/messages/count_tokens', anthropic(), { model: 'claude-sonnet-4-5' })).toMatchObject({
      status: 400,
      json: { type: 'error', error: { type: 'invalid_request_error' } },
    });
    expect((await send(simulator, 'POST', '/v1/messages/count_tokens', { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' }, body)).status).toBe(401);
  });

  it('openai POST /v1/responses/input_tokens answers {object: response.input_tokens, input_tokens}', async () => {
    const body = { model: 'gpt-5-mini', instructions: 'Be brief.', input: 'Count me.' };
    const answer = await send(simulator, 'POST', '/v1/responses/input_tokens', openAi(), body);
    expect(answer).toMatchObject({ status: 200, json: { object: 'response.input_tokens', input_tokens: expected(['Be brief.', 'Count me.', null, null, null]) } });
    expect((await send(simulator, 'POST', '/v1/responses/input_tokens', openAi(), { model: 'gpt-5-mini' })).status).toBe(400);
  });

  it('gemini POST models/{model}:countTokens takes contents or generateContentRequest and answers {totalTokens}', async () => {
    const contents = [{ role: 'user', parts: [{ text: 'Count me.' }] }];
    const path = '/v1beta/models/gemini-2.5-flash:countTokens';
    const bare = await send(simulator, 'POST', path, gemini(), { contents });
    expect(bare).toMatchObject({ status: 200, json: { totalTokens: expected([null, contents, null, null, null]) } });
    const full = await send(simulator, 'POST', path, gemini(), {
      generateContentRequest: { model: 'models/gemini-2.5-flash', contents, systemInstruction: { parts: [{ text: 'Be brief.' }] } },
    });
    expect(full.json.totalTokens).toBe(simulatedInputTokens('gemini', { contents, systemInstruction: { parts: [{ text: 'Be brief.' }] } }));
    expect(full.json.totalTokens).toBeGreaterThan(bare.json.totalTokens);
    expect(await send(simulator, 'POST', path, gemini(), { contents, generateContentRequest: { model: 'models/x', contents } })).toMatchObject({
      status: 400,
      json: { error: { status: 'INVALID_ARGUMENT' } },
    });
  });

  it('error scenarios come in the dialect envelope, from the scenario header or the model name', async () => {
    const refused = await send(simulator, 'POST', '/v1/messages/count_tokens', { ...anthropic(), 'x-simulator-scenario': 'error.529' }, { model: 'claude', messages });
    expect(refused).toMatchObject({ status: 529, json: { type: 'error', error: { type: 'overloaded_error' } } });
    expect((await send(simulator, 'POST', '/v1beta/models/error.503:countTokens', gemini(), { contents: [{ parts: [{ text: 'x' }] }] })).status).toBe(503);
  });
});
