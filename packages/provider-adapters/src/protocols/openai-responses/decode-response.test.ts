import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import { decodeOpenAiResponsesResponse } from './decode-response.js';
import { readFixture } from './test-support/stream-harness.js';

const body = (extra: Record<string, unknown>): Record<string, unknown> => ({ id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'm', output: [], ...extra });

describe('decodeOpenAiResponsesResponse', () => {
  it('recorded: two messages with commentary and final_answer phases are two text blocks in order', () => {
    const recorded = parseSafeJson(readFixture('vercel-ai__openai-phase.1.json')) as { output: { content: { text: string }[] }[] };
    const decoded = decodeOpenAiResponsesResponse(recorded);
    expect(decoded).toEqual({
      providerModel: 'gpt-5.3-codex',
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'text', text: recorded.output[0]?.content[0]?.text },
            { type: 'text', text: recorded.output[1]?.content[0]?.text },
          ],
        },
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: { inputTokens: 7243, cacheReadInputTokens: 3072, outputTokens: 423, reasoningOutputTokens: 58, totalTokens: 7666, serviceTier: 'default' },
      },
    });
  });

  it('reasoning items become one block each; only-encrypted reasoning is an empty block with its signature', () => {
    const decoded = decodeOpenAiResponsesResponse(
      body({
        output: [
          { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'a' }, { type: 'summary_text', text: 'b' }], encrypted_content: 'sig1' },
          { id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'sig2' },
          { id: 'rs_3', type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'raw' }] },
          { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
          { id: 'ws_1', type: 'web_search_call', status: 'completed' },
          { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] },
        ],
        usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 2 }, output_tokens: 3, total_tokens: 8 },
      }),
    );
    expect(decoded.terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: 'a\n\nb', signature: 'sig1' },
          { type: 'reasoning', text: '', signature: 'sig2' },
          { type: 'reasoning', text: 'raw' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'f', argumentsText: '{}' },
          { type: 'refusal', text: 'no' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'completed' },
      usage: { inputTokens: 5, cacheReadInputTokens: 0, cacheWriteInputTokens: 2, outputTokens: 3, totalTokens: 8 },
    });
  });

  it.each([
    ['max_output_tokens', { unified: 'length', raw: 'max_output_tokens' }],
    ['content_filter', { unified: 'content-filter', raw: 'content_filter' }],
    ['something_new', { unified: 'other', raw: 'something_new' }],
  ])('incomplete with reason %s', (reason, finishReason) => {
    const decoded = decodeOpenAiResponsesResponse(body({ status: 'incomplete', incomplete_details: { reason } }));
    expect(decoded.terminal).toMatchObject({ status: 'completed', finishReason });
  });

  it.each([
    ['rate_limit_exceeded', { code: 'rate-limited', retryable: true, providerCode: 'rate_limit_exceeded' }],
    ['server_error', { code: 'provider-error', retryable: true, providerCode: 'server_error' }],
    ['insufficient_quota', { code: 'quota-exceeded', retryable: false, providerCode: 'insufficient_quota' }],
    ['invalid_prompt', { code: 'invalid-request', retryable: false, providerCode: 'invalid_prompt' }],
    ['vector_store_timeout', { code: 'timeout', retryable: true, providerCode: 'vector_store_timeout' }],
    ['brand_new_code', { code: 'provider-error', retryable: false, providerCode: 'brand_new_code' }],
  ])('a failed response with error code %s', (code, failure) => {
    expect(decodeOpenAiResponsesResponse(body({ status: 'failed', error: { code, message: 'secret prompt text' } })).terminal).toEqual({ status: 'failed', failure });
  });

  it('a cancelled response is a non-retryable provider error', () => {
    expect(decodeOpenAiResponsesResponse(body({ status: 'cancelled' })).terminal).toEqual({
      status: 'failed',
      failure: { code: 'provider-error', retryable: false, providerCode: 'cancelled' },
    });
  });

  it.each([
    ['not an object', []],
    ['no output', { status: 'completed' }],
    ['a background status', body({ status: 'in_progress' })],
    ['an unknown item type', body({ output: [{ type: 'hologram' }] })],
    ['a message without content', body({ output: [{ type: 'message', role: 'assistant' }] })],
    ['a message of another role', body({ output: [{ type: 'message', role: 'user', content: [] }] })],
    ['a mistyped usage', body({ usage: { input_tokens: '5' } })],
    ['a negative usage', body({ usage: { output_tokens: -1 } })],
    ['an unknown content part', body({ output: [{ type: 'message', role: 'assistant', content: [{ type: 'audio' }] }] })],
  ])('%s is a protocol violation', (_name, value) => {
    expect(decodeOpenAiResponsesResponse(value).terminal).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
  });
});

describe('decodeOpenAiResponsesResponse: tolerated usage arithmetic', () => {
  it('reads a function_call item without arguments as "{}"', () => {
    const decoded = decodeOpenAiResponsesResponse(body({ output: [{ id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'now' }] }));
    expect(decoded.terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'now', argumentsText: '{}' }] } });
  });

  it('drops an overlapping cache-write figure instead of failing the response', () => {
    const decoded = decodeOpenAiResponsesResponse(
      body({
        output: [{ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi', annotations: [] }] }],
        usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 8, cache_write_tokens: 4 }, output_tokens: 1, total_tokens: 11 },
      }),
    );
    expect(decoded.terminal).toMatchObject({ status: 'completed', usage: { inputTokens: 10, cacheReadInputTokens: 8, outputTokens: 1, totalTokens: 11 } });
    expect((decoded.terminal as { usage?: Record<string, unknown> }).usage).not.toHaveProperty('cacheWriteInputTokens');
  });
});

describe('decodeOpenAiResponsesResponse: usage details', () => {
  it('reads input_tokens_details, output_tokens_details.reasoning_tokens and the Response service_tier; a malformed tier is left out', () => {
    const usage = { input_tokens: 50, input_tokens_details: { cached_tokens: 20, cache_write_tokens: 10 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 80 };
    expect(decodeOpenAiResponsesResponse(body({ service_tier: 'flex', usage })).terminal).toMatchObject({
      usage: { inputTokens: 50, cacheReadInputTokens: 20, cacheWriteInputTokens: 10, outputTokens: 30, reasoningOutputTokens: 12, totalTokens: 80, serviceTier: 'flex' },
    });
    const odd = decodeOpenAiResponsesResponse(body({ service_tier: 42, usage })).terminal as { usage: object };
    expect(odd.usage).not.toHaveProperty('serviceTier');
  });
});

