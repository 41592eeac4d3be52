import type { UsageV3 } from '@tokenforge/model-protocol';
import { countField, defined, recordField } from './wire-readers.js';

/*
 * Usage only as each CLI reports it: a figure the CLI omits stays absent (never a fabricated zero).
 */

/** Claude Code's `result.usage`: uncached input apart from cache reads and writes; the contract's input counts them all. */
export function convertClaudeCodeUsage(usage: Record<string, unknown>): UsageV3 {
  const input = countField(usage, 'input_tokens');
  const cacheRead = countField(usage, 'cache_read_input_tokens');
  const cacheWrite = countField(usage, 'cache_creation_input_tokens');
  return defined({
    inputTokens: input === undefined ? undefined : input + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: countField(usage, 'output_tokens'),
    cacheReadInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
    reasoningOutputTokens: countField(recordField(usage, 'output_tokens_details'), 'thinking_tokens'),
  });
}

/** Codex's `turn.completed.usage`: `input_tokens` already counts its cached input. */
export function convertCodexUsage(usage: Record<string, unknown>): UsageV3 {
  const cacheWrite = countField(usage, 'cache_write_input_tokens');
  return defined({
    inputTokens: countField(usage, 'input_tokens'),
    outputTokens: countField(usage, 'output_tokens'),
    cacheReadInputTokens: countField(usage, 'cached_input_tokens'),
    cacheWriteInputTokens: cacheWrite === 0 ? undefined : cacheWrite,
    reasoningOutputTokens: countField(usage, 'reasoning_output_tokens'),
  });
}

/** Gemini CLI's `result.stats`. */
export function convertGeminiCliUsage(stats: Record<string, unknown>): UsageV3 {
  return defined({
    inputTokens: countField(stats, 'input_tokens'),
    outputTokens: countField(stats, 'output_tokens'),
    totalTokens: countField(stats, 'total_tokens'),
    cacheReadInputTokens: countField(stats, 'cached'),
  });
}
