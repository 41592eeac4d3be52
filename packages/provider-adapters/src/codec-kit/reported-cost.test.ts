import { describe, expect, it } from 'vitest';
import { isReportedCostCurrency, readReportedCost, reportedCostField } from './reported-cost.js';

describe('readReportedCost', () => {
  it('turns a decimal amount into integer millionths of the declared currency', () => {
    expect(readReportedCost(0.000_95, 'USD')).toEqual({ amountMicros: 950, currency: 'USD' });
    expect(readReportedCost(0, 'USD')).toEqual({ amountMicros: 0, currency: 'USD' });
    expect(readReportedCost(12.345_678_9, 'EUR')).toEqual({ amountMicros: 12_345_679, currency: 'EUR' });
    // Below half a millionth rounds to a reported zero, not to an absent cost.
    expect(readReportedCost(0.000_000_4, 'USD')).toEqual({ amountMicros: 0, currency: 'USD' });
  });

  it('leaves out what is not a cost: no currency, not a finite non-negative number, beyond the bound', () => {
    for (const amount of [undefined, null, '0.5', -0.01, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_VALUE]) {
      expect(readReportedCost(amount, 'USD')).toBeUndefined();
    }
    expect(readReportedCost(1, undefined)).toBeUndefined();
    expect(reportedCostField(-1, 'USD')).toEqual({});
    expect(reportedCostField(1, 'USD')).toEqual({ cost: { amountMicros: 1_000_000, currency: 'USD' } });
  });

  it('takes ISO 4217 codes as the contract writes them', () => {
    expect(['USD', 'EUR', 'CNY'].every(isReportedCostCurrency)).toBe(true);
    expect(['usd', 'US', 'USDT', '', 1].some(isReportedCostCurrency)).toBe(false);
  });
});
