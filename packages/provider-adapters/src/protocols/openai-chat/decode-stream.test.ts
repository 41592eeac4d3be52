import type { AdapterStreamPartV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createAdapterStreamParts, parseSafeJson } from '../../codec-kit/index.js';
import { createOpenAiChatStreamMachine } from './decode-stream.js';
import { accumulate, chunk, framedFixture, readFixture, runStream, sse } from './test-support/stream-harness.js';

function contentOf(name: string, field: 'content' | 'reasoning_content'): string {
  return readFixture(name)
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const value = parseSafeJson(line) as { choices?: { delta?: Record<string, unknown> }[] };
      const fragment = value.choices?.[0]?.delta?.[field];
      return typeof fragment === 'string' ? fragment : '';
    })
    .join('');
}

// The usage of vercel-ai__openai-text.chunks.txt: its usage chunk carries audio_tokens (0) in both details and the
// envelope's service_tier.
const OPENAI_TEXT_USAGE = {
  inputTokens: 16,
  outputTokens: 300,
  totalTokens: 316,
  cacheReadInputTokens: 0,
  reasoningOutputTokens: 0,
  inputTokensByModality: { audio: 0 },
  outputTokensByModality: { audio: 0 },
  serviceTier: 'default',
};
const PROTOCOL_VIOLATION = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } };
const TRUNCATED = { code: 'truncated-stream', retryable: true };

describe('openai-chat stream (recorded)', () => {
  it('decodes the OpenAI text stream with its final usage-only chunk', async () => {
    const { events, terminal, released } = await runStream(framedFixture('vercel-ai__openai-text.chunks.txt'));
    const text = contentOf('vercel-ai__openai-text.chunks.txt', 'content');
    expect(events[0]).toEqual({ type: 'text-start', index: 0 });
    expect(events.at(-2)).toEqual({ type: 'text-end', index: 0 });
    const usage = OPENAI_TEXT_USAGE;
    expect(events.at(-1)).toEqual({ type: 'usage', usage });
    expect(accumulate(events).get(0)).toBe(text);
    expect(terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text }] },
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
    });
    expect(released).toBe(true);
  });

  it('decodes the Azure stream with an empty first chunk and content filter results', async () => {
    const { events, terminal } = await runStream(framedFixture('vercel-ai__azure-model-router.1.chunks.txt'));
    expect(events.filter((event) => event.type === 'text-delta').map((event) => (event as { delta: string }).delta)).toEqual([
      'Capital',
      ' of',
      ' Denmark',
      '.',
    ]);
    expect(terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text: 'Capital of Denmark.' }] },
      finishReason: { unified: 'stop', raw: 'stop' },
      // The reported zeros (audio_tokens: 0) are facts, kept as reported.
      usage: {
        inputTokens: 15,
        outputTokens: 78,
        totalTokens: 93,
        cacheReadInputTokens: 0,
        reasoningOutputTokens: 64,
        inputTokensByModality: { audio: 0 },
        outputTokensByModality: { audio: 0 },
      },
    });
  });

  it('decodes DeepSeek reasoning then a tool call, with usage on the finish chunk', async () => {
    const { events, terminal } = await runStream(framedFixture('vercel-ai__deepseek-tool-call.chunks.txt'));
    const reasoning = contentOf('vercel-ai__deepseek-tool-call.chunks.txt', 'reasoning_content');
    const usage = { inputTokens: 339, outputTokens: 83, totalTokens: 422, cacheReadInputTokens: 320, reasoningOutputTokens: 39 };
    expect(events.filter((event) => !event.type.endsWith('-delta'))).toEqual([
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-end', index: 0 },
      { type: 'tool-call-start', index: 1, toolCallId: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', toolName: 'weather' },
      { type: 'tool-call-end', index: 1, argumentsText: '{"location": "San Francisco"}' },
      { type: 'usage', usage },
    ]);
    expect(accumulate(events).get(1)).toBe('{"location": "San Francisco"}');
    expect(terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: reasoning },
          { type: 'tool-call', toolCallId: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', toolName: 'weather', argumentsText: '{"location": "San Francisco"}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
    });
  });

  it('decodes the Qwen tool-call stream, ignoring empty ids on later fragments', async () => {
    const { events, terminal } = await runStream(framedFixture('vercel-ai__alibaba-tool-call.chunks.txt'));
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, toolCallId: 'call_eee11723464a4b9eb8cee71d', toolName: 'weather' },
      { type: 'tool-call-delta', index: 0, delta: '{"location": "San Francisco' },
      { type: 'tool-call-delta', index: 0, delta: '"}' },
      { type: 'tool-call-end', index: 0, argumentsText: '{"location": "San Francisco"}' },
      { type: 'usage', usage: { inputTokens: 295, outputTokens: 22, totalTokens: 317, cacheReadInputTokens: 0 } },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
  });

  it('fails every recorded stream as truncated when [DONE] is missing, keeping usage so far', async () => {
    const { events, terminal } = await runStream(framedFixture('vercel-ai__openai-text.chunks.txt', { omitTerminator: true }));
    expect(events.at(-1)?.type).toBe('usage');
    expect(terminal).toEqual({
      status: 'failed',
      failure: TRUNCATED,
      usage: OPENAI_TEXT_USAGE,
    });
  });
});

describe('openai-chat stream (constructed, §1.10 and §1.11)', () => {
  it('joins argument fragments split mid-escape and mid-surrogate before anyone parses them', async () => {
    const { events, terminal } = await runStream(
      sse([
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'weather', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Z\\u00' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'fcrich","mood":"\\ud83d' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '\\ude00 \uD83D' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '\uDE00"}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    const argumentsText = '{"city":"Z\\u00fcrich","mood":"\\ud83d\\ude00 \uD83D\uDE00"}';
    expect(accumulate(events).get(0)).toBe(argumentsText);
    expect(parseSafeJson(argumentsText)).toEqual({ city: 'Zürich', mood: '😀 😀' });
    expect(terminal).toMatchObject({ result: { content: [{ type: 'tool-call', argumentsText }] } });
  });

  it('keeps parallel tool calls interleaved by index apart, in order of first appearance', async () => {
    const { events, terminal } = await runStream(
      sse([
        chunk({ content: 'Checking.' }),
        chunk({ tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'time', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'weather', arguments: '{"c' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '{"z' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '":1}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '":2}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    expect(events.filter((event) => event.type.endsWith('-start') || event.type.endsWith('-end'))).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-start', index: 1, toolCallId: 'b', toolName: 'time' },
      { type: 'tool-call-start', index: 2, toolCallId: 'a', toolName: 'weather' },
      { type: 'tool-call-end', index: 1, argumentsText: '{"z":2}' },
      { type: 'tool-call-end', index: 2, argumentsText: '{"c":1}' },
    ]);
    expect(terminal).toMatchObject({
      result: {
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 'b', argumentsText: '{"z":2}' },
          { type: 'tool-call', toolCallId: 'a', argumentsText: '{"c":1}' },
        ],
      },
    });
  });

  it('keys calls without an index by id, and fragments without index or id to the latest call', async () => {
    const { terminal } = await runStream(
      sse([
        chunk({ tool_calls: [{ id: 'x', function: { name: 'f', arguments: '{"a"' } }] }),
        chunk({ tool_calls: [{ id: 'y', function: { name: 'g', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ id: 'x', function: { arguments: ':1' } }] }),
        chunk({ tool_calls: [{ function: { arguments: '}' } }] }),
        chunk({}, 'stop'),
      ]),
    );
    expect(terminal).toMatchObject({
      status: 'completed',
      result: {
        content: [
          { type: 'tool-call', toolCallId: 'x', toolName: 'f', argumentsText: '{"a":1}' },
          { type: 'tool-call', toolCallId: 'y', toolName: 'g', argumentsText: '{}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'stop' },
    });
  });

  it('holds a call until its name arrives, and derives a missing id', async () => {
    const { events, terminal } = await runStream(
      sse([
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: 'search', arguments: '"x"}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, toolCallId: 'call_derived_0', toolName: 'search' },
      { type: 'tool-call-delta', index: 0, delta: '{"q":' },
      { type: 'tool-call-delta', index: 0, delta: '"x"}' },
      { type: 'tool-call-end', index: 0, argumentsText: '{"q":"x"}' },
    ]);
    expect(terminal).toMatchObject({ result: { content: [{ type: 'tool-call', toolCallId: 'call_derived_0', toolName: 'search' }] } });
  });

  it('accepts a whole tool call in one fragment and a first index of 1', async () => {
    const { terminal } = await runStream(
      sse([chunk({ tool_calls: [{ index: 1, id: 'only', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }), chunk({}, 'tool_calls')]),
    );
    expect(terminal).toMatchObject({ result: { content: [{ type: 'tool-call', toolCallId: 'only', argumentsText: '{"a":1}' }] } });
  });

  it.each([
    ['choices: []', { choices: [] }],
    ['choices: null', { choices: null }],
    ['no choices key', {}],
  ])('accepts a usage-only final chunk with %s', async (_label, shape) => {
    const { terminal } = await runStream(
      sse([chunk({ content: 'hi' }), chunk({}, 'stop'), { id: 'c', ...shape, usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }]),
    );
    expect(terminal).toMatchObject({ status: 'completed', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } });
  });

  it('does not double-count usage repeated on every chunk, and emits it only when it changes', async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
    const { events, terminal } = await runStream(
      sse([chunk({ content: 'a' }, null, { usage }), chunk({ content: 'b' }, null, { usage }), chunk({}, 'stop', { usage: { ...usage, completion_tokens: 2, total_tokens: 5 } })]),
    );
    expect(events.filter((event) => event.type === 'usage')).toEqual([
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
    ]);
    expect(terminal).toMatchObject({ usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } });
  });

  it('fails when cumulative usage goes down', async () => {
    const { terminal } = await runStream(
      sse([chunk({ content: 'a' }, null, { usage: { prompt_tokens: 3, completion_tokens: 2 } }), chunk({}, 'stop', { usage: { prompt_tokens: 3, completion_tokens: 1 } })]),
    );
    expect(terminal).toMatchObject(PROTOCOL_VIOLATION);
  });

  it('ends with the mapped failure on a mid-stream error chunk after content', async () => {
    const { events, terminal } = await runStream(
      sse([chunk({ content: 'partial' }), { error: { message: 'The server had an error', type: 'server_error' } }]),
    );
    expect(events.map((event) => event.type)).toEqual(['text-start', 'text-delta']);
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'provider-error', retryable: true, providerCode: 'server_error' } });
  });

  it('ends with the mapped failure on an SSE event named error', async () => {
    const { terminal } = await runStream(`${sse([chunk({ content: 'a' })], false)}event: error\ndata: {"error":{"message":"x","code":429}}\n\n`);
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'rate-limited', retryable: true, providerCode: '429' } });
    const bare = await runStream('event: error\ndata: {"message":"x","type":"server_error"}\n\n');
    expect(bare.terminal).toMatchObject({ failure: { code: 'provider-error', providerCode: 'server_error' } });
  });

  it('maps OpenRouter finish_reason "error" with its error object, and DeepSeek insufficient_system_resource', async () => {
    const openRouter = await runStream(sse([chunk({ content: 'a' }), chunk({}, 'error', { error: { code: 502, message: 'upstream' } })]));
    expect(openRouter.terminal).toEqual({ status: 'failed', failure: { code: 'provider-error', retryable: true, providerCode: '502' } });
    const deepSeek = await runStream(sse([chunk({ content: 'a' }), chunk({}, 'insufficient_system_resource')]));
    expect(deepSeek.terminal).toMatchObject({ status: 'failed', failure: { code: 'overloaded', retryable: true } });
  });

  it('fails as truncated without [DONE], with or without a finish reason', async () => {
    expect((await runStream(sse([chunk({ content: 'a' })], false))).terminal).toEqual({ status: 'failed', failure: TRUNCATED });
    expect((await runStream(sse([chunk({ content: 'a' }), chunk({}, 'stop')], false))).terminal).toEqual({ status: 'failed', failure: TRUNCATED });
    expect((await runStream('')).terminal).toEqual({ status: 'failed', failure: TRUNCATED });
  });

  it('completes at [DONE] without any finish reason, the reason unknown (other, no raw value), never stop', async () => {
    const { events, terminal } = await runStream(sse([chunk({ content: 'a' })]));
    expect(events).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'a' },
      { type: 'text-end', index: 0 },
    ]);
    expect(terminal).toEqual({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'a' }] }, finishReason: { unified: 'other' } });
  });

  it('treats a named-tool-choice stream that finishes with stop as tool-calls', async () => {
    const { terminal } = await runStream(
      sse([chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }), chunk({}, 'stop')]),
    );
    expect(terminal).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'stop' } });
  });

  it('decodes refusals, OpenRouter reasoning, and reopens a block when kinds alternate', async () => {
    const { events, terminal } = await runStream(
      sse([
        chunk({ role: 'assistant', content: '', refusal: null }),
        chunk({ reasoning: 'think' }),
        chunk({ content: 'Hello' }),
        chunk({ refusal: 'No.' }),
        chunk({ content: ' again' }),
        chunk({}, 'stop'),
      ]),
    );
    expect(events.filter((event) => event.type.endsWith('-start')).map((event) => [event.type, 'index' in event ? event.index : -1])).toEqual([
      ['reasoning-start', 0],
      ['text-start', 1],
      ['refusal-start', 2],
      ['text-start', 3],
    ]);
    expect(terminal).toMatchObject({
      result: {
        content: [
          { type: 'reasoning', text: 'think' },
          { type: 'text', text: 'Hello' },
          { type: 'refusal', text: 'No.' },
          { type: 'text', text: ' again' },
        ],
      },
    });
  });

  it('ignores SSE comments, keep-alives, CRLF framing and data lines without a space', async () => {
    const { terminal } = await runStream(
      `: OPENROUTER PROCESSING\r\n\r\ndata:${JSON.stringify(chunk({ content: 'a' }))}\r\n\r\ndata: ${JSON.stringify(chunk({}, 'stop'))}\r\n\r\ndata: [DONE]\r\n\r\n`,
    );
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'a' }] } });
  });

  it('refuses a second choice (n > 1) as unsupported', async () => {
    const second = { id: 'c', choices: [{ index: 1, delta: { content: 'b' }, finish_reason: null }] };
    expect((await runStream(sse([chunk({ content: 'a' }), second]))).terminal).toEqual({
      status: 'failed',
      failure: { code: 'unsupported', retryable: false },
    });
    const both = { id: 'c', choices: [{ index: 0, delta: { content: 'a' } }, { index: 1, delta: { content: 'b' } }] };
    expect((await runStream(sse([both]))).terminal).toMatchObject({ failure: { code: 'unsupported' } });
  });

  it.each([
    ['an unknown SSE event name', `event: ping\ndata: {}\n\n${sse([chunk({}, 'stop')])}`],
    ['malformed JSON', sse(['{"choices": [']).replace('data: [DONE]\n\n', '')],
    ['a JSON array chunk', sse(['[1,2]'])],
    ['content after the finish reason', sse([chunk({ content: 'a' }, 'stop'), chunk({ content: 'b' })])],
    ['a tool call after the finish reason', sse([chunk({}, 'stop'), chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f' } }] })])],
    ['a tool call that never gets a name', sse([chunk({ tool_calls: [{ index: 0, id: 'a', function: { arguments: '{}' } }] }), chunk({}, 'tool_calls')])],
    ['a fragment with neither index nor id first', sse([chunk({ tool_calls: [{ function: { arguments: '{}' } }] })])],
    ['an index reused by another id', sse([chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f' } }] }), chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 'f' } }] })])],
    ['a tool name that changes', sse([chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f' } }] }), chunk({ tool_calls: [{ index: 0, function: { name: 'g' } }] })])],
    ['a wrong role', sse([chunk({ role: 'user', content: 'a' })])],
    ['a non-string content', sse([chunk({ content: 5 })])],
    ['a huge choice index', sse([{ choices: [{ index: 1e12, delta: {} }] }])],
    ['a custom tool call', sse([chunk({ tool_calls: [{ index: 0, id: 'a', type: 'custom', custom: { name: 'f' } }] })])],
    ['a forbidden key', sse(['{"choices":[],"__proto__":{}}'])],
    ['a bare error object that is not an object', 'event: error\ndata: [1]\n\n'],
  ])('fails %s as a protocol violation', async (_label, body) => {
    expect((await runStream(body)).terminal).toEqual(PROTOCOL_VIOLATION);
  });

  it('maps a plain JSON error body sent instead of an event stream', async () => {
    const body = '{\n  "error": {\n    "message": "quota",\n    "type": "insufficient_quota",\n    "code": "insufficient_quota"\n  }\n}\n';
    expect((await runStream(body)).terminal).toEqual({ status: 'failed', failure: { code: 'quota-exceeded', retryable: false, providerCode: 'insufficient_quota' } });
    expect((await runStream('{"choices":[]}\n')).terminal).toEqual(PROTOCOL_VIOLATION);
  });

  it('maps a legacy function_call delta to one tool call with a derived id', async () => {
    const { events, terminal } = await runStream(
      sse([chunk({ role: 'assistant', content: null, function_call: { name: 'f', arguments: '' } }), chunk({ function_call: { arguments: '{"a":1}' } }), chunk({}, 'function_call')]),
    );
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, toolCallId: 'call_derived_0', toolName: 'f' },
      { type: 'tool-call-delta', index: 0, delta: '{"a":1}' },
      { type: 'tool-call-end', index: 0, argumentsText: '{"a":1}' },
    ]);
    expect(terminal).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'function_call' } });
  });

  it('reads reasoning_content over reasoning when a host sends both, and ignores an empty role', async () => {
    const { terminal } = await runStream(sse([chunk({ role: '', reasoning_content: 'r', reasoning: 'r' }), chunk({ content: 'a' }), chunk({}, 'stop')]));
    expect(terminal).toMatchObject({ result: { content: [{ type: 'reasoning', text: 'r' }, { type: 'text', text: 'a' }] } });
  });

  it('accepts events explicitly named message', async () => {
    const { terminal } = await runStream(`event: message\ndata: ${JSON.stringify(chunk({ content: 'a' }, 'stop'))}\n\ndata: [DONE]\n\n`);
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'a' }] } });
  });

  it('applies the xAI usage arithmetic to stream usage', async () => {
    const { terminal } = await runStream(
      sse([chunk({ content: 'a' }, 'stop'), { choices: null, usage: { prompt_tokens: 307, completion_tokens: 26, total_tokens: 560, completion_tokens_details: { reasoning_tokens: 227 } } }]),
    );
    expect(terminal).toMatchObject({ usage: { inputTokens: 307, outputTokens: 253, totalTokens: 560, reasoningOutputTokens: 227 } });
  });

  it('stops reading at [DONE]', async () => {
    const { terminal } = await runStream(`${sse([chunk({ content: 'a' }, 'stop')])}data: not json\n\n`);
    expect(terminal.status).toBe('completed');
  });

  it('ends cancelled when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { parts } = await runStream(sse([chunk({ content: 'a' }, 'stop')]), controller.signal);
    expect(parts).toEqual([{ type: 'terminal', outcome: { status: 'cancelled' } }]);
  });

  it('ends cancelled and releases the body when the signal aborts mid-stream', async () => {
    const controller = new AbortController();
    let released = false;
    const encoder = new TextEncoder();
    const body = {
      async *[Symbol.asyncIterator]() {
        try {
          yield encoder.encode(sse([chunk({ content: 'a' })], false));
          await new Promise(() => undefined);
        } finally {
          released = true;
        }
      },
    };
    const parts: AdapterStreamPartV1[] = [];
    for await (const part of createAdapterStreamParts({
      body,
      sse: { bareJson: true },
      machine: createOpenAiChatStreamMachine(),
      signal: controller.signal,
    })) {
      parts.push(part);
      if (part.type === 'text-delta') controller.abort();
    }
    expect(parts.at(-1)).toEqual({ type: 'terminal', outcome: { status: 'cancelled' } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(released).toBe(true);
  });

  it('fails an oversized frame without buffering it whole', async () => {
    const huge = `data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(9 * 1024 * 1024)}"}}]}\n\n`;
    expect((await runStream(huge)).terminal).toEqual(PROTOCOL_VIOLATION);
  });
});

describe('openai-chat stream: tolerance of real traffic', () => {
  it('reads a streamed tool call that never carries function.arguments as "{}", emitted as a delta', async () => {
    const { events, terminal } = await runStream(
      sse([chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'now' } }] }), chunk({}, 'tool_calls')]),
    );
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, toolCallId: 'call_1', toolName: 'now' },
      { type: 'tool-call-delta', index: 0, delta: '{}' },
      { type: 'tool-call-end', index: 0, argumentsText: '{}' },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'tool-call', argumentsText: '{}' }] } });
  });

  it('drops an overlapping cache-write figure in every usage snapshot of the response', async () => {
    const details = (write: number) => ({ prompt_tokens: 50, completion_tokens: 1, total_tokens: 51, prompt_tokens_details: { cached_tokens: 40, cache_write_tokens: write } });
    const { events, terminal } = await runStream(
      sse([chunk({ content: 'a' }, null, { usage: details(20) }), chunk({}, 'stop', { usage: { ...details(5), completion_tokens: 2, total_tokens: 52 } })]),
    );
    const usages = events.filter((event) => event.type === 'usage');
    expect(usages).toEqual([
      { type: 'usage', usage: { inputTokens: 50, outputTokens: 1, totalTokens: 51, cacheReadInputTokens: 40 } },
      { type: 'usage', usage: { inputTokens: 50, outputTokens: 2, totalTokens: 52, cacheReadInputTokens: 40 } },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', usage: { inputTokens: 50, outputTokens: 2 } });
  });
});

describe('openai-chat stream: relayed streams without a finish reason', () => {
  it('completes a tool call streamed with usage and [DONE] but no finish_reason, closing the call (OpenRouter relay, constructed)', async () => {
    const usage = { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 };
    const { events, terminal } = await runStream(
      sse([
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_7', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a.txt"}' } }] }),
        { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage },
      ]),
    );
    expect(events.filter((event) => event.type !== 'usage')).toEqual([
      { type: 'tool-call-start', index: 0, toolCallId: 'call_7', toolName: 'read_file' },
      { type: 'tool-call-delta', index: 0, delta: '{"path":"a.txt"}' },
      { type: 'tool-call-end', index: 0, argumentsText: '{"path":"a.txt"}' },
    ]);
    expect(terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'call_7', toolName: 'read_file', argumentsText: '{"path":"a.txt"}' }] },
      finishReason: { unified: 'tool-calls' },
      usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 },
    });
  });

  it('keeps the same stream cut before [DONE] a retryable truncation', async () => {
    const { terminal } = await runStream(
      sse([chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_7', type: 'function', function: { name: 'read_file', arguments: '{}' } }] })], false),
    );
    expect(terminal).toEqual({ status: 'failed', failure: TRUNCATED });
  });
});

describe('openai-chat stream: typed content chunks (Mistral)', () => {
  // Mistral's chat API answers reasoning models with `content` as a list of chunks: `thinking` (whose `thinking`
  // member is a list of `text` chunks) then `text` (docs.mistral.ai, "Reasoning"; ThinkChunk / TextChunk).
  it('reads thinking chunks as reasoning and text chunks as text, streamed', async () => {
    const { events, terminal } = await runStream(
      sse([
        chunk({ role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Let me ' }] }] }),
        chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'think.' }] }] }),
        chunk({ content: [{ type: 'text', text: 'The answer' }] }),
        chunk({ content: ' is 4.' }),
        chunk({}, 'stop'),
      ]),
    );
    expect(accumulate(events)).toEqual(new Map([[0, 'Let me think.'], [1, 'The answer is 4.']]));
    expect(terminal).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'reasoning', text: 'Let me think.' }, { type: 'text', text: 'The answer is 4.' }] },
      finishReason: { unified: 'stop' },
    });
  });

  it('refuses a chunk type it cannot place', async () => {
    const { terminal } = await runStream(sse([chunk({ content: [{ type: 'image_url', image_url: 'https://example.com/a.png' }] }), chunk({}, 'stop')]));
    expect(terminal).toEqual(PROTOCOL_VIOLATION);
  });
});

describe('openai-chat stream: usage details', () => {
  it('reads the prompt and completion details and the service tier of the usage chunk; a later usage chunk revises them', async () => {
    const envelope = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', service_tier: 'flex' };
    const { events, terminal } = await runStream(
      sse([
        { ...envelope, choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] },
        { ...envelope, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        { ...envelope, choices: [], usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38, prompt_tokens_details: { cached_tokens: 10, audio_tokens: 20, text_tokens: 'x' }, completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 5 } } },
        { ...envelope, service_tier: 'default', choices: [], usage: { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39, prompt_tokens_details: { cached_tokens: 10, audio_tokens: 20 }, completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 6 } } },
      ]),
    );
    const usages = events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []));
    expect(usages).toEqual([
      { inputTokens: 30, outputTokens: 8, totalTokens: 38, cacheReadInputTokens: 10, reasoningOutputTokens: 2, inputTokensByModality: { audio: 20 }, outputTokensByModality: { audio: 5 }, serviceTier: 'flex' },
      { inputTokens: 30, outputTokens: 9, totalTokens: 39, cacheReadInputTokens: 10, reasoningOutputTokens: 2, inputTokensByModality: { audio: 20 }, outputTokensByModality: { audio: 6 }, serviceTier: 'default' },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', usage: usages[1] });
  });
});

