import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeCostV1 } from './compute-cost-v1.js';
import { parsePriceTableV1, type PriceTableV1 } from './price-table-v1.js';

const table = parsePriceTableV1({
  currency: 'USD',
  inputPerMillion: '3',
  cachedInputReadPerMillion: '0.3',
  cacheWritePerMillion: { fiveMinutes: '3.75', oneHour: '6' },
  outputPerMillion: 15,
  reasoningPerMillion: '20',
  perImage: '0.04',
  perVideoSecond: '0.1',
  perWebSearch: '0.01',
});

describe('parsePriceTableV1', () => {
  it('reads decimal prices into exact integer micro-units and resolves fallbacks', () => {
    expect(table).toMatchObject({
      inputPerMillion: 3_000_000,
      cachedInputReadPerMillion: 300_000,
      cacheWriteFiveMinutesPerMillion: 3_750_000,
      cacheWriteOneHourPerMillion: 6_000_000,
      outputPerMillion: 15_000_000,
      reasoningPerMillion: 20_000_000,
      perImage: 40_000,
      perVideoSecond: 100_000,
      perWebSearch: 10_000,
    });
    const bare = parsePriceTableV1({ currency: 'EUR', inputPerMillion: 0.1, outputPerMillion: '0.2' });
    expect(bare).toMatchObject({
      inputPerMillion: 100_000,
      cachedInputReadPerMillion: 100_000,
      cacheWriteFiveMinutesPerMillion: 100_000,
      cacheWriteOneHourPerMillion: 100_000,
      reasoningPerMillion: 200_000,
    });
    expect(bare.perImage).toBeUndefined();
  });

  it('refuses prices that are negative, have more than 6 decimals or are not decimals', () => {
    for (const price of ['-1', '0.0000001', '1e-7', 1e-7, 'abc', '', '01', 1e21]) {
      expect(() => parsePriceTableV1({ currency: 'USD', inputPerMillion: price, outputPerMillion: 1 }), String(price)).toThrow();
    }
    expect(() => parsePriceTableV1({ currency: 'usd', inputPerMillion: 1, outputPerMillion: 1 })).toThrow();
    expect(() => parsePriceTableV1({ currency: 'USD', inputPerMillion: 1, outputPerMillion: 1, extra: 1 })).toThrow();
  });

  it('derives the version from the prices (not their spelling) unless one is declared', () => {
    const a = parsePriceTableV1({ currency: 'USD', inputPerMillion: '2.50', outputPerMillion: 10 });
    const b = parsePriceTableV1({ currency: 'USD', inputPerMillion: 2.5, outputPerMillion: '10.000' });
    const c = parsePriceTableV1({ currency: 'USD', inputPerMillion: 2.5, outputPerMillion: '10.000001' });
    expect(a.version).toMatch(/^p-[0-9a-f]{16}$/);
    expect(b.version).toBe(a.version);
    expect(c.version).not.toBe(a.version);
    expect(parsePriceTableV1({ currency: 'USD', version: '2026-04', inputPerMillion: 1, outputPerMillion: 1 }).version).toBe('2026-04');
  });
});

describe('computeCostV1', () => {
  it('has no cost without usage, or with usage that reports nothing billed', () => {
    expect(computeCostV1(undefined, table)).toBeUndefined();
    expect(computeCostV1({}, table)).toBeUndefined();
    expect(computeCostV1({ totalTokens: 10, serviceTier: 'default' }, table)).toBeUndefined();
    expect(computeCostV1({ inputTokens: 0, outputTokens: 0 }, table)).toEqual({ costMicros: 0 });
  });

  it('prices cached reads, cache writes by time to live and reasoning out of their totals', () => {
    const usage = {
      inputTokens: 10_000,
      cacheReadInputTokens: 6_000,
      cacheWriteInputTokens: 3_000,
      cacheWriteInputTokensByTtl: { oneHour: 1_000 },
      outputTokens: 2_000,
      reasoningOutputTokens: 500,
    };
    // 1000 uncached * 3 + 6000 * 0.3 + 2000 (5 min) * 3.75 + 1000 (1 h) * 6 + 1500 * 15 + 500 * 20, per million
    const expected = (1000 * 3 + 6000 * 0.3 + 2000 * 3.75 + 1000 * 6 + 1500 * 15 + 500 * 20) / 1_000_000;
    expect(computeCostV1(usage, table)).toEqual({ costMicros: Math.round(expected * 1_000_000) });
  });

  it('prices images, video seconds and hosted searches per unit', () => {
    expect(computeCostV1({ images: 3 }, table)).toEqual({ costMicros: 120_000 });
    expect(computeCostV1({ videoSeconds: 8 }, table)).toEqual({ costMicros: 800_000 });
    expect(computeCostV1({ inputTokens: 0, outputTokens: 0, serverToolRequests: { webSearch: 2 } }, table)).toEqual({ costMicros: 20_000 });
    const unpriced = parsePriceTableV1({ currency: 'USD', inputPerMillion: 1, outputPerMillion: 1 });
    expect(computeCostV1({ images: 3 }, unpriced)).toEqual({ costMicros: 0 });
  });

  it('rounds the total up to a whole micro-unit once, without floating-point drift', () => {
    const tenth = parsePriceTableV1({ currency: 'USD', inputPerMillion: '0.1', outputPerMillion: '0.2' });
    // 0.1 + 0.2 per token-million: 3 tokens of each is 0.9 micro-units, charged 1; in floating point 0.30000000000000004.
    expect(computeCostV1({ inputTokens: 3, outputTokens: 3 }, tenth)).toEqual({ costMicros: 1 });
    expect(computeCostV1({ inputTokens: 10, outputTokens: 0 }, tenth)).toEqual({ costMicros: 1 });
    expect(computeCostV1({ inputTokens: 10_000_000, outputTokens: 10_000_000 }, tenth)).toEqual({ costMicros: 3_000_000 });
  });

  const arbitraryTable = fc
    .record({
      inputPerMillion: fc.integer({ min: 0, max: 100_000_000 }),
      cachedInputReadPerMillion: fc.integer({ min: 0, max: 100_000_000 }),
      cacheWriteFiveMinutesPerMillion: fc.integer({ min: 0, max: 100_000_000 }),
      cacheWriteOneHourPerMillion: fc.integer({ min: 0, max: 100_000_000 }),
      outputPerMillion: fc.integer({ min: 0, max: 100_000_000 }),
      reasoningPerMillion: fc.integer({ min: 0, max: 100_000_000 }),
      perImage: fc.integer({ min: 0, max: 1_000_000 }),
    })
    .map((prices): PriceTableV1 => ({ currency: 'USD', version: 'v', ...prices }));
  const arbitraryUsage = fc
    .record({
      uncached: fc.integer({ min: 0, max: 2_000_000_000 }),
      read: fc.integer({ min: 0, max: 2_000_000_000 }),
      fiveMinutes: fc.integer({ min: 0, max: 2_000_000_000 }),
      oneHour: fc.integer({ min: 0, max: 2_000_000_000 }),
      plain: fc.integer({ min: 0, max: 2_000_000_000 }),
      reasoning: fc.integer({ min: 0, max: 2_000_000_000 }),
      images: fc.integer({ min: 0, max: 100 }),
    });

  it('equals the exact rational cost rounded up, for any usage and prices (property)', () => {
    fc.assert(
      fc.property(arbitraryTable, arbitraryUsage, (price, parts) => {
        const usage = {
          inputTokens: parts.uncached + parts.read + parts.fiveMinutes + parts.oneHour,
          cacheReadInputTokens: parts.read,
          cacheWriteInputTokens: parts.fiveMinutes + parts.oneHour,
          cacheWriteInputTokensByTtl: { fiveMinutes: parts.fiveMinutes, oneHour: parts.oneHour },
          outputTokens: parts.plain + parts.reasoning,
          reasoningOutputTokens: parts.reasoning,
          images: parts.images,
        };
        const exactMillionths =
          BigInt(parts.uncached) * BigInt(price.inputPerMillion) +
          BigInt(parts.read) * BigInt(price.cachedInputReadPerMillion) +
          BigInt(parts.fiveMinutes) * BigInt(price.cacheWriteFiveMinutesPerMillion) +
          BigInt(parts.oneHour) * BigInt(price.cacheWriteOneHourPerMillion) +
          BigInt(parts.plain) * BigInt(price.outputPerMillion) +
          BigInt(parts.reasoning) * BigInt(price.reasoningPerMillion) +
          BigInt(parts.images) * BigInt(price.perImage ?? 0) * 1_000_000n;
        const cost = computeCostV1(usage, price);
        expect(cost).toBeDefined();
        const charged = BigInt(cost?.costMicros ?? -1);
        expect(charged * 1_000_000n >= exactMillionths).toBe(true);
        expect((charged - 1n) * 1_000_000n < exactMillionths).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never charges less for more usage (property)', () => {
    fc.assert(
      fc.property(arbitraryTable, arbitraryUsage, fc.integer({ min: 1, max: 1_000_000 }), (price, parts, extra) => {
        const usage = { inputTokens: parts.uncached, outputTokens: parts.plain };
        const more = { inputTokens: parts.uncached + extra, outputTokens: parts.plain + extra };
        expect((computeCostV1(more, price)?.costMicros ?? 0) >= (computeCostV1(usage, price)?.costMicros ?? 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
