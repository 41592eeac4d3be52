import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GPT_IMAGE_RESPONSE_FORMAT_ERROR_JSON, OPENAI_IMAGE_EDIT_JSON, OPENAI_IMAGE_JSON } from './__fixtures__/recorded-fixtures.js';

describe('recorded fixture constants', () => {
  it.each([
    ['vercel-ai__openai-image.json', OPENAI_IMAGE_JSON],
    ['vercel-ai__openai-image-edit.json', OPENAI_IMAGE_EDIT_JSON],
    ['vercel-ai__gpt-image-response-format-error.json', GPT_IMAGE_RESPONSE_FORMAT_ERROR_JSON],
  ])('%s equals its file byte for byte', (file, constant) => {
    expect(constant).toBe(readFileSync(new URL(`./__fixtures__/${file}`, import.meta.url), 'utf8'));
  });
});
