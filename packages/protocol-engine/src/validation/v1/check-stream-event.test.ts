import { normalizedStreamEventV3Schema } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkStreamEvent } from './check-stream-event.js';

const TYPES = [
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'reasoning-redacted',
  'refusal-start',
  'refusal-delta',
  'refusal-end',
  'tool-call-start',
  'tool-call-delta',
  'tool-call-end',
  'usage',
] as const;

const validIndex = fc.nat({ max: 1_000_000 });
const nonEmpty = (max: number) => fc.string({ minLength: 1, maxLength: max });

/** Consistent usage: input covers the cached parts, output covers reasoning, total covers both. */
const validUsage = fc
  .record(
    {
      input: fc.nat(1e6),
      cached: fc.nat(1e6),
      output: fc.nat(1e6),
      extra: fc.nat(1e6),
      images: fc.nat(100),
    },
    { requiredKeys: [] },
  )
  .map(({ input, cached, output, extra, images }) => {
    const usage: Record<string, number> = {};
    if (input !== undefined) usage.inputTokens = input + (cached ?? 0);
    if (cached !== undefined && input !== undefined) usage.cacheReadInputTokens = cached;
    if (output !== undefined) {
      usage.outputTokens = output;
      usage.reasoningOutputTokens = Math.floor(output / 3);
    }
    if (input !== undefined && output !== undefined && extra !== undefined) usage.totalTokens = input + (cached ?? 0) + output + extra;
    if (images !== undefined) usage.images = images;
    return usage;
  });

/** Consistent V3 usage: the V1 figures with details that stay inside the totals they detail. */
const validUsageV3 = fc
  .record({ text: fc.nat(1e6), image: fc.nat(1e6), webSearch: fc.nat(50), fiveMinutes: fc.nat(1e4), tier: fc.constantFrom('default', 'priority', 'flex') }, { requiredKeys: ['text'] })
  .map(({ text, image, webSearch, fiveMinutes, tier }) => {
    const usage: Record<string, unknown> = { inputTokens: text + (image ?? 0) + (fiveMinutes ?? 0), inputTokensByModality: { text, ...(image === undefined ? {} : { image }) } };
    if (fiveMinutes !== undefined) Object.assign(usage, { cacheWriteInputTokens: fiveMinutes, cacheWriteInputTokensByTtl: { fiveMinutes } });
    if (webSearch !== undefined) usage.serverToolRequests = { webSearch };
    if (tier !== undefined) usage.serviceTier = tier;
    return usage;
  });

const validEvent: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constantFrom('text-start', 'text-end', 'reasoning-start', 'refusal-start', 'refusal-end'), index: validIndex }),
  fc.record({ type: fc.constantFrom('text-delta', 'reasoning-delta', 'refusal-delta', 'tool-call-delta'), index: validIndex, delta: fc.string() }),
  fc.record({ type: fc.constant('reasoning-end'), index: validIndex, signature: nonEmpty(40) }, { requiredKeys: ['type', 'index'] }),
  fc.record({ type: fc.constant('reasoning-redacted'), index: validIndex, data: nonEmpty(40) }),
  fc.record({ type: fc.constant('tool-call-start'), index: validIndex, toolCallId: nonEmpty(512), toolName: nonEmpty(256) }),
  fc.record(
    { type: fc.constant('tool-call-end'), index: validIndex, argumentsText: fc.string(), signature: nonEmpty(40) },
    { requiredKeys: ['type', 'index', 'argumentsText'] },
  ),
  fc.record({ type: fc.constant('usage'), usage: validUsage }),
  fc.record({ type: fc.constant('usage'), usage: validUsageV3 }),
);

/** Values that are sometimes right and often wrong for any field. */
const anyField = fc.oneof(
  validIndex,
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 1_000_001, Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 53, 0.5),
  fc.string({ maxLength: 3 }),
  fc.string({ minLength: 255, maxLength: 520 }),
  fc.constant(''),
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.nat(), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('inputTokens', 'outputTokens', 'totalTokens', 'cost'), fc.oneof(fc.nat(10), fc.integer(), fc.double())),
);

/** Arbitrary objects over the event vocabulary: any subset of keys, any values. */
const looseEvent = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...TYPES, 'terminal', 'text', 'TEXT-DELTA'), anyField),
    index: anyField,
    delta: anyField,
    signature: anyField,
    data: anyField,
    toolCallId: anyField,
    toolName: anyField,
    argumentsText: anyField,
    usage: anyField,
    extra: anyField,
  },
  { requiredKeys: [] },
);

/** Valid events broken in one way: a key removed, a key added, or one field replaced. */
const mutatedEvent = fc.tuple(validEvent, fc.nat(), fc.constantFrom('remove', 'add', 'replace'), anyField).map(([event, pick, how, value]) => {
  const copy: Record<string, unknown> = { ...event };
  const keys = Object.keys(copy);
  const key = keys[pick % keys.length] as string;
  if (how === 'remove') delete copy[key];
  else if (how === 'add') copy.unexpected = value;
  else copy[key] = value;
  return copy;
});

function agrees(value: unknown): void {
  const schemaAccepts = normalizedStreamEventV3Schema.safeParse(value).success;
  const checked = checkStreamEvent(value);
  expect(checked !== undefined).toBe(schemaAccepts);
}

describe('checkStreamEvent agrees with normalizedStreamEventV3Schema', () => {
  it('accepts every valid event and returns an equal copy', () => {
    fc.assert(
      fc.property(validEvent, (event) => {
        const parsed = normalizedStreamEventV3Schema.parse(event);
        const checked = checkStreamEvent(event);
        expect(checked).toEqual(parsed);
        expect(checked).not.toBe(event);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every valid event with an undeclared field', () => {
    fc.assert(
      fc.property(validEvent, fc.string({ minLength: 1 }), anyField, (event, key, value) => {
        fc.pre(!['type', 'index', 'delta', 'signature', 'data', 'toolCallId', 'toolName', 'argumentsText', 'usage'].includes(key));
        const broken = { ...event, [key]: value };
        expect(normalizedStreamEventV3Schema.safeParse(broken).success).toBe(false);
        expect(checkStreamEvent(broken)).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees on mutated events', () => {
    fc.assert(fc.property(mutatedEvent, agrees), { numRuns: 4000 });
  });

  it('agrees on loose objects over the whole vocabulary', () => {
    fc.assert(fc.property(looseEvent, agrees), { numRuns: 4000 });
  });

  it('agrees on arbitrary values', () => {
    fc.assert(fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), agrees), { numRuns: 1000 });
  });

  it('agrees on hand-picked edge cases', () => {
    const edges: unknown[] = [
      { type: 'text-delta', index: 0, delta: '' },
      { type: 'text-start', index: -0 },
      { type: 'text-start', index: 1_000_000 },
      { type: 'text-start', index: 1_000_001 },
      { type: 'text-start', index: 1.5 },
      { type: 'reasoning-end', index: 0, signature: '' },
      { type: 'reasoning-end', index: 0, signature: undefined },
      { type: 'tool-call-start', index: 0, toolCallId: 'x'.repeat(513), toolName: 'f' },
      { type: 'tool-call-start', index: 0, toolCallId: 'x'.repeat(512), toolName: 'f'.repeat(256) },
      { type: 'usage', usage: { inputTokens: 1, cacheReadInputTokens: 2 } },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 1 } },
      { type: 'usage', usage: { inputTokens: 2 ** 53 } },
      { type: 'usage', usage: {}, index: 0 },
      { type: 'usage', usage: [] },
      { type: 'usage', usage: { inputTokens: 3, inputTokensByModality: { text: 2, image: 1 } } },
      { type: 'usage', usage: { inputTokens: 2, inputTokensByModality: { text: 2, image: 1 } } },
      { type: 'usage', usage: { inputTokensByModality: { text: 2, smell: 1 } } },
      { type: 'usage', usage: { cacheWriteInputTokens: 1, cacheWriteInputTokensByTtl: { oneHour: 2 } } },
      { type: 'usage', usage: { serviceTier: 'priority', serverToolRequests: { webSearch: 1 } } },
      { type: 'usage', usage: { serviceTier: 'not a tier' } },
      JSON.parse('{"type":"text-start","index":0,"__proto__":1}'),
      Object.assign(Object.create({ inherited: true }), { type: 'text-start', index: 0 }),
      [{ type: 'text-start', index: 0 }],
    ];
    for (const edge of edges) agrees(edge);
  });
});
