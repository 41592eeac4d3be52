import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { decodeAnthropicMessagesResponse } from './decode-response.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as unknown;
}

function decode(body: unknown) {
  return decodeAnthropicMessagesResponse({ body, headers: {}, status: 200, nowMs: 0 });
}

function violation(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isProtocolViolationError(error)) return error.reason;
    throw error;
  }
  throw new Error('expected a protocol violation');
}

describe('decodeAnthropicMessagesResponse: recorded bodies', () => {
  it('decodes the recorded sync text message (vercel-ai__anthropic-text.json)', () => {
    expect(decode(fixture('vercel-ai__anthropic-text.json'))).toEqual({
      providerModel: 'claude-sonnet-4-5-20250929',
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            {
              type: 'text',
              text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
            },
          ],
        },
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage: { inputTokens: 12, outputTokens: 29, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' },
      },
    });
  });

  it('decodes the recorded web search answer with its billing details (vercel-ai__anthropic-web-search-tool.1.json)', () => {
    const decoded = decode(fixture('vercel-ai__anthropic-web-search-tool.1.json'));
    expect(decoded.terminal).toMatchObject({
      status: 'completed',
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: {
        inputTokens: 27118,
        outputTokens: 600,
        cacheReadInputTokens: 0,
        cacheWriteInputTokens: 0,
        cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 },
        // Two searches billed, and a reported zero for web fetch stays a zero.
        serverToolRequests: { webSearch: 2, webFetch: 0 },
        serviceTier: 'standard',
      },
    });
    if (decoded.terminal.status !== 'completed' || decoded.terminal.result.kind !== 'chat') throw new Error('expected chat');
    // The server tool blocks are skipped; the eight text blocks around them, cited or not, are kept in order.
    const content = decoded.terminal.result.content;
    expect(content.map((part) => part.type)).toEqual(Array(8).fill('text'));
    expect(content[2]).toMatchObject({ type: 'text', text: expect.stringContaining('sentenced to two years') });
  });

  it('decodes the recorded sync tool call with nested input (vercel-ai__anthropic-json-tool.1.json)', () => {
    const decoded = decode(fixture('vercel-ai__anthropic-json-tool.1.json'));
    expect(decoded.terminal).toMatchObject({
      status: 'completed',
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: { inputTokens: 1151, outputTokens: 87, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 },
    });
    if (decoded.terminal.status !== 'completed' || decoded.terminal.result.kind !== 'chat') throw new Error('expected chat');
    const [call] = decoded.terminal.result.content;
    expect(call).toMatchObject({ type: 'tool-call', toolCallId: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa', toolName: 'json' });
    expect(JSON.parse((call as { argumentsText: string }).argumentsText)).toEqual({
      elements: [
        { location: 'San Francisco', temperature: -5, condition: 'snowy' },
        { location: 'London', temperature: 0, condition: 'snowy' },
        { location: 'Paris', temperature: 23, condition: 'cloudy' },
        { location: 'Berlin', temperature: -9, condition: 'snowy' },
      ],
    });
  });
});

describe('decodeAnthropicMessagesResponse: constructed bodies', () => {
  it('maps thinking, redacted thinking, text and tool_use, skips server tool blocks, and adds cache tokens to input', () => {
    expect(decode(fixture('constructed__anthropic-thinking-tool.json')).terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: 'The user wants the weather in Paris.', signature: 'EqQBCkgIARABGAIiQL2constructedsignature==' },
          { type: 'redacted-reasoning', data: 'EmwKAhgBEgy3constructedredacted==' },
          { type: 'text', text: 'Let me check the weather.' },
          { type: 'tool-call', toolCallId: 'toolu_constructed_05', toolName: 'get_weather', argumentsText: '{"city":"Paris"}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: {
        inputTokens: 1120,
        outputTokens: 85,
        cacheReadInputTokens: 1000,
        cacheWriteInputTokens: 100,
        reasoningOutputTokens: 40,
        serverToolRequests: { webSearch: 1 },
        serviceTier: 'standard',
      },
    });
  });

  it('gives an empty tool input the argument text {} (what the stream decoder yields for no partial_json)', () => {
    const body = {
      type: 'message',
      content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    expect(decode(body).terminal).toMatchObject({ result: { content: [{ argumentsText: '{}' }] } });
  });

  it('adds the compaction iterations the top-level usage leaves out (documented compaction example, BetaIterationsUsage)', () => {
    const body = {
      type: 'message',
      content: [{ type: 'compaction', content: 'Summary' }, { type: 'text', text: 'Next step.' }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 23000,
        output_tokens: 1000,
        cache_read_input_tokens: 100,
        iterations: [
          { type: 'compaction', input_tokens: 180000, output_tokens: 3500, cache_read_input_tokens: 50, cache_creation_input_tokens: 0 },
          { type: 'message', input_tokens: 23000, output_tokens: 1000, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 },
        ],
      },
    };
    expect(decode(body).terminal).toMatchObject({
      status: 'completed',
      usage: { inputTokens: 203150, outputTokens: 4500, cacheReadInputTokens: 150 },
    });
  });

  it('keeps cache figures absent when a compatible host leaves them out, and maps null stop_reason to other', () => {
    const body = { type: 'message', content: [], stop_reason: null, usage: { input_tokens: 43, output_tokens: 1, cache_read_input_tokens: null } };
    expect(decode(body).terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [] },
      finishReason: { unified: 'other' },
      usage: { inputTokens: 43, outputTokens: 1 },
    });
  });

  it('keeps an unknown stop reason as other with its raw value, and drops a raw value outside the charset', () => {
    const body = (stop: string) => ({ type: 'message', content: [], stop_reason: stop, usage: { input_tokens: 1, output_tokens: 1 } });
    expect(decode(body('compaction')).terminal).toMatchObject({ finishReason: { unified: 'other', raw: 'compaction' } });
    const odd = decode(body('stop because: <secret>')).terminal;
    expect(odd).toMatchObject({ finishReason: { unified: 'other' } });
    expect(JSON.stringify(odd)).not.toContain('secret');
  });

  it('turns an error body delivered with a 2xx status into a failed terminal', () => {
    expect(decode(fixture('constructed__anthropic-error-overloaded.json')).terminal).toEqual({
      status: 'failed',
      failure: { code: 'overloaded', retryable: true, providerCode: 'overloaded_error' },
    });
  });
});

describe('decodeAnthropicMessagesResponse: malformed bodies', () => {
  const valid = { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'x' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } };

  it.each([
    ['a non-object body', [1, 2]],
    ['a wrong type', { ...valid, type: 'completion' }],
    ['a wrong role', { ...valid, role: 'user' }],
    ['content that is not an array', { ...valid, content: 'x' }],
    ['a missing stop_reason key', { type: 'message', content: [], usage: { input_tokens: 1, output_tokens: 1 } }],
    ['a missing usage', { ...valid, usage: undefined }],
    ['missing output_tokens', { ...valid, usage: { input_tokens: 1 } }],
    ['negative tokens', { ...valid, usage: { input_tokens: -1, output_tokens: 1 } }],
    ['fractional tokens', { ...valid, usage: { input_tokens: 1.5, output_tokens: 1 } }],
    ['a text block without text', { ...valid, content: [{ type: 'text' }] }],
    ['a tool_use without input', { ...valid, content: [{ type: 'tool_use', id: 't', name: 'f' }] }],
    ['a tool_use with string input', { ...valid, content: [{ type: 'tool_use', id: 't', name: 'f', input: '{}' }] }],
    ['a tool_use with an empty id', { ...valid, content: [{ type: 'tool_use', id: '', name: 'f', input: {} }] }],
    ['a thinking block without signature', { ...valid, content: [{ type: 'thinking', thinking: 'x' }] }],
    ['an empty redacted block', { ...valid, content: [{ type: 'redacted_thinking', data: '' }] }],
    ['a non-string stop_reason', { ...valid, stop_reason: 3 }],
    ['token counts above 2^51', { ...valid, usage: { input_tokens: 2 ** 52, output_tokens: 1 } }],
  ])('refuses %s', (_label, body) => {
    expect(violation(() => decode(body))).toBe('invalid-event');
  });

  it('refuses an unknown content block type as an unexpected event', () => {
    expect(violation(() => decode({ ...valid, content: [{ type: 'hologram' }] }))).toBe('unexpected-event');
  });

  it('reads a compaction block and skips documented MCP and advisor blocks, keeping the text and tool calls around them', () => {
    const body = {
      ...valid,
      stop_reason: 'tool_use',
      content: [
        { type: 'compaction', content: 'Summary of earlier turns', encrypted_content: 'b3BhcXVl' },
        { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', server_name: 'example', input: { text: 'hi' } },
        { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'hi' }] },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'advisor', input: {} },
        { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'advisor_result', text: 'plan' } },
        { type: 'text', text: 'Done.' },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
      ],
    };
    expect(decode(body).terminal).toMatchObject({
      status: 'completed',
      result: {
        content: [
          { type: 'compaction', data: 'Summary of earlier turns' },
          { type: 'text', text: 'Done.' },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'f', argumentsText: '{"a":1}' },
        ],
      },
    });
  });

  it('keeps an unknown stop reason (compaction pause) raw instead of failing', () => {
    expect(decode({ ...valid, stop_reason: 'compaction' }).terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'other', raw: 'compaction' } });
  });

  it('ignores unknown extra fields everywhere', () => {
    const body = { ...valid, extra: { nested: true }, content: [{ type: 'text', text: 'x', citations: [{ any: 1 }], future: 1 }], usage: { input_tokens: 1, output_tokens: 1, future_tokens: 9 } };
    expect(decode(body).terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'x' }] } });
  });
});

describe('decodeAnthropicMessagesResponse: usage details', () => {
  const message = (usage: unknown) => ({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage });

  it('reads cache_creation, server_tool_use and service_tier; a malformed detail is left out, never a violation', () => {
    const decoded = decode(
      message({
        input_tokens: 10,
        cache_creation_input_tokens: 6,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 4 },
        output_tokens: 3,
        server_tool_use: { web_search_requests: 1, web_fetch_requests: 'two' },
        service_tier: 'standard',
      }),
    );
    expect(decoded.terminal).toMatchObject({
      usage: { inputTokens: 16, cacheWriteInputTokens: 6, cacheWriteInputTokensByTtl: { fiveMinutes: 2, oneHour: 4 }, serverToolRequests: { webSearch: 1 }, serviceTier: 'standard' },
    });
    const odd = decode(message({ input_tokens: 1, output_tokens: 1, cache_creation: [], server_tool_use: null, service_tier: 'not a tier!' }));
    expect(odd.terminal).toMatchObject({ usage: { inputTokens: 1, outputTokens: 1 } });
    expect(Object.keys((odd.terminal as { usage: object }).usage)).toEqual(['inputTokens', 'outputTokens']);
  });

  it('drops a time-to-live split larger than the cache writes it splits instead of failing the answer', () => {
    const decoded = decode(message({ input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 2, cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 0 } }));
    expect(decoded.terminal).toMatchObject({ status: 'completed', usage: { inputTokens: 3, cacheWriteInputTokens: 2, outputTokens: 1 } });
    expect((decoded.terminal as { usage: object }).usage).not.toHaveProperty('cacheWriteInputTokensByTtl');
  });
});

