import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeCostV1 } from './compute-cost-v1.js';
import {
  DEFAULT_OUTPUT_TOKEN_CEILING_V1,
  DOCUMENT_INPUT_TOKEN_ALLOWANCE_V1,
  IMAGE_INPUT_TOKEN_ALLOWANCE_V1,
  estimateReservationV1,
} from './estimate-reservation-v1.js';
import { parsePriceTableV1 } from './price-table-v1.js';

const cheap = parsePriceTableV1({ currency: 'USD', version: 'cheap', inputPerMillion: 1, outputPerMillion: 2 });
const dear = parsePriceTableV1({
  currency: 'USD',
  version: 'dear',
  inputPerMillion: 3,
  cacheWritePerMillion: { oneHour: 6 },
  outputPerMillion: 15,
  reasoningPerMillion: 20,
  perImage: '0.04',
});

describe('estimateReservationV1', () => {
  it('bounds input by the request bytes plus an allowance per image and document, output by max_tokens', () => {
    const estimate = estimateReservationV1({ requestBytes: 1000, inputImages: 2, inputDocuments: 1, maxOutputTokens: 500 }, [{ price: cheap }]);
    const input = 1000 + 2 * IMAGE_INPUT_TOKEN_ALLOWANCE_V1 + DOCUMENT_INPUT_TOKEN_ALLOWANCE_V1;
    expect(estimate).toEqual({
      reservedTokens: input + 500,
      reservedMicros: input * 1 + 500 * 2,
      currency: 'USD',
      priceVersion: 'cheap',
    });
  });

  it('reserves at the highest price among the targets: dearest input (cache writes) and output (reasoning) rates', () => {
    const estimate = estimateReservationV1({ requestBytes: 1_000_000, inputImages: 0, inputDocuments: 0, maxOutputTokens: 1_000_000 }, [
      { price: cheap },
      { price: dear },
    ]);
    expect(estimate).toMatchObject({ reservedMicros: 6_000_000 + 20_000_000, priceVersion: 'dear', reservedTokens: 2_000_000 });
  });

  it('takes the output ceiling from the target when the request names none, capped by it when it does', () => {
    const facts = { requestBytes: 0, inputImages: 0, inputDocuments: 0 };
    expect(estimateReservationV1(facts, [{ price: cheap, maxOutputTokens: 4096 }])?.reservedTokens).toBe(4096);
    expect(estimateReservationV1({ ...facts, maxOutputTokens: 100_000 }, [{ price: cheap, maxOutputTokens: 4096 }])?.reservedTokens).toBe(4096);
    expect(estimateReservationV1(facts, [{ price: cheap }])?.reservedTokens).toBe(DEFAULT_OUTPUT_TOKEN_CEILING_V1);
    expect(
      estimateReservationV1(facts, [
        { price: cheap, maxOutputTokens: 64_000 },
        { price: dear, maxOutputTokens: 1_000 },
      ])?.reservedTokens,
    ).toBe(64_000);
  });

  it('reserves asked-for images at their price, answers undefined without prices, refuses mixed currencies', () => {
    expect(estimateReservationV1({ requestBytes: 0, inputImages: 0, inputDocuments: 0, maxOutputTokens: 0, requestedImages: 4 }, [{ price: dear }])?.reservedMicros).toBe(160_000);
    expect(estimateReservationV1({ requestBytes: 10, inputImages: 0, inputDocuments: 0 }, [])).toBeUndefined();
    const euro = parsePriceTableV1({ currency: 'EUR', inputPerMillion: 1, outputPerMillion: 1 });
    expect(() => estimateReservationV1({ requestBytes: 10, inputImages: 0, inputDocuments: 0 }, [{ price: cheap }, { price: euro }])).toThrow(RangeError);
  });

  it('is never below the cost of any usage within its bounds, on any target (property)', () => {
    const price = fc
      .record({ input: fc.integer({ min: 0, max: 50_000_000 }), output: fc.integer({ min: 0, max: 50_000_000 }), write: fc.integer({ min: 0, max: 50_000_000 }), read: fc.integer({ min: 0, max: 50_000_000 }) })
      .map((prices) =>
        parsePriceTableV1({
          currency: 'USD',
          inputPerMillion: prices.input / 1e6,
          cachedInputReadPerMillion: prices.read / 1e6,
          cacheWritePerMillion: { fiveMinutes: prices.write / 1e6 },
          outputPerMillion: prices.output / 1e6,
        }),
      );
    fc.assert(
      fc.property(
        fc.array(price, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (prices, requestBytes, maxOutputTokens, servedIndex, readShare, writeShare) => {
          const estimate = estimateReservationV1({ requestBytes, inputImages: 0, inputDocuments: 0, maxOutputTokens }, prices.map((entry) => ({ price: entry })));
          const served = prices[servedIndex % prices.length];
          if (served === undefined || estimate === undefined) throw new Error('unreachable');
          const read = readShare % (requestBytes + 1);
          const write = writeShare % (requestBytes - read + 1);
          const cost = computeCostV1({ inputTokens: requestBytes, cacheReadInputTokens: read, cacheWriteInputTokens: write, outputTokens: maxOutputTokens }, served);
          expect(cost?.costMicros).toBeLessThanOrEqual(estimate.reservedMicros);
        },
      ),
      { numRuns: 400 },
    );
  });
});
