import { describe, expect, it } from 'vitest';
import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { chunk, dataItems, fixtureChunkLines, runMachine } from './test-support/gemini-test-support.js';

function violationOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('createGeminiStreamMachine', () => {
  it('assembles Vertex streamed function-call arguments (recorded)', () => {
    const { events, terminal } = runMachine(dataItems(fixtureChunkLines('vercel-ai__google-stream-tool-call-arguments.chunks.txt')));
    const signature = (JSON.parse(fixtureChunkLines('vercel-ai__google-stream-tool-call-arguments.chunks.txt')[0] as string) as {
      candidates: [{ content: { parts: [{ thoughtSignature: string }] } }];
    }).candidates[0].content.parts[0].thoughtSignature;
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, toolCallId: 'gemini-fc-61660bc6-0', toolName: 'getWeather' },
      { type: 'tool-call-delta', index: 0, delta: '{"location":"Boston' },
      { type: 'tool-call-delta', index: 0, delta: '"' },
      { type: 'tool-call-delta', index: 0, delta: '}' },
      { type: 'tool-call-end', index: 0, argumentsText: '{"location":"Boston"}', signature },
      { type: 'tool-call-start', index: 1, toolCallId: 'gemini-fc-61660bc6-1', toolName: 'getWeather' },
      { type: 'tool-call-delta', index: 1, delta: '{"location":"San Francisco' },
      { type: 'tool-call-delta', index: 1, delta: '"' },
      { type: 'tool-call-delta', index: 1, delta: '}' },
      { type: 'tool-call-end', index: 1, argumentsText: '{"location":"San Francisco"}' },
      { type: 'usage', usage: { inputTokens: 26, inputTokensByModality: { text: 26 }, outputTokens: 155, outputTokensByModality: { text: 23 }, reasoningOutputTokens: 132, totalTokens: 181 } },
    ]);
    expect(terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'tool-call', toolCallId: 'gemini-fc-61660bc6-0', toolName: 'getWeather', argumentsText: '{"location":"Boston"}', signature },
          { type: 'tool-call', toolCallId: 'gemini-fc-61660bc6-1', toolName: 'getWeather', argumentsText: '{"location":"San Francisco"}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 26, inputTokensByModality: { text: 26 }, outputTokens: 155, outputTokensByModality: { text: 23 }, reasoningOutputTokens: 132, totalTokens: 181 },
    });
  });

  it('attaches the final empty part signature to the preceding thought block (constructed, §4.9.1)', () => {
    const { events, terminal } = runMachine(
      dataItems([
        chunk([{ text: 'Let me ', thought: true }]),
        chunk([{ text: 'think.', thought: true }]),
        chunk([{ text: '', thoughtSignature: 'U0lHMQ==' }], {}, { finishReason: 'STOP' }),
      ]),
    );
    expect(events).toEqual([
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, delta: 'Let me ' },
      { type: 'reasoning-delta', index: 0, delta: 'think.' },
      { type: 'reasoning-end', index: 0, signature: 'U0lHMQ==' },
    ]);
    expect(terminal).toMatchObject({ result: { content: [{ type: 'reasoning', text: 'Let me think.', signature: 'U0lHMQ==' }] }, finishReason: { unified: 'stop' } });
  });

  it('keeps a final signature after visible text as an empty reasoning block (constructed, §4.9.1)', () => {
    const { events, terminal } = runMachine(
      dataItems([
        chunk([{ text: 'why', thought: true }, { text: 'Hello' }]),
        chunk([{ text: ', world' }]),
        chunk([{ text: '', thoughtSignature: 'U0lH' }], {}, { finishReason: 'STOP' }),
      ]),
    );
    expect(events).toEqual([
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, delta: 'why' },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, delta: 'Hello' },
      { type: 'text-delta', index: 1, delta: ', world' },
      { type: 'text-end', index: 1 },
      { type: 'reasoning-start', index: 2 },
      { type: 'reasoning-end', index: 2, signature: 'U0lH' },
    ]);
    expect(terminal).toMatchObject({
      result: {
        content: [
          { type: 'reasoning', text: 'why' },
          { type: 'text', text: 'Hello, world' },
          { type: 'reasoning', text: '', signature: 'U0lH' },
        ],
      },
    });
  });

  it('reports the last usage once at the end, not a sum, and ignores count-less usage (constructed, §4.9.6)', () => {
    const { events, terminal } = runMachine(
      dataItems([
        chunk([{ text: 'a' }], { usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 13, totalTokenCount: 18 } }),
        chunk([{ text: 'b' }], { usageMetadata: { trafficType: 'ON_DEMAND' } }),
        chunk([{ text: 'c' }], { usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 13, totalTokenCount: 18 } }),
        chunk([], { usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 23, totalTokenCount: 28 } }, { finishReason: 'STOP' }),
      ]),
    );
    expect(events.filter((event) => event.type === 'usage')).toEqual([
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 23, totalTokens: 28 } },
    ]);
    expect(events.at(-1)?.type).toBe('usage');
    expect(terminal).toMatchObject({ result: { content: [{ type: 'text', text: 'abc' }] }, usage: { inputTokens: 5, outputTokens: 23, totalTokens: 28 } });
  });

  it('takes provisional usage that goes down: the final chunk is authoritative (documented: usageMetadata on every chunk)', () => {
    // The figures of issue 17: promptTokenCount 15, 15, then 13; a provisional candidates count above the final one.
    const { events, terminal } = runMachine(
      dataItems([
        chunk([{ text: 'a' }], { usageMetadata: { promptTokenCount: 15, candidatesTokenCount: 169, totalTokenCount: 184 } }),
        chunk([{ text: 'b' }], { usageMetadata: { promptTokenCount: 15, candidatesTokenCount: 170, totalTokenCount: 185 } }),
        chunk([{ text: 'c' }], { usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 79, totalTokenCount: 92 } }, { finishReason: 'STOP' }),
      ]),
    );
    expect(events.filter((event) => event.type === 'usage')).toEqual([{ type: 'usage', usage: { inputTokens: 13, outputTokens: 79, totalTokens: 92 } }]);
    expect(terminal).toMatchObject({ status: 'completed', usage: { inputTokens: 13, outputTokens: 79, totalTokens: 92 } });
  });

  it('ends with a failed terminal on an error object, in a data event or bare (constructed, §4.9.5)', () => {
    const errorBody = {
      error: {
        code: 429,
        message: 'quota',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '39.5s' }],
      },
    };
    const inData = runMachine(dataItems([chunk([{ text: 'partial' }], { usageMetadata: { promptTokenCount: 3 } }), errorBody]));
    expect(inData.events.at(-1)).toEqual({ type: 'text-end', index: 0 });
    expect(inData.terminal).toEqual({
      status: 'failed',
      failure: { code: 'rate-limited', retryable: true, retryAfterMs: 39_500, providerCode: 'RESOURCE_EXHAUSTED' },
      usage: { inputTokens: 3 },
    });
    const bare = runMachine([...dataItems([chunk([{ text: 'x' }])]), { kind: 'bare-json', text: JSON.stringify(errorBody) }]);
    expect(bare.terminal).toMatchObject({ status: 'failed', failure: { code: 'rate-limited', retryAfterMs: 39_500 } });
  });

  it('leaves a stream without finish reason to the truncation rule', () => {
    const run = runMachine(dataItems([chunk([{ text: 'cut' }])]));
    expect(run.terminal).toBeUndefined();
  });

  it('reads Vertex finishReason on every chunk: content after it is content, the last one counts (documented Vertex behaviour)', () => {
    const { events, terminal } = runMachine(
      dataItems([
        chunk([{ text: 'Once ' }], {}, { finishReason: 'STOP' }),
        chunk([{ text: 'upon ' }], {}, { finishReason: 'STOP' }),
        chunk([{ text: 'a time' }], { usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 3, totalTokenCount: 7 } }, { finishReason: 'RECITATION' }),
      ]),
    );
    expect(events).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Once ' },
      { type: 'text-delta', index: 0, delta: 'upon ' },
      { type: 'text-delta', index: 0, delta: 'a time' },
      { type: 'text-end', index: 0 },
      { type: 'usage', usage: { inputTokens: 4, outputTokens: 3, totalTokens: 7 } },
    ]);
    expect(terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text: 'Once upon a time' }] },
      finishReason: { unified: 'content-filter', raw: 'RECITATION' },
      usage: { inputTokens: 4, outputTokens: 3, totalTokens: 7 },
    });
  });

  it('keeps an unknown last finish reason raw', () => {
    const { terminal } = runMachine(dataItems([chunk([{ text: 'a' }], {}, { finishReason: 'STOP' }), chunk([{ text: 'b' }], {}, { finishReason: 'SOME_NEW_REASON' })]));
    expect(terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'other', raw: 'SOME_NEW_REASON' } });
  });

  it('leaves content after the last finish reason to the truncation rule', () => {
    const run = runMachine(dataItems([chunk([{ text: 'a' }], {}, { finishReason: 'STOP' }), chunk([{ text: 'b' }])]));
    expect(run.terminal).toBeUndefined();
  });

  it('takes the final usage as a whole when it omits a zero candidatesTokenCount an earlier chunk reported (proto3 JSON omits zeros)', () => {
    // Gemini's usageMetadata is a proto3 message: a count of 0 is left out of the JSON, so the final chunk's
    // snapshot without candidatesTokenCount reports 0 visible output, not "unchanged".
    const { events, terminal } = runMachine(
      dataItems([
        chunk([{ text: 'a' }], { usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 4, totalTokenCount: 16 } }),
        chunk([], { usageMetadata: { promptTokenCount: 12, thoughtsTokenCount: 2, totalTokenCount: 14 } }, { finishReason: 'STOP' }),
      ]),
    );
    const usage = { inputTokens: 12, outputTokens: 2, reasoningOutputTokens: 2, totalTokens: 14 };
    expect(events.filter((event) => event.type === 'usage')).toEqual([{ type: 'usage', usage }]);
    expect(terminal).toMatchObject({ status: 'completed', usage });
  });

  it('completes after a usage-only chunk that follows the finish reason', () => {
    const run = runMachine(dataItems([chunk([{ text: 'a' }], {}, { finishReason: 'STOP' }), { usageMetadata: { promptTokenCount: 2, totalTokenCount: 3 } }]));
    expect(run.terminal).toMatchObject({ status: 'completed', usage: { inputTokens: 2, totalTokens: 3 } });
  });

  it('closes an open streamed call at the finish reason', () => {
    const { terminal } = runMachine(
      dataItems([
        chunk([{ functionCall: { name: 'f', willContinue: true } }]),
        chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.n', numberValue: 2 }, { jsonPath: '$.list[0].ok', boolValue: true }], willContinue: true } }]),
        chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.list[1].ok', nullValue: 'NULL_VALUE' }], willContinue: true } }], {}, { finishReason: 'STOP' }),
      ]),
    );
    expect(terminal).toMatchObject({ result: { content: [{ type: 'tool-call', argumentsText: '{"n":2,"list":[{"ok":true},{"ok":null}]}' }] } });
  });

  it.each([
    ['a named SSE event', [{ kind: 'event', event: 'ping', id: undefined, data: '{}' }]],
    ['a bare JSON value that is not an error', [{ kind: 'bare-json', text: '{"candidates":[]}' }]],
    ['malformed JSON data', dataItems(['{"candidates":'])],
    ['content after a blocked prompt', dataItems([{ promptFeedback: { blockReason: 'SAFETY' } }, chunk([{ text: 'b' }])])],
    ['a nameless call outside a streamed call', dataItems([chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.a', numberValue: 1 }] } }])])],
    ['array elements out of order', dataItems([chunk([{ functionCall: { name: 'f', partialArgs: [{ jsonPath: '$.a[1]', numberValue: 1 }] } }])])],
    ['a key written twice', dataItems([chunk([{ functionCall: { name: 'f', partialArgs: [{ jsonPath: '$.a', numberValue: 1 }, { jsonPath: '$.a', numberValue: 2 }] } }])])],
    ['a call ending inside a string', dataItems([chunk([{ functionCall: { name: 'f', partialArgs: [{ jsonPath: '$.a', stringValue: 'x', willContinue: true }] } }])])],
    ['a path change inside a string', dataItems([chunk([{ functionCall: { name: 'f', willContinue: true, partialArgs: [{ jsonPath: '$.a', stringValue: 'x', willContinue: true }, { jsonPath: '$.b', stringValue: 'y' }] } }])])],
    ['an unsupported jsonPath', dataItems([chunk([{ functionCall: { name: 'f', partialArgs: [{ jsonPath: 'a.b', numberValue: 1 }] } }])])],
  ] as const)('fails closed on %s', (_label, items) => {
    const error = violationOf(() => runMachine(items as never));
    expect(error).toBeDefined();
    expect(isCodecErrorV1(error) || isProtocolViolationError(error)).toBe(true);
  });
});

describe('Gemini stream: usage details', () => {
  it('keeps the latest details of the cumulative usageMetadata (later wins; a count-less chunk erases nothing)', () => {
    const { events, terminal } = runMachine(
      dataItems([
        chunk([{ text: 'a' }], { usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 4 }, { modality: 'AUDIO', tokenCount: 6 }] } }),
        chunk([{ text: 'b' }], { usageMetadata: { trafficType: 'ON_DEMAND' } }),
        chunk([{ text: 'c' }], { usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: 3 }], serviceTier: 'flex' } }, { finishReason: 'STOP' }),
      ]),
    );
    const usage = { inputTokens: 10, outputTokens: 3, inputTokensByModality: { text: 4, audio: 6 }, outputTokensByModality: { text: 3 }, serviceTier: 'flex' };
    expect(events.filter((event) => event.type === 'usage')).toEqual([{ type: 'usage', usage }]);
    expect(terminal).toMatchObject({ status: 'completed', usage });
  });

  it('reads the recorded modality details (vercel-ai__google-stream-tool-call-arguments.chunks.txt)', () => {
    const { terminal } = runMachine(dataItems(fixtureChunkLines('vercel-ai__google-stream-tool-call-arguments.chunks.txt')));
    expect(terminal).toMatchObject({ usage: { inputTokensByModality: { text: 26 }, outputTokensByModality: { text: 23 } } });
  });
});

