import { describe, expect, it } from 'vitest';
import { readSimulatorOpaqueHistory } from './opaque-history.js';

/*
 * Shapes from the providers' documentation: https://platform.claude.com/docs/en/build-with-claude/compaction (block
 * `{"type":"compaction","content":string|null}`, beta `compact-2026-01-12`),
 * https://platform.openai.com/docs/api-reference/responses/compact (item `{"type":"compaction","id","encrypted_content"}`)
 * and https://platform.openai.com/docs/guides/reasoning (reasoning items sent back by id).
 */

const beta = { 'anthropic-beta': 'context-management-2025-06-27,compact-2026-01-12' };

describe('the simulator reads opaque history as the providers document it', () => {
  it('Anthropic: compaction contents of assistant turns, null ones skipped, with the beta named', () => {
    const body = {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [{ type: 'compaction', content: 'summary' }, { type: 'compaction', content: null }, { type: 'text', text: 'b' }] },
      ],
    };
    expect(readSimulatorOpaqueHistory('anthropic-messages', body, beta)).toEqual({ compactions: ['summary'], storedReasoningIds: [] });
  });

  it('Anthropic: refuses a compaction block without the beta, in a user turn, or with empty content', () => {
    const assistant = (block: unknown) => ({ messages: [{ role: 'assistant', content: [block] }] });
    expect(readSimulatorOpaqueHistory('anthropic-messages', assistant({ type: 'compaction', content: 's' }), {})).toHaveProperty('refusal');
    expect(readSimulatorOpaqueHistory('anthropic-messages', { messages: [{ role: 'user', content: [{ type: 'compaction', content: 's' }] }] }, beta)).toHaveProperty('refusal');
    expect(readSimulatorOpaqueHistory('anthropic-messages', assistant({ type: 'compaction', content: '' }), beta)).toHaveProperty('refusal');
  });

  it('Responses: compaction payloads and the ids of reasoning items without encrypted content', () => {
    const body = {
      input: [
        { type: 'compaction', id: 'cmp_1', encrypted_content: 'enc' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'e' },
      ],
    };
    expect(readSimulatorOpaqueHistory('openai-responses', body, {})).toEqual({ compactions: ['enc'], storedReasoningIds: ['rs_1'] });
    expect(readSimulatorOpaqueHistory('openai-responses', { input: [{ type: 'compaction' }] }, {})).toHaveProperty('refusal');
    expect(readSimulatorOpaqueHistory('openai-responses', { input: [{ type: 'reasoning', summary: [] }] }, {})).toHaveProperty('refusal');
  });
});
