import { adapterTerminalOutcomeSchema, PROVIDER_FAILURE_CODES_V1 } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTerminal } from './check-adapter-output.js';
import { fastParseTerminal } from './fast-parse-terminal.js';
import { assertAgreesWithSchema, editAt, noisyBuilders, type Loose } from '../../test-support/schema-arbitraries.js';

/** Terminals whose fields are valid except with odds `1 / noise` (see test-support/schema-arbitraries.ts). */
function terminals(noise: number): fc.Arbitrary<Loose> {
  const { rarely, object, bounded } = noisyBuilders(noise);
  const count = rarely(fc.nat(1000), fc.constantFrom(-1, 0.5, 2 ** 53));
  const usage = object({}, {
    inputTokens: count,
    outputTokens: count,
    totalTokens: count,
    cacheReadInputTokens: count,
    cacheWriteInputTokens: count,
    reasoningOutputTokens: count,
    images: count,
    searchUnits: count,
    videoSeconds: count,
  });
  const part = fc.oneof(
    object({ type: fc.constantFrom('text', 'refusal'), text: fc.string({ maxLength: 8 }) }),
    object({ type: fc.constant('reasoning'), text: fc.string({ maxLength: 8 }) }, { signature: bounded(1, 1000) }),
    object({ type: fc.constant('redacted-reasoning'), data: bounded(1, 1000) }),
    object({ type: fc.constant('tool-call'), toolCallId: bounded(1, 512), toolName: bounded(1, 256), argumentsText: fc.string({ maxLength: 8 }) }, { signature: bounded(1, 1000) }),
    object({ type: fc.constant('image'), text: fc.string() }),
  );
  const finishReason = object(
    { unified: rarely(fc.constantFrom('stop', 'length', 'tool-calls', 'content-filter', 'refusal', 'other'), fc.constant('done')) },
    { raw: rarely(fc.stringMatching(/^[A-Za-z0-9_.:-]{0,64}$/), fc.constantFrom('a b', 'r'.repeat(65))) },
  );
  const failure = object(
    { code: rarely(fc.constantFrom(...PROVIDER_FAILURE_CODES_V1), fc.constant('oops')), retryable: fc.boolean() },
    {
      retryAfterMs: rarely(fc.nat(86_400_000), fc.constantFrom(-1, 86_400_001, 0.5)),
      providerCode: rarely(fc.stringMatching(/^[A-Za-z0-9_.:-]{1,64}$/), fc.constantFrom('', 'a b', 'c'.repeat(65))),
    },
  );
  return fc.oneof(
    object({ status: fc.constant('cancelled') }),
    object({ status: fc.constant('failed'), failure }, { usage }),
    object(
      { status: fc.constant('completed'), result: fc.oneof({ arbitrary: object({ kind: fc.constant('chat'), content: fc.array(part, { maxLength: 3 }) }), weight: 8 }, object({ kind: fc.constant('rerank'), results: fc.constant([]) })) },
      { finishReason, usage },
    ),
  );
}

describe('fastParseTerminal', () => {
  it('decides exactly the covered terminals the schema accepts, with the same output (property)', () => {
    assertAgreesWithSchema({
      inputs: fc.oneof(terminals(6), terminals(30), terminals(300)),
      fast: fastParseTerminal,
      schema: adapterTerminalOutcomeSchema,
      covers: (terminal) => !(terminal.status === 'completed' && (terminal.result as Loose | undefined)?.kind !== 'chat'),
      numRuns: 5000,
      leastEach: 300,
    });
  });

  it('agrees with the schema at every bound, one field changed at a time', () => {
    const completed = (): Loose => ({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: 'r', signature: 's' },
          { type: 'text', text: 'hi' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', argumentsText: '{}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cacheReadInputTokens: 4, reasoningOutputTokens: 2 },
    });
    const failed = (): Loose => ({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 1000, providerCode: 'rate_limit' } });
    const edits: [string, () => Loose, (string | number)[], string, unknown][] = [
      ['cached tokens above input', completed, ['usage'], 'cacheReadInputTokens', 11],
      ['cached tokens equal to input', completed, ['usage'], 'cacheReadInputTokens', 10],
      ['reasoning above output', completed, ['usage'], 'reasoningOutputTokens', 6],
      ['total below input plus output', completed, ['usage'], 'totalTokens', 14],
      ['fractional count', completed, ['usage'], 'images', 0.5],
      ['raw finish reason 64', completed, ['finishReason'], 'raw', 'r'.repeat(64)],
      ['raw finish reason 65', completed, ['finishReason'], 'raw', 'r'.repeat(65)],
      ['raw finish reason with a space', completed, ['finishReason'], 'raw', 'tool calls'],
      ['empty raw finish reason', completed, ['finishReason'], 'raw', ''],
      ['unknown unified reason', completed, ['finishReason'], 'unified', 'done'],
      ['tool call id 513', completed, ['result', 'content', 2], 'toolCallId', 'c'.repeat(513)],
      ['tool name 256', completed, ['result', 'content', 2], 'toolName', 't'.repeat(256)],
      ['tool name 257', completed, ['result', 'content', 2], 'toolName', 't'.repeat(257)],
      ['empty signature', completed, ['result', 'content', 0], 'signature', ''],
      ['retry after one day', failed, ['failure'], 'retryAfterMs', 86_400_000],
      ['retry after past one day', failed, ['failure'], 'retryAfterMs', 86_400_001],
      ['provider code 65', failed, ['failure'], 'providerCode', 'c'.repeat(65)],
      ['provider code with a slash', failed, ['failure'], 'providerCode', 'a/b'],
      ['unknown failure code', failed, ['failure'], 'code', 'oops'],
      ['retryable missing', failed, ['failure'], 'retryable', undefined],
    ];
    for (const [label, build, path, key, value] of edits) {
      const terminal = build();
      editAt(terminal, path, key, value);
      const schema = adapterTerminalOutcomeSchema.safeParse(terminal);
      expect(adapterTerminalOutcomeSchema.safeParse(build()).success).toBe(true);
      expect({ label, decided: fastParseTerminal(terminal) !== undefined }).toStrictEqual({ label, decided: schema.success });
      if (schema.success) expect(fastParseTerminal(terminal)).toStrictEqual(schema.data);
    }
  });

  it('leaves other result kinds and non-plain input to the schema, which checkTerminal still answers', () => {
    expect(fastParseTerminal({ status: 'completed', result: { kind: 'rerank', results: [] } })).toBeUndefined();
    expect(fastParseTerminal(Object.assign(new (class Outcome {})(), { status: 'cancelled' }))).toBeUndefined();
    expect(fastParseTerminal(null)).toBeUndefined();
    const task = { kind: 'chat' as const, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x' }] }], stream: false };
    const capability = { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'] } as unknown as Parameters<typeof checkTerminal>[2];
    expect(() => checkTerminal({ status: 'completed', result: { kind: 'chat', content: [{ type: 'image' }] } }, task, capability)).toThrow(
      expect.objectContaining({ code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID', message: expect.stringContaining('result.content.0') }),
    );
    const outcome = checkTerminal({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'hi' }] }, usage: { inputTokens: 1 } }, task, capability);
    expect(Object.isFrozen(outcome)).toBe(true);
    expect(outcome).toStrictEqual({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'hi' }] }, usage: { inputTokens: 1 } });
  });
});
