import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COHERE_RERANKING_JSON, TOGETHERAI_RERANKING_JSON, VOYAGE_RERANKING_JSON } from './__fixtures__/recorded-fixtures.js';

describe('recorded fixture constants', () => {
  it.each([
    ['vercel-ai__cohere-reranking.1.json', COHERE_RERANKING_JSON],
    ['vercel-ai__togetherai-reranking.1.json', TOGETHERAI_RERANKING_JSON],
    ['vercel-ai__voyage-reranking.1.json', VOYAGE_RERANKING_JSON],
  ])('%s equals its file byte for byte', (file, constant) => {
    expect(constant).toBe(readFileSync(new URL(`./__fixtures__/${file}`, import.meta.url), 'utf8'));
  });
});
