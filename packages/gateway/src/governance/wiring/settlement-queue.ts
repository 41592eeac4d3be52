import type { Logger } from 'pino';
import type { GovernanceStoreV1, SettlementV1 } from '../v1/governance-store-v1.js';

const FIRST_RETRY_MS = 50;
const LONGEST_RETRY_MS = 5_000;

/**
 * Settlements sent to the store off the response path: `push` returns at once and the store call runs in the
 * background, after the current turn of the event loop (`setImmediate`): a response whose terminal settled its attempt
 * is written to the client's socket first, so neither the store's own work (the embedded store's bookkeeping, the
 * shared store's script arguments) nor its round trip sits between the terminal and the client's last byte. A
 * settlement the store could not take (`unavailable`, or a throw) is retried with a doubling pause until it is `settled`
 * or `duplicate`: never dropped. `drain` waits for all of them (shutdown, tests).
 */
export class SettlementQueue {
  readonly #pending = new Set<Promise<void>>();
  #closed = false;

  constructor(
    private readonly store: Pick<GovernanceStoreV1, 'settle'>,
    private readonly logger: Logger,
  ) {}

  /** Sends `settlement` to the store in the background. */
  push(settlement: SettlementV1): void {
    const running = this.#run(settlement).finally(() => this.#pending.delete(running));
    this.#pending.add(running);
  }

  /** Settlements not yet taken by the store. */
  get size(): number {
    return this.#pending.size;
  }

  async #run(settlement: SettlementV1): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    let pauseMs = FIRST_RETRY_MS;
    for (let tries = 1; ; tries += 1) {
      try {
        const result = await this.store.settle(settlement);
        if (result.kind !== 'unavailable') return;
      } catch {
        // Treated like `unavailable`: the store keeps the settlement idempotent, so trying again is safe.
      }
      if (tries === 1 || tries % 20 === 0) this.logger.warn({ attemptId: settlement.attemptId, tries }, 'governance settlement waits for the store');
      if (this.#closed && tries > 100) {
        this.logger.error({ attemptId: settlement.attemptId, tries }, 'governance settlement abandoned at shutdown');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs).unref());
      pauseMs = Math.min(pauseMs * 2, LONGEST_RETRY_MS);
    }
  }

  /** Waits until every settlement pushed so far was taken by the store. */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** Marks shutdown: settlements still failing after many tries are given up (and logged) instead of held for ever. */
  close(): void {
    this.#closed = true;
  }
}
