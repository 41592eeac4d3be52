import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import { decodeOpenAiChatResponse } from './decode-response.js';

function fixture(name: string): Record<string, unknown> {
  return parseSafeJson(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

function withMessage(message: Record<string, unknown>, finish: string | null = 'stop', extra: Record<string, unknown> = {}): unknown {
  return { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message, finish_reason: finish }], ...extra };
}

describe('decodeOpenAiChatResponse (recorded)', () => {
  it('decodes DeepSeek sync reasoning with reasoning tokens and cache hits', () => {
    const body = fixture('vercel-ai__deepseek-reasoning.json');
    const choices = body.choices as { message: { content: string; reasoning_content: string } }[];
    const message = choices[0]?.message;
    const decoded = decodeOpenAiChatResponse(body);
    expect(decoded.providerModel).toBe('deepseek-reasoner');
    expect(decoded.terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: message?.reasoning_content },
          { type: 'text', text: message?.content },
        ],
      },
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 18, outputTokens: 345, totalTokens: 363, cacheReadInputTokens: 0, reasoningOutputTokens: 315 },
    });
  });

  it('decodes Qwen sync reasoning (DashScope compatible mode)', () => {
    const decoded = decodeOpenAiChatResponse(fixture('vercel-ai__alibaba-reasoning.json'));
    expect(decoded.terminal.status).toBe('completed');
    if (decoded.terminal.status !== 'completed' || decoded.terminal.result.kind !== 'chat') throw new Error('unexpected');
    expect(decoded.terminal.result.content.map((part) => part.type)).toEqual(['reasoning', 'text']);
    expect(decoded.terminal.usage).toEqual({
      inputTokens: 24,
      outputTokens: 1668,
      totalTokens: 1692,
      cacheReadInputTokens: 0,
      reasoningOutputTokens: 1353,
    });
  });
});

describe('decodeOpenAiChatResponse (constructed, §1.5 and §1.11)', () => {
  it('decodes tool calls, refusal and a named-tool-choice stop as tool-calls', () => {
    const decoded = decodeOpenAiChatResponse(
      withMessage(
        {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Z\\u00fcrich"}' } },
            { type: 'function', function: { name: 'time', arguments: '{}' } },
          ],
        },
        'stop',
      ),
    );
    expect(decoded.terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'tool-call', toolCallId: 'call_a', toolName: 'weather', argumentsText: '{"city":"Z\\u00fcrich"}' },
          { type: 'tool-call', toolCallId: 'call_derived_1', toolName: 'time', argumentsText: '{}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'stop' },
    });
  });

  it('decodes a refusal and OpenRouter-style reasoning', () => {
    const decoded = decodeOpenAiChatResponse(withMessage({ role: 'assistant', content: null, refusal: 'I cannot.', reasoning: 'r' }));
    expect(decoded.terminal).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'reasoning', text: 'r' }, { type: 'refusal', text: 'I cannot.' }] },
    });
  });

  it('maps a legacy function_call to a tool call with a derived id', () => {
    const decoded = decodeOpenAiChatResponse(
      withMessage({ role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }, 'function_call'),
    );
    expect(decoded.terminal).toMatchObject({
      result: { content: [{ type: 'tool-call', toolCallId: 'call_derived_0', toolName: 'f', argumentsText: '{}' }] },
      finishReason: { unified: 'tool-calls', raw: 'function_call' },
    });
  });

  it('tolerates a null finish reason, missing refusal and extra fields', () => {
    const decoded = decodeOpenAiChatResponse(withMessage({ role: 'assistant', content: 'ok', annotations: [] }, null, { extra: { deep: 1 } }));
    expect(decoded.terminal).toEqual({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'ok' }] }, finishReason: { unified: 'other' } });
  });

  it('refuses more than one choice as unsupported', () => {
    const body = withMessage({ role: 'assistant', content: 'a' }) as { choices: unknown[] };
    body.choices.push({ index: 1, message: { role: 'assistant', content: 'b' }, finish_reason: 'stop' });
    expect(decodeOpenAiChatResponse(body).terminal).toEqual({ status: 'failed', failure: { code: 'unsupported', retryable: false } });
    const second = withMessage({ role: 'assistant', content: 'a' }) as { choices: { index: number }[] };
    (second.choices[0] as { index: number }).index = 1;
    expect(decodeOpenAiChatResponse(second).terminal.status).toBe('failed');
  });

  it('turns an error member in a 200 body and failure finish reasons into failed terminals', () => {
    expect(decodeOpenAiChatResponse({ error: { message: 'boom', code: 502 } }).terminal).toEqual({
      status: 'failed',
      failure: { code: 'provider-error', retryable: true, providerCode: '502' },
    });
    expect(decodeOpenAiChatResponse(withMessage({ role: 'assistant', content: '' }, 'insufficient_system_resource')).terminal).toMatchObject({
      status: 'failed',
      failure: { code: 'overloaded', retryable: true },
    });
  });

  it('reads an error sent as a bare string', () => {
    expect(decodeOpenAiChatResponse({ error: 'upstream exploded' }).terminal).toEqual({
      status: 'failed',
      failure: { code: 'provider-error', retryable: false },
    });
  });

  it.each([
    ['not an object', 'text'],
    ['a tool call id over 512 characters', withMessage({ role: 'assistant', content: null, tool_calls: [{ id: 'x'.repeat(513), function: { name: 'f', arguments: '{}' } }] })],
    ['a tool name over 256 characters', withMessage({ role: 'assistant', content: null, tool_calls: [{ id: 'a', function: { name: 'f'.repeat(257), arguments: '{}' } }] })],
    ['no choices', { id: 'x' }],
    ['empty choices', { choices: [] }],
    ['choices not an array', { choices: {} }],
    ['no message', { choices: [{ index: 0, finish_reason: 'stop' }] }],
    ['wrong role', withMessage({ role: 'user', content: 'x' })],
    ['content a number', withMessage({ role: 'assistant', content: 5 })],
    ['tool call without name', withMessage({ role: 'assistant', content: null, tool_calls: [{ id: 'a', function: { arguments: '{}' } }] })],
    ['tool call with object arguments', withMessage({ role: 'assistant', content: null, tool_calls: [{ id: 'a', function: { name: 'f', arguments: {} } }] })],
    ['custom tool call', withMessage({ role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'custom', custom: { name: 'f', input: '' } }] })],
    ['negative usage', withMessage({ role: 'assistant', content: 'x' }, 'stop', { usage: { prompt_tokens: -1 } })],
    ['fractional usage', withMessage({ role: 'assistant', content: 'x' }, 'stop', { usage: { prompt_tokens: 1.5 } })],
    ['inconsistent usage', withMessage({ role: 'assistant', content: 'x' }, 'stop', { usage: { prompt_tokens: 1, prompt_tokens_details: { cached_tokens: 2 } } })],
    ['finish reason a number', withMessage({ role: 'assistant', content: 'x' }, 7 as unknown as string)],
  ])('fails %s as a protocol violation', (_label, body) => {
    expect(decodeOpenAiChatResponse(body).terminal).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
  });
});

describe('decodeOpenAiChatResponse: typed content chunks (Mistral)', () => {
  it('reads a thinking chunk as reasoning and text chunks as text (docs.mistral.ai "Reasoning"; ThinkChunk / TextChunk)', () => {
    const decoded = decodeOpenAiChatResponse(
      withMessage({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: [{ type: 'text', text: 'Two plus two.' }], closed: true },
          { type: 'text', text: 'It is ' },
          { type: 'reference', reference_ids: [1] },
          { type: 'text', text: '4.' },
        ],
      }),
    );
    expect(decoded.terminal).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'reasoning', text: 'Two plus two.' }, { type: 'text', text: 'It is 4.' }] },
      finishReason: { unified: 'stop' },
    });
  });

  it('refuses a chunk without a type, text that is not a string, or thinking that is not a chunk list', () => {
    const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } };
    expect(decodeOpenAiChatResponse(withMessage({ role: 'assistant', content: [{ text: 'a' }] })).terminal).toEqual(violation);
    expect(decodeOpenAiChatResponse(withMessage({ role: 'assistant', content: [{ type: 'text', text: 3 }] })).terminal).toEqual(violation);
    expect(decodeOpenAiChatResponse(withMessage({ role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }] })).terminal).toEqual(violation);
  });
});

describe('decodeOpenAiChatResponse: tolerance of real traffic', () => {
  it('reads a tool call without function.arguments (compatible relays) as "{}"', () => {
    const decoded = decodeOpenAiChatResponse(
      withMessage({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'now' } }] }, 'tool_calls'),
    );
    expect(decoded.terminal).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'now', argumentsText: '{}' }] },
    });
  });

  it('drops an overlapping cache-write figure instead of failing the response', () => {
    const decoded = decodeOpenAiChatResponse(
      withMessage({ role: 'assistant', content: 'hi' }, 'stop', {
        usage: { prompt_tokens: 100, completion_tokens: 2, total_tokens: 102, prompt_tokens_details: { cached_tokens: 80, cache_write_tokens: 40 } },
      }),
    );
    expect(decoded.terminal).toMatchObject({ status: 'completed', usage: { inputTokens: 100, cacheReadInputTokens: 80, outputTokens: 2, totalTokens: 102 } });
    expect((decoded.terminal as { usage?: Record<string, unknown> }).usage).not.toHaveProperty('cacheWriteInputTokens');
  });
});

