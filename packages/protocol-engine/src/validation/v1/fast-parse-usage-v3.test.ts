import { adapterTerminalOutcomeV3Schema, usageV3Schema } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkStreamEvent } from './check-stream-event.js';
import { fastParseTerminal } from './fast-parse-terminal.js';
import { fastParseUsageV3, USAGE_V3_FIELDS } from './fast-parse-usage-v3.js';
import { assertAgreesWithSchema, noisyBuilders, type Loose } from '../../test-support/schema-arbitraries.js';

/** V3 usage objects whose fields are valid except with odds `1 / noise`. */
function usages(noise: number): fc.Arbitrary<Loose> {
  const { rarely, object } = noisyBuilders(noise);
  const count = rarely(fc.nat(1000), fc.constantFrom(-1, 0.5, 2 ** 53, '3'));
  const counts = (...keys: string[]): fc.Arbitrary<Loose> => object({}, Object.fromEntries(keys.map((key) => [key, count])));
  const byModality = counts('text', 'image', 'audio', 'video', 'document');
  return object({}, {
    inputTokens: count,
    outputTokens: count,
    totalTokens: count,
    cacheReadInputTokens: count,
    cacheWriteInputTokens: count,
    cacheWriteInputTokensByTtl: counts('fiveMinutes', 'oneHour'),
    reasoningOutputTokens: count,
    inputTokensByModality: byModality,
    outputTokensByModality: byModality,
    serverToolRequests: counts('webSearch', 'webFetch', 'codeExecution', 'fileSearch'),
    serviceTier: rarely(fc.stringMatching(/^[A-Za-z0-9_.:-]{1,64}$/), fc.constantFrom('', 'a b', 't'.repeat(65))),
    images: count,
    searchUnits: count,
    videoSeconds: count,
  });
}

describe('fastParseUsageV3', () => {
  it('lists the schema fields in the schema order', () => {
    expect(USAGE_V3_FIELDS.map(([key]) => key)).toStrictEqual(Object.keys(usageV3Schema.shape));
  });

  it('decides exactly the usage the schema accepts, with the same output (property)', () => {
    assertAgreesWithSchema({ inputs: fc.oneof(usages(4), usages(30), usages(300)), fast: fastParseUsageV3, schema: usageV3Schema, numRuns: 5000, leastEach: 300 });
  });

  it('agrees with the schema on the V3 consistency rules at their bounds', () => {
    const cases: Loose[] = [
      { cacheWriteInputTokens: 5, cacheWriteInputTokensByTtl: { fiveMinutes: 3, oneHour: 2 } },
      { cacheWriteInputTokens: 5, cacheWriteInputTokensByTtl: { fiveMinutes: 3, oneHour: 3 } },
      { inputTokens: 4, inputTokensByModality: { text: 2, image: 2 } },
      { inputTokens: 4, inputTokensByModality: { text: 2, image: 3 } },
      { outputTokens: 1, outputTokensByModality: { audio: 2 } },
      { serviceTier: 'standard', inputTokens: 3, cacheReadInputTokens: 4 },
      { serviceTier: undefined, images: undefined },
    ];
    for (const usage of cases) {
      const schema = usageV3Schema.safeParse(usage);
      expect(fastParseUsageV3(usage)).toStrictEqual(schema.success ? schema.data : undefined);
    }
  });

  it('lets the stream event check and the terminal check take V3 usage without the schema (the Anthropic shape)', () => {
    const usage = { inputTokens: 565, outputTokens: 48, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' };
    expect(checkStreamEvent({ type: 'usage', usage })).toStrictEqual({ type: 'usage', usage });
    const terminal = { status: 'completed', result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 't', toolName: 'w', argumentsText: '{}' }] }, finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage };
    expect(fastParseTerminal(terminal)).toStrictEqual(adapterTerminalOutcomeV3Schema.parse(terminal));
    expect(fastParseTerminal({ ...terminal, usage: { ...usage, cacheWriteInputTokensByTtl: { fiveMinutes: 1 } } })).toBeUndefined();
  });
});
