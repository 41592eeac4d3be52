import { describe, expect, it } from 'vitest';
import { isCodecErrorV1, type ChatTaskV4 } from '@tokenforge/model-protocol';
import { decodeAnthropicClientCountRequest } from './decode-client-count-request.js';
import { encodeAnthropicCountRequest } from './encode-count-request.js';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import { decodeAnthropicMessagesRequest } from './ingress.js';

/*
 * Conformance cases built from Anthropic's compaction documentation
 * (https://platform.claude.com/docs/en/build-with-claude/compaction: "append the response to your messages"; the
 * block is `{"type":"compaction","content":"<summary>"}`, `content` null for a failed compaction, which the API
 * treats as a no-op; a `cache_control` breakpoint may sit on it; requests need the `compact-2026-01-12` beta) and the
 * SDK's `BetaCompactionBlockParam` (content required, string or null; empty string not allowed).
 */

const encoder = new TextEncoder();
const SUMMARY = '<summary>\nThe user is refactoring the billing module; steps 1-3 are done.\n</summary>';

function decode(messages: unknown[]) {
  return decodeAnthropicMessagesRequest({ path: '/v1/messages', body: encoder.encode(JSON.stringify({ model: 'm', max_tokens: 10, messages })) }).task as ChatTaskV4;
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isCodecErrorV1(error)) return `${error.code}:${error.path ?? ''}`;
    throw error;
  }
  return 'accepted';
}

describe('anthropic-messages compaction blocks', () => {
  it('reads a compaction block of an assistant turn as a compaction part, its breakpoint included', () => {
    const task = decode([
      { role: 'user', content: 'Refactor billing.' },
      { role: 'assistant', content: [{ type: 'compaction', content: SUMMARY, cache_control: { type: 'ephemeral', ttl: '1h' } }, { type: 'text', text: 'Continuing.' }] },
      { role: 'user', content: 'Go on.' },
    ]);
    expect(task.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'compaction', data: SUMMARY, cacheControl: { type: 'ephemeral', ttlSeconds: 3600 } },
        { type: 'text', text: 'Continuing.' },
      ],
    });
  });

  it('leaves out a failed compaction (content null), and a turn it leaves empty', () => {
    const task = decode([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'compaction', content: null }] },
      { role: 'user', content: 'b' },
    ]);
    expect(task.messages.map((message) => message.role)).toEqual(['user', 'user']);
  });

  it('refuses an empty summary and a compaction block in a user turn', () => {
    expect(codeOf(() => decode([{ role: 'assistant', content: [{ type: 'compaction', content: '' }] }]))).toBe('invalid-request:messages.0.content.0.content');
    expect(codeOf(() => decode([{ role: 'user', content: [{ type: 'compaction', content: SUMMARY }] }]))).toBe('unsupported-feature:messages.0.content.0.type');
  });

  it('writes the part back as the block it was, byte for byte', () => {
    const blocks = [{ type: 'compaction', content: SUMMARY, cache_control: { type: 'ephemeral', ttl: '1h' } }, { type: 'text', text: 'Continuing.' }];
    const body = encodeAnthropicMessagesRequest(decode([{ role: 'user', content: 'a' }, { role: 'assistant', content: blocks }, { role: 'user', content: 'b' }]), { model: 'm' });
    expect(JSON.stringify(body.messages[1]?.content)).toBe(JSON.stringify(blocks));
  });

  it('a token count of a conversation with a compaction block names the compaction beta', () => {
    const counted = decodeAnthropicClientCountRequest({
      path: '/v1/messages/count_tokens',
      body: encoder.encode(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'compaction', content: SUMMARY }] }, { role: 'user', content: 'b' }] })),
    });
    if (counted.task.kind !== 'token-count') throw new Error('expected a token-count task');
    const request = encodeAnthropicCountRequest(counted.task, 'm');
    expect(request.headers).toEqual({ accept: 'application/json', 'anthropic-beta': 'compact-2026-01-12' });
    expect(JSON.stringify(request.body)).toContain(JSON.stringify({ type: 'compaction', content: SUMMARY }));
  });
});
