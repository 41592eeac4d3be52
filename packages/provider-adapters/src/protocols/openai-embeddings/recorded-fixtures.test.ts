import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAI_EMBEDDING_JSON } from './__fixtures__/recorded-fixtures.js';

describe('recorded fixture constants', () => {
  it('vercel-ai__openai-embedding.json equals its file byte for byte', () => {
    expect(OPENAI_EMBEDDING_JSON).toBe(readFileSync(new URL('./__fixtures__/vercel-ai__openai-embedding.json', import.meta.url), 'utf8'));
  });
});
