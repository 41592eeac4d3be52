import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_FIXTURE_CONSTANTS } from './__fixtures__/recorded-fixtures.js';

describe('anthropic-messages fixture constants', () => {
  it.each(Object.entries(ANTHROPIC_FIXTURE_CONSTANTS))('%s equals its file byte for byte', (name, text) => {
    expect(text).toBe(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));
  });
});
