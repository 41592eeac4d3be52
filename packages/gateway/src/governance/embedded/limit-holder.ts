import { SlidingWindowLog } from './sliding-window-log.js';

/** A minute: the span of the request and token windows. */
export const LIMIT_WINDOW_MS = 60_000;

/** What the embedded store counts for one tenant or one key, in memory. */
export class LimitHolder {
  /** First attempts admitted (one per request). */
  readonly requests = new SlidingWindowLog(LIMIT_WINDOW_MS);
  /** Tokens reserved at admission, corrected to use at settlement. */
  readonly tokens = new SlidingWindowLog(LIMIT_WINDOW_MS);
  /** Requests holding a slot. */
  inFlight = 0;
  /** Micro-units reserved and not yet settled, by currency. */
  readonly reserved = new Map<string, number>();
  /** Micro-units spent, by `<period key>|<currency>` (see `budgetPeriodKeyV1`). */
  readonly spent = new Map<string, number>();

  reservedIn(currency: string): number {
    return this.reserved.get(currency) ?? 0;
  }

  addReserved(currency: string, micros: number): void {
    this.reserved.set(currency, this.reservedIn(currency) + micros);
  }

  spentIn(period: string, currency: string): number {
    return this.spent.get(`${period}|${currency}`) ?? 0;
  }

  addSpent(period: string, currency: string, micros: number): void {
    const key = `${period}|${currency}`;
    this.spent.set(key, (this.spent.get(key) ?? 0) + micros);
  }
}
