import { describe, expect, it } from 'vitest';
import { isCodecErrorV1, type ChatTaskV4 } from '@tokenforge/model-protocol';
import { encodeOpenAiResponsesInput } from './encode-input.js';
import { decodeOpenAiResponsesClientRequest } from './ingress.js';

/*
 * Conformance cases built from OpenAI's documentation: the compaction item of
 * https://platform.openai.com/docs/api-reference/responses/compact (`{"type":"compaction","id":"cmp_…",
 * "encrypted_content":"…"}`, `id` optional in input, `created_by` only on output items) and reasoning items kept in
 * context (https://platform.openai.com/docs/guides/reasoning: `{"type":"reasoning","id":"rs_…","summary":[…]}`,
 * `encrypted_content` present only when `include: ["reasoning.encrypted_content"]` was asked).
 */

const encoder = new TextEncoder();

function decode(input: unknown[]): ChatTaskV4 {
  return decodeOpenAiResponsesClientRequest({ path: '/responses', body: encoder.encode(JSON.stringify({ model: 'm', input })) }).task as ChatTaskV4;
}

function codeOf(input: unknown[]): string {
  try {
    decode(input);
  } catch (error) {
    if (isCodecErrorV1(error)) return `${error.code}:${error.path ?? ''}`;
    throw error;
  }
  return 'accepted';
}

const compaction = { type: 'compaction', id: 'cmp_68d2a1f0b7c48190a3c1', encrypted_content: 'gAAAAABo0qHwZ3Vlc3Mtd2hhdC1pdC1zYXlz==' };
const stored = { type: 'reasoning', id: 'rs_68d2a1f0b7c48190a3c2', summary: [{ type: 'summary_text', text: 'Looked at the billing module.' }] };
const assistant = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] };

describe('openai-responses compaction items and stored reasoning items', () => {
  it('reads a compaction item (created_by ignored) and a reasoning item without encrypted content', () => {
    const task = decode([{ role: 'user', content: 'a' }, { ...compaction, created_by: 'user_1' }, stored, assistant, { role: 'user', content: 'b' }]);
    expect(task.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'compaction', data: compaction.encrypted_content, id: compaction.id },
        { type: 'reasoning', text: 'Looked at the billing module.', storedItemId: stored.id },
        { type: 'text', text: 'Done.' },
      ],
    });
  });

  it('writes both back as they came, and a reasoning item with encrypted content without its id (as before)', () => {
    const task = decode([
      { role: 'user', content: 'a' },
      compaction,
      stored,
      { type: 'reasoning', id: 'rs_3', summary: [], encrypted_content: 'enc' },
      assistant,
      { role: 'user', content: 'b' },
    ]);
    expect(encodeOpenAiResponsesInput(task.messages).slice(1, 4)).toEqual([compaction, stored, { type: 'reasoning', summary: [], encrypted_content: 'enc' }]);
    const withoutId = decode([{ role: 'user', content: 'a' }, { type: 'compaction', encrypted_content: 'e' }, { role: 'user', content: 'b' }]);
    expect(encodeOpenAiResponsesInput(withoutId.messages)[1]).toEqual({ type: 'compaction', encrypted_content: 'e' });
  });

  it('refuses what refers to nothing: no encrypted content and no id, an empty or missing payload, a malformed id', () => {
    expect(codeOf([{ type: 'reasoning', summary: [] }])).toBe('unsupported-feature:input.0.encrypted_content');
    expect(codeOf([{ type: 'compaction' }])).toBe('invalid-request:input.0.encrypted_content');
    expect(codeOf([{ type: 'compaction', encrypted_content: '' }])).toBe('invalid-request:input.0.encrypted_content');
    expect(codeOf([{ type: 'reasoning', id: 'rs 1', summary: [] }])).toBe('invalid-request:input.0.id');
    expect(codeOf([{ type: 'compaction', id: 'x'.repeat(513), encrypted_content: 'e' }])).toBe('invalid-request:input.0.id');
  });
});
