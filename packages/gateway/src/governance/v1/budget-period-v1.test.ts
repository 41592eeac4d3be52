import { describe, expect, it } from 'vitest';
import { budgetPeriodKeysV1, budgetPeriodKeyV1 } from './budget-period-v1.js';

const DAY_MS = 86_400_000;

describe('budget period keys', () => {
  it('name the UTC day and month of any instant, in any order of calls (the last day is remembered)', () => {
    const instants = [Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), Date.UTC(2026, 11, 31), Date.UTC(2028, 1, 29, 12), Date.UTC(2028, 2, 1) - 1, 0, -1];
    let seed = 7;
    for (let index = 0; index < 2000; index += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const base = instants[index % instants.length] as number;
      instants.push(base + ((seed % (3 * DAY_MS)) - DAY_MS));
    }
    for (const instant of instants) {
      const iso = new Date(instant).toISOString();
      expect(budgetPeriodKeyV1('day', instant)).toBe(`day:${iso.slice(0, 10)}`);
      expect(budgetPeriodKeyV1('month', instant)).toBe(`month:${iso.slice(0, 7)}`);
      expect(budgetPeriodKeysV1(instant)).toEqual(['total', `day:${iso.slice(0, 10)}`, `month:${iso.slice(0, 7)}`]);
    }
    expect(budgetPeriodKeyV1('total', 0)).toBe('total');
  });
});
