import type { ChatTaskV2, EgressContextV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJson, parseSafeJsonBytes } from '../../codec-kit/index.js';
import { decodeOpenAiChatResponse } from './decode-response.js';
import { createOpenAiChatEgressCodec } from './egress.js';
import { encodeOpenAiChatRequest } from './encode-request.js';
import { decodeOpenAiChatClientRequest } from './ingress.js';
import { chunk, runStream, sse } from './test-support/stream-harness.js';

// Gemini's OpenAI-compatible endpoint carries thought signatures on tool calls (§1.10, "preserve and echo back").
const extra = { extra_content: { google: { thought_signature: 'U0lH' } } };
const context: EgressContextV1 = { responseId: 'r', modelLabel: 'm', createdAtMs: 0 };

describe('openai-chat tool-call signatures (Gemini extra_content)', () => {
  it('decodes the signature from a sync body and from a stream', async () => {
    const body = {
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, ...extra }] },
          finish_reason: 'tool_calls',
        },
      ],
    };
    expect(decodeOpenAiChatResponse(body).terminal).toMatchObject({
      result: { content: [{ type: 'tool-call', toolCallId: 'c', signature: 'U0lH' }] },
    });
    const { events, terminal } = await runStream(
      sse([chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, ...extra }] }), chunk({}, 'tool_calls')]),
    );
    expect(events.at(-1)).toEqual({ type: 'tool-call-end', index: 0, argumentsText: '{}', signature: 'U0lH' });
    expect(terminal).toMatchObject({ result: { content: [{ type: 'tool-call', signature: 'U0lH' }] } });
  });

  it('fails a mistyped signature', () => {
    const body = {
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{}' }, extra_content: { google: { thought_signature: 5 } } }] },
          finish_reason: 'tool_calls',
        },
      ],
    };
    expect(decodeOpenAiChatResponse(body).terminal).toMatchObject({ status: 'failed', failure: { code: 'protocol-violation' } });
  });

  it('replays signatures only when the option asks', () => {
    const task: ChatTaskV2 = {
      kind: 'chat',
      stream: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', argumentsText: '{}', signature: 'U0lH' }] },
      ],
    };
    const call = (options?: Parameters<typeof encodeOpenAiChatRequest>[2]) =>
      (encodeOpenAiChatRequest(task, 'm', options).body.value.messages[1] as unknown as { tool_calls: unknown[] }).tool_calls[0];
    expect(call()).toEqual({ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } });
    expect(call({ toolCallSignatures: 'google-extra-content' })).toEqual({ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, ...extra });
  });

  it('reads a client echo of the signature and writes it back in egress responses and streams', () => {
    const { task } = decodeOpenAiChatClientRequest({
      path: '/',
      body: new TextEncoder().encode(
        JSON.stringify({
          model: 'm',
          messages: [
            { role: 'user', content: 'x' },
            { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, ...extra }] },
          ],
        }),
      ),
    });
    expect(task).toMatchObject({ messages: [{}, { content: [{ type: 'tool-call', signature: 'U0lH' }] }] });
    const codec = createOpenAiChatEgressCodec();
    const response = codec.encodeResponse(
      { status: 'completed', result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', argumentsText: '{}', signature: 'U0lH' }] } },
      context,
    );
    expect(parseSafeJsonBytes(response.body)).toMatchObject({ choices: [{ message: { tool_calls: [{ id: 'c', ...extra }] } }] });
    const encoder = codec.createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('expected a stream encoder');
    encoder.encodeEvent({ type: 'tool-call-start', index: 3, toolCallId: 'c', toolName: 'f' });
    const end = new TextDecoder().decode(encoder.encodeEvent({ type: 'tool-call-end', index: 3, argumentsText: '', signature: 'U0lH' }));
    expect(parseSafeJson(end.slice('data: '.length))).toMatchObject({ choices: [{ delta: { tool_calls: [{ index: 0, ...extra }] } }] });
    expect(encoder.encodeEvent({ type: 'tool-call-end', index: 3, argumentsText: '' }).byteLength).toBe(0);
  });
});
