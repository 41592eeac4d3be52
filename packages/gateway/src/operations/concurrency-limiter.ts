/** Counts model requests in flight and refuses more than `max` at once. */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private max: number) {}

  /** A new cap (a reload): slots held above it are kept until released, new requests wait for room below it. */
  resize(max: number): void {
    this.max = max;
  }

  /** The cap. */
  get capacity(): number {
    return this.max;
  }

  /** Takes a slot; `false` when all are taken. */
  tryAcquire(): boolean {
    if (this.active >= this.max) return false;
    this.active += 1;
    return true;
  }

  /** Gives a slot back. */
  release(): void {
    this.active = Math.max(0, this.active - 1);
    if (this.active === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Requests in flight. */
  get inFlight(): number {
    return this.active;
  }

  /** Resolves when nothing is in flight. */
  whenIdle(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
