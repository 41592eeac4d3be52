import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AdapterStreamPartV1, ChatTaskV4, EgressContextV1, NormalizedStreamEventV4 } from '@tokenforge/model-protocol';
import { bodyOf } from '../../codec-kit/test-support/run-sse-stream.js';
import { decodeAnthropicMessagesResponse } from './decode-response.js';
import { decodeAnthropicMessagesStream } from './decode-stream.js';
import { anthropicBetaFlags } from './encode-beta-flags.js';
import { createAnthropicMessagesStreamEncoder } from './encode-client-stream.js';
import { createAnthropicMessagesEgressCodec } from './egress.js';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import { decodeAnthropicMessagesRequest } from './ingress.js';

/*
 * Compaction an Anthropic provider emits, built from https://platform.claude.com/docs/en/build-with-claude/compaction
 * (request `context_management: {edits: [{type: "compact_20260112", trigger: {type: "input_tokens", value},
 * pause_after_compaction?, instructions?}]}` with beta `compact-2026-01-12`; the answer opens with a
 * `{"type":"compaction","content":"<summary>"}` block; streamed as `content_block_start` with the block, one
 * `compaction_delta` carrying the whole summary, `content_block_stop`) and the SDK's `BetaCompactionBlock`,
 * `BetaCompactionContentBlockDelta` and `BetaCompact20260112Edit`.
 */

const SUMMARY = '<summary>\nThe user is refactoring billing; steps 1-3 are done, step 4 is next.\n</summary>';
const CONTEXT: EgressContextV1 = { responseId: 'msg_gw', modelLabel: 'claude', createdAtMs: 0 };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const body = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [
    { type: 'compaction', content: SUMMARY },
    { type: 'text', text: 'Step 4: move the invoices.' },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 2300, output_tokens: 120 },
};

function frames(events: readonly Record<string, unknown>[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

const streamed = frames([
  { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, usage: { input_tokens: 2300, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null } },
  { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: SUMMARY } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Step 4.' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 120 } },
  { type: 'message_stop' },
]);

async function decodeStream(text: string): Promise<AdapterStreamPartV1[]> {
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of decodeAnthropicMessagesStream({ body: bodyOf([text]), headers: {}, nowMs: 0, signal: new AbortController().signal })) parts.push(part);
  return parts;
}

function sseData(bytes: string): Record<string, unknown>[] {
  return bytes
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe('anthropic-messages: compaction the provider emits', () => {
  it('decodes a sync compaction block into a compaction part, in block order, and writes it back to an Anthropic client unchanged', () => {
    const { terminal } = decodeAnthropicMessagesResponse({ body, headers: {}, status: 200, nowMs: 0 });
    expect(terminal).toMatchObject({ status: 'completed', result: { kind: 'chat', content: [{ type: 'compaction', data: SUMMARY }, { type: 'text', text: 'Step 4: move the invoices.' }] } });
    const written = JSON.parse(decoder.decode(createAnthropicMessagesEgressCodec().encodeResponse(terminal, CONTEXT).body)) as { content: unknown[] };
    expect(JSON.stringify(written.content)).toBe(JSON.stringify(body.content));
  });

  it('keeps the compaction stop reason of a paused compaction for an Anthropic client', () => {
    const { terminal } = decodeAnthropicMessagesResponse({ body: { ...body, content: [body.content[0]], stop_reason: 'compaction' }, headers: {}, status: 200, nowMs: 0 });
    const written = JSON.parse(decoder.decode(createAnthropicMessagesEgressCodec().encodeResponse(terminal, CONTEXT).body)) as { stop_reason: string };
    expect(written.stop_reason).toBe('compaction');
  });

  it('leaves out a failed compaction (content null), which the API treats as a no-op', () => {
    const { terminal } = decodeAnthropicMessagesResponse({ body: { ...body, content: [{ type: 'compaction', content: null }, { type: 'text', text: 'x' }] }, headers: {}, status: 200, nowMs: 0 });
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'x' }] } });
  });

  it('decodes a streamed compaction block into one whole compaction event and writes the same block sequence back', async () => {
    const parts = await decodeStream(streamed);
    const events = parts.flatMap((part): NormalizedStreamEventV4[] => (part.type === 'terminal' ? [] : [part]));
    expect(events.filter((event) => event.type !== 'usage')[0]).toEqual({ type: 'compaction', index: 0, data: SUMMARY });
    const terminal = parts.at(-1);
    expect(terminal).toMatchObject({ type: 'terminal', outcome: { status: 'completed', result: { content: [{ type: 'compaction', data: SUMMARY }, { type: 'text', text: 'Step 4.' }] } } });

    const stream = createAnthropicMessagesStreamEncoder(CONTEXT);
    const out = events.map((event) => decoder.decode(stream.encodeEvent(event))).join('');
    const written = sseData(out).filter((event) => event.type !== 'message_start');
    expect(written.slice(0, 3)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null } },
      { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: SUMMARY } },
      { type: 'content_block_stop', index: 0 },
    ]);
  });

  it('any split of the stream\'s bytes, inside multi-byte characters of the summary too, gives the same parts', async () => {
    const text = streamed.replace('step 4 is next', 'étape 4 — 下一步 🙂');
    const bytes = encoder.encode(text);
    const reference = await decodeStream(text);
    expect(reference.at(-1)).toMatchObject({ outcome: { status: 'completed', result: { content: [{ type: 'compaction', data: expect.stringContaining('下一步 🙂') }, { type: 'text' }] } } });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.byteLength - 1 }), { maxLength: 30 }), async (cuts) => {
        const sorted = [...cuts].sort((left, right) => left - right);
        const reads = [0, ...sorted].map((start, position) => bytes.slice(start, sorted[position] ?? bytes.byteLength));
        const parts: AdapterStreamPartV1[] = [];
        for await (const part of decodeAnthropicMessagesStream({ body: bodyOf(reads), headers: {}, nowMs: 0, signal: new AbortController().signal })) parts.push(part);
        expect(parts).toEqual(reference);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a delta of another kind inside a compaction block', async () => {
    const bad = streamed.replace('"type":"compaction_delta","content"', '"type":"text_delta","text"');
    expect((await decodeStream(bad)).at(-1)).toMatchObject({ type: 'terminal', outcome: { status: 'failed', failure: { code: 'protocol-violation' } } });
  });

  it('reads the compact_20260112 edit beside clearing edits and sends it back as it came, naming the compaction beta', () => {
    const edits = [
      { type: 'clear_thinking_20251015', keep: 'all' },
      { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 150000 }, pause_after_compaction: true, instructions: 'Keep file paths.' },
    ];
    const request = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], context_management: { edits } };
    const task = decodeAnthropicMessagesRequest({ path: '/v1/messages', body: encoder.encode(JSON.stringify(request)) }).task as ChatTaskV4;
    expect(task.compaction).toEqual({ triggerInputTokens: 150000, pauseAfterCompaction: true, instructions: 'Keep file paths.' });
    const sent = encodeAnthropicMessagesRequest(task, { model: 'm' });
    expect(JSON.stringify(sent.context_management)).toBe(JSON.stringify({ edits }));
    expect(anthropicBetaFlags(sent)).toBe('context-management-2025-06-27,compact-2026-01-12');
    const alone = encodeAnthropicMessagesRequest({ ...task, contextManagement: undefined } as ChatTaskV4, { model: 'm' });
    expect(anthropicBetaFlags(alone)).toBe('compact-2026-01-12');
  });

  describe('the members sent back verbatim beside content (SDK BetaCompactionBlock: encrypted_content, signature, tool_changes)', () => {
    const block = {
      type: 'compaction',
      content: SUMMARY,
      encrypted_content: 'RW5jcnlwdGVkTWV0YWRhdGE=',
      signature: 'U2lnbmF0dXJlT3ZlclN1bW1hcnk=',
      tool_changes: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'bash' } }],
    };

    it('a sync block comes back to an Anthropic client with them, and a client sending it back reaches the provider with them', () => {
      const { terminal } = decodeAnthropicMessagesResponse({ body: { ...body, content: [block, body.content[1]] }, headers: {}, status: 200, nowMs: 0 });
      const written = JSON.parse(decoder.decode(createAnthropicMessagesEgressCodec().encodeResponse(terminal, CONTEXT).body)) as { content: unknown[] };
      expect(JSON.stringify(written.content[0])).toBe(JSON.stringify(block));
      const history = [{ role: 'user', content: 'a' }, { role: 'assistant', content: [block, { type: 'text', text: 'b' }] }, { role: 'user', content: 'c' }];
      const task = decodeAnthropicMessagesRequest({ path: '/v1/messages', body: encoder.encode(JSON.stringify({ model: 'm', max_tokens: 10, messages: history })) }).task as ChatTaskV4;
      const sent = encodeAnthropicMessagesRequest(task, { model: 'm' });
      expect(JSON.stringify(sent.messages[1]?.content[0])).toBe(JSON.stringify(block));
    });

    it('a streamed block carries encrypted_content on its delta and the other members on its start, both ways', async () => {
      const { encrypted_content: encrypted, ...start } = block;
      const text = frames([
        { type: 'message_start', message: { id: 'msg_01', usage: { input_tokens: 5, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { ...start, content: null } },
        { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: SUMMARY, encrypted_content: encrypted } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'compaction' }, usage: { output_tokens: 9 } },
        { type: 'message_stop' },
      ]);
      const parts = await decodeStream(text);
      const events = parts.flatMap((part): NormalizedStreamEventV4[] => (part.type === 'terminal' ? [] : [part]));
      const compaction = events.find((event) => event.type === 'compaction');
      expect(compaction).toMatchObject({ type: 'compaction', data: SUMMARY });
      expect(parts.at(-1)).toMatchObject({ type: 'terminal', outcome: { status: 'completed' } });
      const out = createAnthropicMessagesStreamEncoder(CONTEXT).encodeEvent(compaction as NormalizedStreamEventV4);
      const written = sseData(decoder.decode(out));
      expect(written[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null, signature: block.signature, tool_changes: block.tool_changes } });
      expect(written[2]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: SUMMARY, encrypted_content: encrypted } });
    });

    it('refuses a malformed member', () => {
      expect(() => decodeAnthropicMessagesResponse({ body: { ...body, content: [{ ...block, signature: 7 }] }, headers: {}, status: 200, nowMs: 0 })).toThrow(/signature is malformed/);
    });
  });
});
