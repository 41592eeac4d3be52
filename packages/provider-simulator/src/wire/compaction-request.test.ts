import { describe, expect, it } from 'vitest';
import { readSimulatorCompactionRequest } from './compaction-request.js';

/*
 * Shapes from https://platform.claude.com/docs/en/build-with-claude/compaction (`context_management.edits` entry
 * `{"type":"compact_20260112","trigger":{"type":"input_tokens","value":N}}`, beta `compact-2026-01-12`, default trigger
 * 150000) and https://developers.openai.com/api/docs/guides/compaction (`context_management:
 * [{"type":"compaction","compact_threshold":N}]`).
 */

const beta = { 'anthropic-beta': 'compact-2026-01-12' };
const anthropic = (trigger?: number) => ({ context_management: { edits: [{ type: 'compact_20260112', ...(trigger === undefined ? {} : { trigger: { type: 'input_tokens', value: trigger } }) }] } });

describe('the simulator reads compaction requests as the providers document them', () => {
  it('Anthropic: compacts at the trigger (150000 by default), needs the beta, ignores requests without the edit', () => {
    expect(readSimulatorCompactionRequest('anthropic-messages', anthropic(100), beta, 100)).toEqual({ triggerInputTokens: 100, compacted: true });
    expect(readSimulatorCompactionRequest('anthropic-messages', anthropic(100), beta, 99)).toEqual({ triggerInputTokens: 100, compacted: false });
    expect(readSimulatorCompactionRequest('anthropic-messages', anthropic(), beta, 149_999)).toEqual({ compacted: false });
    expect(readSimulatorCompactionRequest('anthropic-messages', anthropic(100), {}, 100)).toHaveProperty('refusal');
    expect(readSimulatorCompactionRequest('anthropic-messages', { context_management: { edits: [{ type: 'clear_thinking_20251015' }] } }, beta, 100)).toBeUndefined();
  });

  it('Responses: compacts at compact_threshold; other dialects never compact', () => {
    const body = { context_management: [{ type: 'compaction', compact_threshold: 50 }] };
    expect(readSimulatorCompactionRequest('openai-responses', body, {}, 50)).toEqual({ triggerInputTokens: 50, compacted: true });
    expect(readSimulatorCompactionRequest('openai-responses', body, {}, 49)).toEqual({ triggerInputTokens: 50, compacted: false });
    expect(readSimulatorCompactionRequest('openai-responses', {}, {}, 49)).toBeUndefined();
    expect(readSimulatorCompactionRequest('openai-chat', body, {}, 50)).toBeUndefined();
  });
});
