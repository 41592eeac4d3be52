import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { convertOpenAiChatUsage } from './convert-usage.js';

describe('convertOpenAiChatUsage', () => {
  it('maps OpenAI usage with cached, cache-write and reasoning details', () => {
    expect(
      convertOpenAiChatUsage({
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        cached_tokens: 60,
        cache_write_tokens: 30,
        reasoning_tokens: 20,
      }),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 50,
      totalTokens: 150,
      cacheReadInputTokens: 60,
      cacheWriteInputTokens: 30,
      reasoningOutputTokens: 20,
    });
  });

  it('keeps reported zeros and leaves unreported fields absent', () => {
    expect(convertOpenAiChatUsage({ prompt_tokens: 5, completion_tokens: 0, cached_tokens: 0 })).toEqual({
      inputTokens: 5,
      outputTokens: 0,
      cacheReadInputTokens: 0,
    });
    expect(convertOpenAiChatUsage({})).toBeUndefined();
  });

  it('reads DeepSeek prompt_cache_hit_tokens only when cached_tokens is absent', () => {
    expect(convertOpenAiChatUsage({ prompt_tokens: 339, prompt_cache_hit_tokens: 320 })).toEqual({
      inputTokens: 339,
      cacheReadInputTokens: 320,
    });
    expect(convertOpenAiChatUsage({ prompt_tokens: 339, cached_tokens: 300, prompt_cache_hit_tokens: 320 })?.cacheReadInputTokens).toBe(300);
  });

  it('adds reasoning to output when the totals show it was excluded (xAI arithmetic)', () => {
    expect(convertOpenAiChatUsage({ prompt_tokens: 307, completion_tokens: 26, total_tokens: 560, reasoning_tokens: 227 })).toEqual({
      inputTokens: 307,
      outputTokens: 253,
      totalTokens: 560,
      reasoningOutputTokens: 227,
    });
    expect(convertOpenAiChatUsage({ prompt_tokens: 10, completion_tokens: 5, reasoning_tokens: 9 })?.outputTokens).toBe(14);
  });

  it('keeps OpenAI arithmetic when reasoning is part of completion tokens', () => {
    expect(convertOpenAiChatUsage({ prompt_tokens: 15, completion_tokens: 78, total_tokens: 93, reasoning_tokens: 64 })?.outputTokens).toBe(78);
  });

  it('refuses contradictory figures', () => {
    for (const usage of [
      { prompt_tokens: 10, cached_tokens: 11 },
      { prompt_tokens: 10, completion_tokens: 10, total_tokens: 5 },
    ]) {
      let caught: unknown;
      try {
        convertOpenAiChatUsage(usage);
      } catch (error) {
        caught = error;
      }
      expect(isProtocolViolationError(caught) && caught.reason).toBe('usage-inconsistent');
    }
  });
});

describe('convertOpenAiChatUsage: tolerated provider arithmetic', () => {
  it('drops an overlapping cache-write figure and keeps the well-formed ones', () => {
    // A compatible host reporting cache reads and writes that overlap: 900 + 600 > 1000 prompt tokens.
    const wire = { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020, cached_tokens: 900, cache_write_tokens: 600 };
    expect(convertOpenAiChatUsage(wire)).toEqual({ inputTokens: 1000, outputTokens: 20, totalTokens: 1020, cacheReadInputTokens: 900 });
  });

  it('drops the cache-write figure in every later snapshot of the same response', () => {
    const state = { dropped: false };
    convertOpenAiChatUsage({ prompt_tokens: 10, cached_tokens: 8, cache_write_tokens: 5 }, state);
    expect(convertOpenAiChatUsage({ prompt_tokens: 10, completion_tokens: 3, cached_tokens: 8, cache_write_tokens: 1 }, state)).toEqual({
      inputTokens: 10,
      outputTokens: 3,
      cacheReadInputTokens: 8,
    });
    expect(convertOpenAiChatUsage({ prompt_tokens: 10, cached_tokens: 8, cache_write_tokens: 1 })?.cacheWriteInputTokens).toBe(1);
  });

  it('still refuses cache reads alone above the prompt tokens', () => {
    expect(() => convertOpenAiChatUsage({ prompt_tokens: 10, cached_tokens: 11, cache_write_tokens: 1 })).toThrow(/inconsistent/);
  });
});

describe('convertOpenAiChatUsage: details', () => {
  it('maps the modality details and the service tier; absent stays absent', () => {
    expect(
      convertOpenAiChatUsage({ prompt_tokens: 50, completion_tokens: 20, prompt_audio_tokens: 30, prompt_text_tokens: 20, completion_audio_tokens: 15, service_tier: 'priority' }),
    ).toEqual({ inputTokens: 50, outputTokens: 20, inputTokensByModality: { text: 20, audio: 30 }, outputTokensByModality: { audio: 15 }, serviceTier: 'priority' });
    expect(convertOpenAiChatUsage({ prompt_tokens: 5, completion_tokens: 1 })).toEqual({ inputTokens: 5, outputTokens: 1 });
  });

  it('drops a modality split larger than its total instead of refusing the usage', () => {
    expect(convertOpenAiChatUsage({ prompt_tokens: 5, completion_tokens: 1, prompt_audio_tokens: 9, completion_audio_tokens: 1 })).toEqual({
      inputTokens: 5,
      outputTokens: 1,
      outputTokensByModality: { audio: 1 },
    });
  });
});

