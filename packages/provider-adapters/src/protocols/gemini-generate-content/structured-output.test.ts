import { describe, expect, it } from 'vitest';
import { structuredOutputInstruction } from '../../codec-kit/index.js';
import { expectTextAnswer, RESERVED, runStructured, structuredCapability, structuredTask } from '../../codec-kit/test-support/structured-output-harness.js';
import { createGeminiGenerateContentAdapterFactory } from './adapter.js';

const factory = createGeminiGenerateContentAdapterFactory();
const capability = (mode: 'native-json-schema' | 'json-object' | 'forced-tool') => structuredCapability('gemini-generate-content/v1', mode);
const answer = (parts: unknown[]) => ({
  body: {
    type: 'json' as const,
    value: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 }, modelVersion: 'model-x' },
  },
});

describe('gemini-generate-content structured output', () => {
  it('native: responseMimeType application/json with responseJsonSchema', async () => {
    const { sent } = await runStructured(factory, capability('native-json-schema'), structuredTask(), answer([{ text: '{"name":"Ada"}' }]));
    expect(sent.generationConfig).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: expect.objectContaining({ type: 'object' }) });
  });

  it('json-object: application/json without a schema, and the schema in the system instruction', async () => {
    const { sent } = await runStructured(factory, capability('json-object'), structuredTask(), answer([{ text: '{"name":"Ada"}' }]));
    expect(sent.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    expect((sent.generationConfig as Record<string, unknown>).responseJsonSchema).toBeUndefined();
    expect(JSON.stringify(sent.systemInstruction)).toContain(JSON.stringify(structuredOutputInstruction({ type: 'object' }).slice(0, 40)).slice(1, -1));
  });

  it('forced-tool: the reserved function, mode ANY on it alone; the functionCall comes back as text', async () => {
    const { sent, execution } = await runStructured(factory, capability('forced-tool'), structuredTask(), answer([{ functionCall: { name: RESERVED, args: { name: 'Ada' } } }]));
    expect((sent.generationConfig as Record<string, unknown> | undefined)?.responseMimeType).toBeUndefined();
    expect(JSON.stringify(sent.tools)).toContain(RESERVED);
    expect(sent.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [RESERVED] } });
    expectTextAnswer(execution, '{"name":"Ada"}');
  });
});
