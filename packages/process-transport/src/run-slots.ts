import { ProviderProcessFailureV4 } from '@tokenforge/model-protocol';

/**
 * The run slots of one target: at most `size` runs at once, at most `queue` waiting in arrival order; one more is
 * refused at once (`runs-exhausted`), never a silent unbounded queue. A waiter whose signal aborts leaves the queue.
 */
export class RunSlots {
  #free: number;
  readonly #queue: number;
  readonly #waiting: { grant: () => void }[] = [];

  constructor(size: number, queue: number) {
    this.#free = size;
    this.#queue = queue;
  }

  /** Takes a slot (waiting when allowed); resolves with its release function. */
  async take(signal: AbortSignal): Promise<() => void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return this.#releaser();
    }
    if (this.#waiting.length >= this.#queue) throw new ProviderProcessFailureV4('runs-exhausted');
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(new ProviderProcessFailureV4('spawn-failed', { reason: 'aborted' }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#free += 1;
      else next.grant();
    };
  }
}
