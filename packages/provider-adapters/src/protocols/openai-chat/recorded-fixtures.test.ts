import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALIBABA_TOOL_CALL_CHUNKS, AZURE_MODEL_ROUTER_CHUNKS, DEEPSEEK_REASONING_JSON } from './__fixtures__/recorded-fixtures.js';

describe('recorded fixture constants', () => {
  it.each([
    ['vercel-ai__azure-model-router.1.chunks.txt', AZURE_MODEL_ROUTER_CHUNKS],
    ['vercel-ai__alibaba-tool-call.chunks.txt', ALIBABA_TOOL_CALL_CHUNKS],
    ['vercel-ai__deepseek-reasoning.json', DEEPSEEK_REASONING_JSON],
  ])('%s equals its file byte for byte', (file, constant) => {
    expect(constant).toBe(readFileSync(new URL(`./__fixtures__/${file}`, import.meta.url), 'utf8'));
  });
});
