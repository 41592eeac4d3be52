import { describe, expect, it } from 'vitest';
import type { ProviderAdapterTargetV1, ProviderDiagnosticV3, TokenCountTaskV3 } from '@tokenforge/model-protocol';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createGeminiGenerateContentAdapterFactory } from './adapter.js';

const target: ProviderAdapterTargetV1 = {
  providerModel: 'gemini-2.5-flash',
  capability: { protocolFamily: 'gemini-generate-content/v1', executionMode: 'stream-capable', taskKinds: ['chat', 'token-count'] },
};

const task: TokenCountTaskV3 = {
  kind: 'token-count',
  system: [{ type: 'text', text: 'Be kind.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }],
  tools: [{ name: 'weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
  toolChoice: { type: 'auto' },
  reasoning: { budgetTokens: 2048 },
};

async function execute(response: FixtureResponseV1, diagnostics: ProviderDiagnosticV3[] = []) {
  const transport = createFixtureTransportV1({ responses: [response] });
  const adapter = createGeminiGenerateContentAdapterFactory().createAdapter();
  const execution = await adapter.execute({ task, target, transport, signal: new AbortController().signal, reportDiagnostic: (d) => diagnostics.push(d) });
  return { execution, transport };
}

describe('gemini-generate-content token counting', () => {
  it('posts the generateContent encoding of the input, with its model name, to models/{model}:countTokens', async () => {
    const { execution, transport } = await execute({
      body: { type: 'json', value: { totalTokens: 412, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 412 }] } },
    });
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        path: '/v1beta/models/gemini-2.5-flash:countTokens',
        headers: { accept: 'application/json' },
        body: {
          type: 'json',
          value: {
            generateContentRequest: {
              model: 'models/gemini-2.5-flash',
              contents: [{ role: 'user', parts: [{ text: 'Hello, how are you?' }] }],
              systemInstruction: { parts: [{ text: 'Be kind.' }] },
              tools: [
                {
                  functionDeclarations: [
                    { name: 'weather', description: 'Weather of a city', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } },
                  ],
                },
              ],
              toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
              generationConfig: { thinkingConfig: { thinkingBudget: 2048 } },
            },
          },
        },
      },
    ]);
    expect(execution).toMatchObject({
      kind: 'response',
      acceptance: { state: 'accepted' },
      terminal: { status: 'completed', result: { kind: 'token-count', inputTokens: 412 } },
    });
  });

  it.each([
    ['a missing count', { promptTokensDetails: [] }],
    ['a negative count', { totalTokens: -1 }],
    ['a fractional count', { totalTokens: 1.5 }],
    ['a string count', { totalTokens: '12' }],
    ['an array body', [1]],
  ])('ends %s as a protocol violation with a diagnostic, never as zero', async (_label, value) => {
    const diagnostics: ProviderDiagnosticV3[] = [];
    const { execution } = await execute({ body: { type: 'json', value } }, diagnostics);
    expect(execution).toMatchObject({ kind: 'response', acceptance: { state: 'unknown' }, terminal: { status: 'failed', failure: { code: 'protocol-violation' } } });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'protocol-violation' });
  });

  it('maps a provider refusal of the count like any other answer', async () => {
    const { execution } = await execute({
      status: 400,
      body: { type: 'json', value: { error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } } },
    });
    expect(execution).toMatchObject({ acceptance: { state: 'not-accepted' }, terminal: { status: 'failed', failure: { code: 'invalid-request' } } });
  });
});
