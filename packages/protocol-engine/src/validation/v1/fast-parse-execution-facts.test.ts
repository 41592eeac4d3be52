import { providerAcceptanceFactsSchema, providerResponseMetadataSchema } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastParseAcceptance, fastParseResponseMetadata } from './fast-parse-execution-facts.js';

const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.constantFrom('accepted', 'not-accepted', 'unknown', 'Accepted', '', 'r'.repeat(256), 'r'.repeat(257)),
  fc.string({ maxLength: 8 }),
);
const objects = fc.oneof(
  fc.record({ state: value, providerRequestId: value, providerModel: value, extra: value }, { requiredKeys: [] }),
  fc.constantFrom(null, [], 'accepted', Object.create(null) as object, new (class Facts {})()),
);

describe('fast execution facts', () => {
  it('decide exactly what the schemas accept, with the same output (property)', () => {
    fc.assert(
      fc.property(objects, (input) => {
        for (const [fast, schema] of [
          [fastParseAcceptance(input), providerAcceptanceFactsSchema.safeParse(input)],
          [fastParseResponseMetadata(input), providerResponseMetadataSchema.safeParse(input)],
        ] as const) {
          const plain = typeof input === 'object' && input !== null && !Array.isArray(input) && [Object.prototype, null].includes(Object.getPrototypeOf(input) as object);
          expect(fast !== undefined).toBe(schema.success && plain);
          if (fast !== undefined) expect(fast).toStrictEqual(schema.data);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('decide the common shapes', () => {
    expect(fastParseAcceptance({ state: 'accepted' })).toStrictEqual({ state: 'accepted' });
    expect(fastParseResponseMetadata({})).toStrictEqual({});
    expect(fastParseResponseMetadata({ providerRequestId: 'req_1', providerModel: undefined })).toStrictEqual({ providerRequestId: 'req_1', providerModel: undefined });
    expect(fastParseResponseMetadata({ providerModel: 'm'.repeat(257) })).toBeUndefined();
  });
});
