import { PROVIDER_FAILURE_CODES_V1, adapterTerminalOutcomeSchema, normalizedStreamEventV1Schema } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, fixtureChunkLines, runStream, splitBytes, sseBody } from './test-support/gemini-test-support.js';

const encoder = new TextEncoder();

const text = 'é中😀 naïve 𝄞';
const richStream = sseBody([
  chunk([{ text: `think ${text}`, thought: true }], { usageMetadata: { promptTokenCount: 4 } }),
  chunk([{ text: 'more', thought: true, thoughtSignature: 'U0lH' }, { text }]),
  chunk([{ text: ' end' }, { functionCall: { name: 'f', args: { t: text } }, thoughtSignature: 'VA==' }], { usageMetadata: { trafficType: 'ON_DEMAND' } }),
  chunk([{ functionCall: { name: 'g', willContinue: true } }]),
  chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.s', stringValue: text, willContinue: true }], willContinue: true } }]),
  chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.s', stringValue: '!' }, { jsonPath: '$.n[0]', numberValue: 1.5 }], willContinue: true } }]),
  chunk([{ functionCall: {} }, { text: '', thoughtSignature: 'RU5E' }], { usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 9, thoughtsTokenCount: 3, totalTokenCount: 16 } }, { finishReason: 'STOP' }),
]);

describe('gemini-generate-content stream properties', () => {
  it.each([
    ['the recorded Vertex stream', sseBody(fixtureChunkLines('vercel-ai__google-stream-tool-call-arguments.chunks.txt'))],
    ['a constructed stream with thoughts, text, whole and streamed calls and multi-byte text', richStream],
  ])('gives the same parts for any split of %s', async (_label, body) => {
    const bytes = encoder.encode(body);
    const whole = await runStream([bytes]);
    expect(whole.terminal.status).toBe('completed');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.byteLength - 1 }), { maxLength: 50 }), async (cuts) => {
        expect((await runStream(splitBytes(bytes, cuts))).parts).toEqual(whole.parts);
      }),
      { numRuns: 60 },
    );
  });

  it('gives the same parts for LF, CRLF and CR framing', async () => {
    const payloads = fixtureChunkLines('vercel-ai__google-stream-tool-call-arguments.chunks.txt');
    const results = await Promise.all(['\n', '\r\n', '\r'].map((newline) => runStream([encoder.encode(sseBody(payloads, newline))])));
    expect(results[1]?.parts).toEqual(results[0]?.parts);
    expect(results[2]?.parts).toEqual(results[0]?.parts);
  });

  it('assembles the constructed stream as documented', async () => {
    const { terminal } = await runStream([encoder.encode(richStream)]);
    expect(terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: `think ${text}more`, signature: 'U0lH' },
          { type: 'text', text: `${text} end` },
          { type: 'tool-call', toolCallId: 'gemini-fc-73ce6f99-0', toolName: 'f', argumentsText: JSON.stringify({ t: text }), signature: 'VA==' },
          { type: 'tool-call', toolCallId: 'gemini-fc-73ce6f99-1', toolName: 'g', argumentsText: JSON.stringify({ s: `${text}!`, n: [1.5] }) },
          { type: 'reasoning', text: '', signature: 'RU5E' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 4, outputTokens: 12, reasoningOutputTokens: 3, totalTokens: 16 },
    });
  });

  const part = fc.oneof(
    fc.record({ text: fc.oneof(fc.string(), fc.integer()), thought: fc.oneof(fc.boolean(), fc.constant('yes')), thoughtSignature: fc.oneof(fc.string(), fc.constant(null)) }, { requiredKeys: [] }),
    fc.record(
      {
        functionCall: fc.oneof(
          fc.constant({}),
          fc.record(
            {
              name: fc.oneof(fc.string(), fc.constant(7)),
              args: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())),
              id: fc.string(),
              willContinue: fc.oneof(fc.boolean(), fc.constant('x')),
              partialArgs: fc.array(
                fc.record(
                  {
                    jsonPath: fc.oneof(fc.constantFrom('$.a', '$.a.b', '$.l[0]', '$.l[1]', "$['q']", '$', 'x'), fc.string()),
                    stringValue: fc.string(),
                    numberValue: fc.oneof(fc.double(), fc.integer()),
                    boolValue: fc.boolean(),
                    willContinue: fc.boolean(),
                  },
                  { requiredKeys: ['jsonPath'] },
                ),
                { maxLength: 3 },
              ),
            },
            { requiredKeys: [] },
          ),
        ),
        thoughtSignature: fc.string(),
      },
      { requiredKeys: ['functionCall'] },
    ),
    fc.constantFrom({ executableCode: { code: 'x' } }, { hologram: {} }, { inlineData: 5 }, {}),
  );
  const hostileChunk = fc.oneof(
    fc.string(),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc
      .record(
        {
          candidates: fc.oneof(
            fc.constant(null),
            fc.array(
              fc.record(
                {
                  content: fc.oneof(fc.constant({}), fc.record({ parts: fc.array(part, { maxLength: 3 }) })),
                  finishReason: fc.constantFrom('STOP', 'MAX_TOKENS', 'SAFETY', 'stop', 'MALFORMED_FUNCTION_CALL', 'NEW_REASON'),
                  index: fc.constantFrom(0, 1, '0'),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 2 },
            ),
          ),
          usageMetadata: fc.record(
            {
              promptTokenCount: fc.oneof(fc.nat(50), fc.constant(-1), fc.constant(1.5)),
              candidatesTokenCount: fc.nat(50),
              cachedContentTokenCount: fc.nat(60),
              totalTokenCount: fc.nat(200),
            },
            { requiredKeys: [] },
          ),
          promptFeedback: fc.record({ blockReason: fc.constantFrom('SAFETY', 'OTHER', 3) }, { requiredKeys: [] }),
          error: fc.record({ code: fc.integer({ min: 0, max: 700 }), status: fc.constantFrom('UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'x y') }, { requiredKeys: [] }),
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
  );
  const framing = fc.constantFrom('data', 'bare', 'named');

  it('ends random and malformed streams with exactly one valid terminal, never an exception', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(hostileChunk, framing), { maxLength: 8 }), fc.array(fc.nat(4000), { maxLength: 10 }), async (chunks, cuts) => {
        const body = chunks
          .map(([payload, frame]) => (frame === 'data' ? `data: ${payload}\r\n\r\n` : frame === 'bare' ? `${payload}\n` : `event: x\ndata: ${payload}\n\n`))
          .join('');
        const bytes = encoder.encode(body);
        const { parts, terminal } = await runStream(splitBytes(bytes, cuts));
        expect(adapterTerminalOutcomeSchema.safeParse(terminal).success).toBe(true);
        if (terminal.status === 'failed') expect(PROVIDER_FAILURE_CODES_V1).toContain(terminal.failure.code);
        for (const event of parts.slice(0, -1)) expect(normalizedStreamEventV1Schema.safeParse(event).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
