/**
 * A sliding window log: every admission is kept with its time, and the window holds exactly those of the last
 * `windowMs` on the store clock. Exact (no fixed-window burst at a boundary, no approximation): an entry counts while
 * `now < atMs + windowMs`. Memory is two numbers per admission in the window (parallel arrays, no object per entry),
 * so at most the limit per holder for a request window.
 */
export class SlidingWindowLog {
  #times: number[] = [];
  #amounts: number[] = [];
  /** The sequence number of `#times[0]`. */
  #base = 0;
  #head = 0;
  #total = 0;

  constructor(readonly windowMs: number) {}

  #prune(nowMs: number): void {
    const times = this.#times;
    while (this.#head < times.length && (times[this.#head] ?? 0) + this.windowMs <= nowMs) {
      this.#total -= this.#amounts[this.#head] ?? 0;
      this.#head += 1;
    }
    if (this.#head >= 16 && this.#head * 2 >= times.length) {
      this.#times = times.slice(this.#head);
      this.#amounts = this.#amounts.slice(this.#head);
      this.#base += this.#head;
      this.#head = 0;
    }
  }

  /** What the window holds at `nowMs`. */
  total(nowMs: number): number {
    this.#prune(nowMs);
    return this.#total;
  }

  /** Counts `amount` at `nowMs`; answers the entry's sequence number, for {@link SlidingWindowLog.correct}. */
  add(nowMs: number, amount: number): number {
    this.#prune(nowMs);
    this.#times.push(nowMs);
    this.#amounts.push(amount);
    this.#total += amount;
    return this.#base + this.#times.length - 1;
  }

  /** Replaces what an entry counts (a reservation corrected to actual use); an entry out of the window is left. */
  correct(sequence: number, amount: number): void {
    const index = sequence - this.#base;
    if (index < this.#head || index >= this.#amounts.length) return;
    this.#total += amount - (this.#amounts[index] ?? 0);
    this.#amounts[index] = amount;
  }

  /** Milliseconds until `need` more fits under `limit` (0 when it fits now; `undefined` when it never will). */
  waitFor(need: number, limit: number, nowMs: number): number | undefined {
    this.#prune(nowMs);
    if (need > limit) return undefined;
    let excess = this.#total + need - limit;
    if (excess <= 0) return 0;
    for (let index = this.#head; index < this.#times.length; index += 1) {
      excess -= this.#amounts[index] ?? 0;
      if (excess <= 0) return (this.#times[index] ?? 0) + this.windowMs - nowMs;
    }
    return this.windowMs;
  }

  /** Milliseconds until the window frees everything it holds (0 when empty). */
  resetMs(nowMs: number): number {
    this.#prune(nowMs);
    if (this.#head >= this.#times.length) return 0;
    return Math.max(0, (this.#times[this.#times.length - 1] ?? 0) + this.windowMs - nowMs);
  }
}
