import { describe, expect, it } from 'vitest';
import { clientFieldPath, SNAKE_CASE_SAMPLING_NAMES } from './client-field-path.js';

describe('clientFieldPath', () => {
  it('renames the longest known prefix and keeps the rest of the path', () => {
    const names = { ...SNAKE_CASE_SAMPLING_NAMES, maxOutputTokens: 'max_tokens', stopSequences: 'stop_sequences' };
    expect(clientFieldPath(['sampling', 'temperature'], names)).toBe('temperature');
    expect(clientFieldPath(['maxOutputTokens'], names)).toBe('max_tokens');
    expect(clientFieldPath(['stopSequences', 2], names)).toBe('stop_sequences.2');
    expect(clientFieldPath(['sampling', 'temperature'], { 'sampling.temperature': 'generationConfig.temperature' })).toBe('generationConfig.temperature');
  });

  it('returns a path no entry covers unchanged, an empty one as body, and ignores inherited names', () => {
    expect(clientFieldPath(['messages', 3, 'content'], SNAKE_CASE_SAMPLING_NAMES)).toBe('messages.3.content');
    expect(clientFieldPath([], SNAKE_CASE_SAMPLING_NAMES)).toBe('body');
    expect(clientFieldPath(['constructor'], {})).toBe('constructor');
  });
});
