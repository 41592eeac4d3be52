import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  OPENAI_ERROR_CHUNKS,
  OPENAI_ERROR_JSON,
  OPENAI_PHASE_JSON,
  OPENAI_REASONING_STEP_1_CHUNKS,
  OPENAI_REASONING_STEP_4_CHUNKS,
} from './__fixtures__/recorded-fixtures.js';
import { readFixture, splitRecordedResponses } from './test-support/stream-harness.js';

describe('recorded fixture constants', () => {
  it.each([
    ['vercel-ai__openai-error.1.chunks.txt', OPENAI_ERROR_CHUNKS],
    ['vercel-ai__openai-error.1.json', OPENAI_ERROR_JSON],
    ['vercel-ai__openai-phase.1.json', OPENAI_PHASE_JSON],
  ])('%s equals its file byte for byte', (file, constant) => {
    expect(constant).toBe(readFileSync(new URL(`./__fixtures__/${file}`, import.meta.url), 'utf8'));
  });

  it('the step constants are the first and fourth responses of the multi-step file, unchanged', () => {
    const steps = splitRecordedResponses(readFixture('vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt'));
    expect(OPENAI_REASONING_STEP_1_CHUNKS).toBe(steps[0]);
    expect(OPENAI_REASONING_STEP_4_CHUNKS).toBe(steps[3]);
  });
});
