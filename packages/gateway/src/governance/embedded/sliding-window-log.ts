/** One admission in a window: when, and how much it counts (corrected at settlement). */
export interface WindowEntry {
  readonly atMs: number;
  amount: number;
  expired: boolean;
}

/**
 * A sliding window log: every admission is kept with its time, and the window holds exactly those of the last
 * `windowMs` on the store clock. Exact (no fixed-window burst at a boundary, no approximation): an entry counts while
 * `now < atMs + windowMs`. Memory is one entry per admission in the window, so at most the limit per holder.
 */
export class SlidingWindowLog {
  #entries: WindowEntry[] = [];
  #head = 0;
  #total = 0;

  constructor(readonly windowMs: number) {}

  #prune(nowMs: number): void {
    const entries = this.#entries;
    while (this.#head < entries.length) {
      const entry = entries[this.#head];
      if (entry === undefined || entry.atMs + this.windowMs > nowMs) break;
      entry.expired = true;
      this.#total -= entry.amount;
      this.#head += 1;
    }
    if (this.#head > 256 && this.#head * 2 > entries.length) {
      this.#entries = entries.slice(this.#head);
      this.#head = 0;
    }
  }

  /** What the window holds at `nowMs`. */
  total(nowMs: number): number {
    this.#prune(nowMs);
    return this.#total;
  }

  add(nowMs: number, amount: number): WindowEntry {
    this.#prune(nowMs);
    const entry: WindowEntry = { atMs: nowMs, amount, expired: false };
    this.#entries.push(entry);
    this.#total += amount;
    return entry;
  }

  /** Replaces what an entry counts (a reservation corrected to actual use). */
  correct(entry: WindowEntry, amount: number): void {
    if (!entry.expired) this.#total += amount - entry.amount;
    entry.amount = amount;
  }

  /** Milliseconds until `need` more fits under `limit` (0 when it fits now; `undefined` when it never will). */
  waitFor(need: number, limit: number, nowMs: number): number | undefined {
    this.#prune(nowMs);
    if (need > limit) return undefined;
    let excess = this.#total + need - limit;
    if (excess <= 0) return 0;
    for (let index = this.#head; index < this.#entries.length; index += 1) {
      const entry = this.#entries[index];
      if (entry === undefined) break;
      excess -= entry.amount;
      if (excess <= 0) return entry.atMs + this.windowMs - nowMs;
    }
    return this.windowMs;
  }

  /** Milliseconds until the window frees everything it holds (0 when empty). */
  resetMs(nowMs: number): number {
    this.#prune(nowMs);
    const last = this.#entries[this.#entries.length - 1];
    return last === undefined || this.#head >= this.#entries.length ? 0 : Math.max(0, last.atMs + this.windowMs - nowMs);
  }
}
