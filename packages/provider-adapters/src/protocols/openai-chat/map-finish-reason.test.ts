import { describe, expect, it } from 'vitest';
import { mapOpenAiChatFinishReason } from './map-finish-reason.js';

describe('mapOpenAiChatFinishReason', () => {
  it.each([
    ['stop', false, { unified: 'stop', raw: 'stop' }],
    ['stop', true, { unified: 'tool-calls', raw: 'stop' }],
    ['tool_calls', true, { unified: 'tool-calls', raw: 'tool_calls' }],
    ['function_call', true, { unified: 'tool-calls', raw: 'function_call' }],
    ['length', false, { unified: 'length', raw: 'length' }],
    ['content_filter', false, { unified: 'content-filter', raw: 'content_filter' }],
    ['eos', false, { unified: 'other', raw: 'eos' }],
    ['has space', false, { unified: 'other' }],
    [null, false, { unified: 'other' }],
    [undefined, true, { unified: 'tool-calls' }],
  ] as const)('maps %s (tool calls: %s)', (raw, hasToolCalls, expected) => {
    expect(mapOpenAiChatFinishReason(raw, hasToolCalls)).toEqual(expected);
  });

  it('never keeps a raw value longer than 64 characters', () => {
    expect(mapOpenAiChatFinishReason('x'.repeat(65), false)).toEqual({ unified: 'other' });
  });
});
