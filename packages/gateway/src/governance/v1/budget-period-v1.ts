import type { BudgetV1 } from './governance-store-v1.js';

const DAY_MS = 86_400_000;

/** The UTC day the last call fell in, with its period keys (a request's clock reads fall in one day almost always). */
let lastDay = { startMs: Number.NaN, day: '', month: '', keys: [] as readonly string[] };

function dayOf(nowMs: number): typeof lastDay {
  if (nowMs >= lastDay.startMs && nowMs < lastDay.startMs + DAY_MS) return lastDay;
  const iso = new Date(nowMs).toISOString();
  const day = `day:${iso.slice(0, 10)}`;
  const month = `month:${iso.slice(0, 7)}`;
  lastDay = { startMs: Math.floor(nowMs / DAY_MS) * DAY_MS, day, month, keys: Object.freeze(['total', day, month]) };
  return lastDay;
}

/**
 * The key of the budget period that holds the instant `nowMs` (on the store's clock): `total`, `day:YYYY-MM-DD` or
 * `month:YYYY-MM`, in UTC. Spend is kept per period key, so a new period starts at zero without a reset.
 */
export function budgetPeriodKeyV1(period: BudgetV1['period'], nowMs: number): string {
  switch (period) {
    case 'total':
      return 'total';
    case 'day':
      return dayOf(nowMs).day;
    case 'month':
      return dayOf(nowMs).month;
    default: {
      const unknown: never = period;
      throw new RangeError(`unknown budget period ${String(unknown)}`);
    }
  }
}

/** When the period holding `nowMs` ends (00:00 UTC of the next day or month); `undefined` for `total`. */
export function budgetPeriodEndMsV1(period: BudgetV1['period'], nowMs: number): number | undefined {
  const now = new Date(nowMs);
  switch (period) {
    case 'total':
      return undefined;
    case 'day':
      return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    case 'month':
      return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    default: {
      const unknown: never = period;
      throw new RangeError(`unknown budget period ${String(unknown)}`);
    }
  }
}

/** The three period keys a settlement at `nowMs` is charged to (every budget can then be read from them). */
export function budgetPeriodKeysV1(nowMs: number): readonly string[] {
  return dayOf(nowMs).keys;
}
