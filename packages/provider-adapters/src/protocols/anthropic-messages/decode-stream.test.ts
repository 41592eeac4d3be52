import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adapterTerminalOutcomeV3Schema,
  adapterTerminalOutcomeV4Schema,
  normalizedStreamEventV4Schema,
  usageV3Schema,
  type AdapterStreamPartV1,
  type AdapterTerminalOutcomeV4,
  type NormalizedStreamEventV4,
} from '@tokenforge/model-protocol';
import { frameRecordedChunksV1 } from '../../testing/frame-recorded-chunks.js';
import { decodeAnthropicMessagesStream } from './decode-stream.js';

const encoder = new TextEncoder();

function fixtureText(name: string): string {
  return readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
}

/** SSE bytes of a chunks file: `event:` + `data:` frames, or data-only frames as some proxies send them. */
function sseBytes(chunks: string, options: { eventLines?: boolean; crlf?: boolean } = {}): Uint8Array {
  const frames = frameRecordedChunksV1(chunks, { framing: 'typed-sse', lineEnding: options.crlf === true ? 'crlf' : 'lf' });
  const text = options.eventLines === false ? frames.map((frame) => frame.replace(/^event: [^\r\n]*\r?\n/, '')).join('') : frames.join('');
  return encoder.encode(text);
}

function lines(...events: unknown[]): string {
  return events.map((event) => JSON.stringify(event)).join('\n');
}

interface TrackedBody extends AsyncIterable<Uint8Array> {
  readonly released: () => boolean;
}

function bodyOf(reads: readonly Uint8Array[]): TrackedBody {
  let released = false;
  return {
    released: () => released,
    async *[Symbol.asyncIterator]() {
      try {
        for (const read of reads) yield read;
      } finally {
        released = true;
      }
    },
  };
}

function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.byteLength + 1)))].sort((left, right) => left - right);
  const reads: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    reads.push(bytes.slice(start, point));
    start = point;
  }
  reads.push(bytes.slice(start));
  return reads;
}

async function run(
  reads: readonly Uint8Array[],
  options: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<{ events: NormalizedStreamEventV4[]; terminal: AdapterTerminalOutcomeV4; released: boolean }> {
  const body = bodyOf(reads);
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of decodeAnthropicMessagesStream({
    body,
    headers: options.headers ?? {},
    nowMs: 0,
    signal: options.signal ?? new AbortController().signal,
  })) {
    parts.push(part);
  }
  const last = parts.at(-1);
  if (last?.type !== 'terminal') throw new Error('the stream did not end with a terminal');
  const events = parts.slice(0, -1) as NormalizedStreamEventV4[];
  expect(events.every((event) => (event.type as string) !== 'terminal')).toBe(true);
  return { events, terminal: last.outcome, released: body.released() };
}

/** What the engine checks: valid events, growing usage, and deltas that add up to the terminal's content. */
function expectConsistent(events: readonly NormalizedStreamEventV4[], terminal: AdapterTerminalOutcomeV4): void {
  for (const event of events) expect(normalizedStreamEventV4Schema.safeParse(event).success).toBe(true);
  expect(adapterTerminalOutcomeV4Schema.safeParse(terminal).success).toBe(true);
  const usages = events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []));
  for (let index = 1; index < usages.length; index += 1) {
    for (const [field, value] of Object.entries(usages[index] ?? {})) {
      const before = (usages[index - 1] as Record<string, unknown>)[field];
      if (typeof before === 'number') expect(value).toBeGreaterThanOrEqual(before);
    }
  }
  if (terminal.status !== 'completed' || terminal.result.kind !== 'chat') return;
  if (usages.length > 0) expect(terminal.usage).toEqual(usages.at(-1));
  const texts = new Map<number, string[]>();
  for (const event of events) {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-call-delta') {
      texts.set(event.index, [...(texts.get(event.index) ?? []), event.delta]);
    }
  }
  const indexes = [...new Set(events.flatMap((event) => ('index' in event ? [event.index] : [])))].sort((left, right) => left - right);
  expect(terminal.result.content).toHaveLength(indexes.length);
  indexes.forEach((index, position) => {
    const part = terminal.result.kind === 'chat' ? terminal.result.content[position] : undefined;
    const streamed = (texts.get(index) ?? []).join('');
    if (part?.type === 'text' || part?.type === 'reasoning') expect(part.text).toBe(streamed);
    if (part?.type === 'tool-call') {
      expect(part.argumentsText).toBe(streamed);
      const end = events.find((event) => event.type === 'tool-call-end' && event.index === index);
      expect(end).toMatchObject({ argumentsText: streamed });
    }
  });
}

describe('decodeAnthropicMessagesStream: recorded streams', () => {
  it('decodes the recorded text stream with ping and cache usage (vercel-ai__anthropic-text.chunks.txt)', async () => {
    const { events, terminal, released } = await run([sseBytes(fixtureText('vercel-ai__anthropic-text.chunks.txt'))]);
    const text = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
    expect(events).toEqual([
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 1, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' } },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Hello' },
      { type: 'text-delta', index: 0, delta: '! I' },
      { type: 'text-delta', index: 0, delta: "'m doing well, thank you for asking" },
      { type: 'text-delta', index: 0, delta: '. How are you doing today?' },
      { type: 'text-delta', index: 0, delta: ' Is' },
      { type: 'text-delta', index: 0, delta: ' there anything I can help you with?' },
      { type: 'text-end', index: 0 },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 30, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' } },
    ]);
    expect(terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text }] },
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: { inputTokens: 12, outputTokens: 30, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' },
    });
    expect(released).toBe(true);
    expectConsistent(events, terminal);
  });

  it('gives a tool call that streamed only "" the arguments {} (vercel-ai__anthropic-tool-no-args.chunks.txt)', async () => {
    const { events, terminal } = await run([sseBytes(fixtureText('vercel-ai__anthropic-tool-no-args.chunks.txt'))]);
    expect(events.filter((event) => 'index' in event && event.index === 1)).toEqual([
      { type: 'tool-call-start', index: 1, toolCallId: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', toolName: 'updateIssueList' },
      { type: 'tool-call-delta', index: 1, delta: '{}' },
      { type: 'tool-call-end', index: 1, argumentsText: '{}' },
    ]);
    expect(terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'text', text: "I'll update the issue list for you." },
          { type: 'tool-call', toolCallId: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', toolName: 'updateIssueList', argumentsText: '{}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: { inputTokens: 565, outputTokens: 48, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' },
    });
    expectConsistent(events, terminal);
  });

  it('decodes data-only frames (proxies without event: lines) and CRLF framing the same way', async () => {
    const chunks = fixtureText('vercel-ai__anthropic-tool-no-args.chunks.txt');
    const reference = await run([sseBytes(chunks)]);
    expect(await run([sseBytes(chunks, { eventLines: false })])).toEqual(reference);
    expect(await run([sseBytes(chunks, { crlf: true })])).toEqual(reference);
  });
});

describe('decodeAnthropicMessagesStream: constructed streams (fact sheet §3.11)', () => {
  it('maps thinking with signature, redacted thinking, text, tool JSON fragments and growing cache usage', async () => {
    const { events, terminal } = await run([sseBytes(fixtureText('constructed__anthropic-thinking-tool.chunks.txt'))]);
    expect(events).toEqual([
      { type: 'usage', usage: { inputTokens: 1120, outputTokens: 1, cacheReadInputTokens: 1000, cacheWriteInputTokens: 100 } },
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, delta: 'The user wants ' },
      { type: 'reasoning-delta', index: 0, delta: 'the weather in Paris.' },
      { type: 'reasoning-end', index: 0, signature: 'EqQBCkgIARABGAIiQL2constructedsignature==' },
      { type: 'reasoning-redacted', index: 1, data: 'EmwKAhgBEgy3constructedredacted==' },
      { type: 'text-start', index: 2 },
      { type: 'text-delta', index: 2, delta: 'Let me check ' },
      { type: 'text-delta', index: 2, delta: 'the weather — ☀️.' },
      { type: 'text-end', index: 2 },
      { type: 'tool-call-start', index: 3, toolCallId: 'toolu_constructed_01', toolName: 'get_weather' },
      { type: 'tool-call-delta', index: 3, delta: '{"city": "Par' },
      { type: 'tool-call-delta', index: 3, delta: 'is", "unit": "c"}' },
      { type: 'tool-call-end', index: 3, argumentsText: '{"city": "Paris", "unit": "c"}' },
      {
        type: 'usage',
        usage: { inputTokens: 1120, outputTokens: 85, cacheReadInputTokens: 1000, cacheWriteInputTokens: 100, reasoningOutputTokens: 40 },
      },
    ]);
    expect(terminal).toMatchObject({
      status: 'completed',
      result: {
        content: [
          { type: 'reasoning', text: 'The user wants the weather in Paris.', signature: 'EqQBCkgIARABGAIiQL2constructedsignature==' },
          { type: 'redacted-reasoning', data: 'EmwKAhgBEgy3constructedredacted==' },
          { type: 'text', text: 'Let me check the weather — ☀️.' },
          { type: 'tool-call', argumentsText: '{"city": "Paris", "unit": "c"}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    });
    expectConsistent(events, terminal);
  });

  it('ends with a failed, retryable overloaded terminal on a mid-stream error event, keeping usage and retry hints', async () => {
    const { events, terminal, released } = await run([sseBytes(fixtureText('constructed__anthropic-error-overloaded.chunks.txt'))], {
      headers: { 'retry-after': '3' },
    });
    expect(events.map((event) => event.type)).toEqual(['usage', 'text-start', 'text-delta']);
    expect(terminal).toEqual({
      status: 'failed',
      failure: { code: 'overloaded', retryable: true, retryAfterMs: 3000, providerCode: 'overloaded_error' },
      usage: { inputTokens: 12, outputTokens: 1 },
    });
    expect(released).toBe(true);
  });

  it('maps other mid-stream error types, including an unknown one and one without an error object', async () => {
    const start = { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } };
    const failureOf = async (error: unknown) => (await run([sseBytes(lines(start, { type: 'error', error }))])).terminal;
    expect(await failureOf({ type: 'api_error', message: 'x' })).toMatchObject({ failure: { code: 'provider-error', retryable: true } });
    expect(await failureOf({ type: 'rate_limit_error' })).toMatchObject({ failure: { code: 'rate-limited', retryable: true } });
    expect(await failureOf({ type: 'brand_new_error' })).toMatchObject({
      failure: { code: 'provider-error', retryable: false, providerCode: 'brand_new_error' },
    });
    expect(await failureOf('not an object')).toMatchObject({ failure: { code: 'provider-error', retryable: false } });
    // An error may arrive before message_start.
    expect((await run([sseBytes(lines({ type: 'error', error: { type: 'overloaded_error' } }))])).terminal).toMatchObject({
      status: 'failed',
      failure: { code: 'overloaded' },
    });
  });

  it('surfaces a max_tokens stop in the middle of tool JSON as length with the partial arguments', async () => {
    const { events, terminal } = await run([sseBytes(fixtureText('constructed__anthropic-max-tokens-mid-tool.chunks.txt'))]);
    expect(terminal).toMatchObject({
      status: 'completed',
      finishReason: { unified: 'length', raw: 'max_tokens' },
      result: { content: [{ type: 'tool-call', argumentsText: '{"path": "notes.txt", "content": "Once upon' }] },
      usage: { inputTokens: 30, outputTokens: 16 },
    });
    expectConsistent(events, terminal);
  });

  it('fails a tool call whose arguments are not JSON when the stop reason is not length', async () => {
    const chunks = fixtureText('constructed__anthropic-max-tokens-mid-tool.chunks.txt').replace('"max_tokens"', '"tool_use"');
    const { terminal } = await run([sseBytes(chunks)]);
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false }, usage: { inputTokens: 30, outputTokens: 16 } });
  });

  it('maps a refusal stop reason with stop_details to refusal, keeping the text', async () => {
    const { terminal } = await run([sseBytes(fixtureText('constructed__anthropic-refusal.chunks.txt'))]);
    expect(terminal).toMatchObject({
      status: 'completed',
      finishReason: { unified: 'refusal', raw: 'refusal' },
      result: { content: [{ type: 'text', text: "I can't help with that." }] },
    });
  });

  it('keeps an unknown future stop reason as other', async () => {
    const chunks = fixtureText('constructed__anthropic-refusal.chunks.txt').replace('"refusal","stop_sequence"', '"future_reason","stop_sequence"');
    expect((await run([sseBytes(chunks)])).terminal).toMatchObject({ finishReason: { unified: 'other', raw: 'future_reason' } });
  });

  it('prefers later message_delta input figures and ignores a repeated message_start with the same id', async () => {
    const start = { type: 'message_start', message: { id: 'm1', usage: { input_tokens: 43, output_tokens: 1 } } };
    const { events, terminal } = await run([
      sseBytes(
        lines(
          start,
          start,
          { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { input_tokens: 61, output_tokens: 5 } },
          { type: 'message_stop' },
        ),
      ),
    ]);
    expect(events).toEqual([
      { type: 'usage', usage: { inputTokens: 43, outputTokens: 1 } },
      { type: 'usage', usage: { inputTokens: 61, outputTokens: 5 } },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [] }, usage: { inputTokens: 61, outputTokens: 5 } });
  });

  it('skips server tool blocks with their streamed input and keeps the normalized indexes of the others', async () => {
    const { events, terminal } = await run([
      sseBytes(
        lines(
          { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } },
          { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 's', name: 'web_search', input: {} } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":"x"}' } },
          { type: 'content_block_stop', index: 0 },
          { type: 'content_block_start', index: 1, content_block: { type: 'web_search_tool_result', tool_use_id: 's', content: [] } },
          { type: 'content_block_stop', index: 1 },
          { type: 'content_block_start', index: 2, content_block: { type: 'text', text: 'Found it' } },
          { type: 'content_block_stop', index: 2 },
          { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
          { type: 'message_stop' },
        ),
      ),
    ]);
    expect(events.filter((event) => event.type !== 'usage')).toEqual([
      { type: 'text-start', index: 2 },
      { type: 'text-delta', index: 2, delta: 'Found it' },
      { type: 'text-end', index: 2 },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Found it' }] } });
    expectConsistent(events, terminal);
  });

  it('reads a streamed compaction block as one whole event and skips MCP blocks, keeping the text after them', async () => {
    const { events, terminal } = await run([
      sseBytes(
        lines(
          { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } },
          { type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null } },
          { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: 'Summary', encrypted_content: 'b3BhcXVl' } },
          { type: 'content_block_stop', index: 0 },
          { type: 'content_block_start', index: 1, content_block: { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', server_name: 'example', input: {} } },
          { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"text":"hi"}' } },
          { type: 'content_block_stop', index: 1 },
          { type: 'content_block_start', index: 2, content_block: { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [] } },
          { type: 'content_block_stop', index: 2 },
          { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'ok' } },
          { type: 'content_block_stop', index: 3 },
          { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
          { type: 'message_stop' },
        ),
      ),
    ]);
    expect(events.filter((event) => event.type !== 'usage')).toEqual([
      { type: 'compaction', index: 0, data: 'Summary', providerFields: '{"encrypted_content":"b3BhcXVl"}' },
      { type: 'text-start', index: 3 },
      { type: 'text-delta', index: 3, delta: 'ok' },
      { type: 'text-end', index: 3 },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'compaction', data: 'Summary', providerFields: '{"encrypted_content":"b3BhcXVl"}' }, { type: 'text', text: 'ok' }] } });
  });

  it('refuses a compaction delta inside a text block', async () => {
    const { terminal } = await run([
      sseBytes(
        lines(
          { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: 'x' } },
        ),
      ),
    ]);
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'protocol-violation' } });
  });
});

describe('decodeAnthropicMessagesStream: broken streams', () => {
  const start = { type: 'message_start', message: { id: 'm1', usage: { input_tokens: 5, output_tokens: 1 } } };
  const textStart = { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } };
  const stop = { type: 'content_block_stop', index: 0 };
  const end = [{ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }, { type: 'message_stop' }];

  it('ends a stream without message_stop as a retryable truncated-stream, keeping usage', async () => {
    const chunks = fixtureText('vercel-ai__anthropic-text.chunks.txt').replace('{"type":"message_stop"}', '');
    const { terminal, released } = await run([sseBytes(chunks)]);
    expect(terminal).toEqual({
      status: 'failed',
      failure: { code: 'truncated-stream', retryable: true },
      usage: { inputTokens: 12, outputTokens: 30, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' },
    });
    expect(released).toBe(true);
    expect((await run([])).terminal).toEqual({ status: 'failed', failure: { code: 'truncated-stream', retryable: true } });
  });

  it.each([
    ['an unknown event type', [start, { type: 'message_pause' }]],
    ['an unknown delta type', [start, textStart, { type: 'content_block_delta', index: 0, delta: { type: 'hologram_delta' } }]],
    ['an unknown block type', [start, { type: 'content_block_start', index: 0, content_block: { type: 'hologram' } }]],
    ['a delta for an unopened index', [start, { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'x' } }]],
    ['a delta after the block stopped', [start, textStart, stop, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }]],
    ['a stop for an unopened index', [start, stop]],
    ['a block stopped twice', [start, textStart, stop, stop]],
    ['a block started twice', [start, textStart, stop, textStart]],
    ['a delta of the wrong kind', [start, textStart, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{}' } }]],
    ['a signature on a text block', [start, textStart, { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 's' } }]],
    ['a delta inside a redacted block', [start, { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'd' } }, { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'x' } }]],
    ['message_stop with a block open', [start, textStart, { type: 'message_stop' }]],
    ['content before message_start', [textStart]],
    ['a second message with another id', [start, { type: 'message_start', message: { id: 'm2', usage: { input_tokens: 5 } } }]],
    ['a message_start without usage', [{ type: 'message_start', message: { id: 'm1' } }]],
    ['a message_start without id', [{ type: 'message_start', message: { usage: { input_tokens: 1 } } }]],
    ['a message_delta without output_tokens', [start, { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: {} }]],
    ['decreasing usage', [start, { type: 'message_delta', delta: {}, usage: { input_tokens: 4, output_tokens: 2 } }]],
    ['a negative cache figure', [start, { type: 'message_delta', delta: {}, usage: { output_tokens: 2, cache_read_input_tokens: -1 } }]],
    ['an index out of range', [start, { type: 'content_block_start', index: 1_000_001, content_block: { type: 'text', text: '' } }]],
    ['a fractional index', [start, { type: 'content_block_start', index: 0.5, content_block: { type: 'text', text: '' } }]],
    ['an event without type', [start, { index: 0 }]],
    ['a JSON array event', [start, [1, 2]]],
    ['a text delta whose text is not a string', [start, textStart, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 5 } }]],
    [
      'a tool delta whose partial_json is not a string',
      [start, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'f', input: {} } }, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: null } }],
    ],
    [
      'a thinking delta whose thinking or signature is not a string',
      [start, { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }, { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 1 } }],
    ],
    ['a delta whose type is not a string', [start, textStart, { type: 'content_block_delta', index: 0, delta: { type: 7, text: 'x' } }]],
    ['an event type that is not a string', [start, { type: ['content_block_stop'], index: 0 }]],
    ['an over-long tool id', [start, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'x'.repeat(513), name: 'f', input: {} } }]],
  ])('fails with protocol-violation on %s', async (_label, events) => {
    const { terminal, released } = await run([sseBytesSafe(lines(...events, ...end))]);
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
    expect(released).toBe(true);
  });

  it('fails when the SSE event name contradicts the JSON type', async () => {
    const bytes = encoder.encode(`event: message_stop\ndata: ${JSON.stringify(start)}\n\n`);
    expect((await run([bytes])).terminal).toMatchObject({ failure: { code: 'protocol-violation' } });
  });

  it('fails on malformed JSON, invalid UTF-8 and an oversized event, never throwing', async () => {
    const startBytes = sseBytes(lines(start));
    expect((await run([startBytes, encoder.encode('event: ping\ndata: {"type":\n\n')])).terminal).toMatchObject({ failure: { code: 'protocol-violation' } });
    const invalidUtf8 = new Uint8Array([...encoder.encode('data: {"type":"ping","x":"'), 0xff, 0xfe, ...encoder.encode('"}\n\n')]);
    expect((await run([startBytes, invalidUtf8])).terminal).toMatchObject({ failure: { code: 'protocol-violation' } });
    const huge = encoder.encode(`data: {"type":"ping","pad":"${'a'.repeat(8 * 1024 * 1024 + 16)}"}\n\n`);
    const { terminal, released } = await run([startBytes, huge]);
    expect(terminal).toMatchObject({ failure: { code: 'protocol-violation' } });
    expect(released).toBe(true);
  });

  it('ends as cancelled and releases the body when the signal aborts mid-stream', async () => {
    const controller = new AbortController();
    let released = false;
    const body: AsyncIterable<Uint8Array> = {
      async *[Symbol.asyncIterator]() {
        try {
          yield sseBytes(lines(start, textStart));
          controller.abort();
          yield sseBytes(lines({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'late' } }));
        } finally {
          released = true;
        }
      },
    };
    const parts: AdapterStreamPartV1[] = [];
    for await (const part of decodeAnthropicMessagesStream({ body, headers: {}, nowMs: 0, signal: controller.signal })) parts.push(part);
    expect(parts.at(-1)).toEqual({ type: 'terminal', outcome: { status: 'cancelled' } });
    expect(parts.filter((part) => part.type === 'terminal')).toHaveLength(1);
    // After an abort the kit releases the body without waiting for it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(released).toBe(true);
  });
});

describe('decodeAnthropicMessagesStream: properties', () => {
  const recorded = [
    'vercel-ai__anthropic-text.chunks.txt',
    'vercel-ai__anthropic-tool-no-args.chunks.txt',
    'constructed__anthropic-thinking-tool.chunks.txt',
    'constructed__anthropic-error-overloaded.chunks.txt',
  ].map((name) => sseBytes(fixtureText(name)));

  it('yields the same parts for any split of the bytes, including inside multi-byte characters', async () => {
    const references = await Promise.all(recorded.map((bytes) => run([bytes])));
    await fc.assert(
      fc.asyncProperty(fc.nat(recorded.length - 1), fc.array(fc.nat(), { maxLength: 40 }), async (which, cuts) => {
        const bytes = recorded[which] as Uint8Array;
        expect(await run(splitAt(bytes, cuts))).toEqual(references[which]);
      }),
      { numRuns: 150 },
    );
  });

  const anyEvent = fc.oneof(
    fc.constantFrom(
      { type: 'ping' },
      { type: 'message_stop' },
      { type: 'message_start', message: { id: 'm1', usage: { input_tokens: 3 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'f', input: {} } },
      { type: 'content_block_start', index: 2, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'a' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'signature_delta', signature: 's' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } },
      { type: 'error', error: { type: 'overloaded_error' } },
    ),
    fc.record({ type: fc.string({ maxLength: 12 }), index: fc.integer({ min: -2, max: 3 }) }),
    fc.jsonValue({ maxDepth: 3 }),
  );

  it('ends every random sequence of valid, invalid and garbage events with exactly one valid terminal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyEvent, { maxLength: 16 }), fc.boolean(), async (events, garbage) => {
        const text = lines(...events);
        const bytes = garbage ? encoder.encode(`data: ${text.replaceAll('\n', '\n\ndata: ')}\n\n: comment\n\ndata: {oops\n\n`) : sseBytesSafe(text);
        const { events: decoded, terminal, released } = await run([bytes]);
        expect(adapterTerminalOutcomeV3Schema.safeParse(terminal).success).toBe(true);
        expect(released).toBe(true);
        expectConsistent(decoded, terminal);
      }),
      { numRuns: 300 },
    );
  });
});

/** Frames lines as data-only SSE (works for lines that are not objects with a `type`). */
function sseBytesSafe(text: string): Uint8Array {
  const frames = text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => `data: ${line}\n\n`);
  return encoder.encode(frames.join(''));
}

describe('decodeAnthropicMessagesStream: usage details', () => {
  it('takes details from message_start and lets the cumulative message_delta revise them (later wins)', async () => {
    const text = lines(
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-x',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 10, cache_creation_input_tokens: 4, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 4, ephemeral_1h_input_tokens: 0 }, output_tokens: 1, service_tier: 'standard' },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9, server_tool_use: { web_search_requests: 3 } } },
      { type: 'message_stop' },
    );
    const { events, terminal } = await run([sseBytes(text)]);
    const usages = events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []));
    expect(usages).toEqual([
      { inputTokens: 14, outputTokens: 1, cacheReadInputTokens: 0, cacheWriteInputTokens: 4, cacheWriteInputTokensByTtl: { fiveMinutes: 4, oneHour: 0 }, serviceTier: 'standard' },
      {
        inputTokens: 14,
        outputTokens: 9,
        cacheReadInputTokens: 0,
        cacheWriteInputTokens: 4,
        cacheWriteInputTokensByTtl: { fiveMinutes: 4, oneHour: 0 },
        serverToolRequests: { webSearch: 3 },
        serviceTier: 'standard',
      },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', usage: usages.at(-1) });
    for (const usage of usages) expect(usageV3Schema.safeParse(usage).success).toBe(true);
  });
});


describe('decodeAnthropicMessagesStream: server-side compaction usage', () => {
  it('counts the compaction iteration beside the smaller final usage, so the snapshot only grows (constructed__anthropic-compaction-usage.chunks.txt)', async () => {
    const { events, terminal } = await run([sseBytes(fixtureText('constructed__anthropic-compaction-usage.chunks.txt'))]);
    const usages = events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []));
    // message_start: the compaction step alone; message_delta: the final message (23000 / 1000) plus the compaction
    // iteration its top-level figures leave out (180000 / 3500), documented as billed on top.
    expect(usages).toEqual([
      { inputTokens: 180000, outputTokens: 3500, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 },
      { inputTokens: 203000, outputTokens: 4500, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 },
    ]);
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'compaction', data: 'Summary of the conversation so far.' }, { type: 'text' }] }, usage: usages.at(-1) });
    expectConsistent(events, terminal);
  });

  it('refuses an iterations member that is not a list of typed usage entries', async () => {
    const text = lines(
      { type: 'message_start', message: { id: 'm', usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2, iterations: [{ type: 'compaction', input_tokens: 'many' }] } },
      { type: 'message_stop' },
    );
    const { terminal } = await run([sseBytes(text)]);
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'protocol-violation' } });
  });
});
