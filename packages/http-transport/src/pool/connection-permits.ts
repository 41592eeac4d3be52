import { ProviderTransportFailureV1 } from '@tokenforge/model-protocol';
import { HttpTransportDiagnostic } from '../failure/transport-diagnostic.js';

/** The diagnostic code of a request that found no free connection in time (see {@link isConnectionPoolExhausted}). */
export const CONNECTION_POOL_EXHAUSTED_CODE = 'TOKENFORGE_HTTP_TRANSPORT_POOL_EXHAUSTED';

/**
 * One permit per connection of a transport (`maxConnections`): an exchange holds one from dispatch until its
 * response ends, fails or is released, so undici never queues a request behind busy sockets. A request that
 * finds none free waits in order, at most `waitMs`, then fails `before-send` with reason `timeout` and the
 * diagnostic code {@link CONNECTION_POOL_EXHAUSTED_CODE}: never a silent queue.
 */
export class ConnectionPermits {
  #free: number;
  readonly #waiting: { grant: () => void }[] = [];

  constructor(readonly size: number) {
    this.#free = size;
  }

  /** Permits held now (exchanges using a connection). */
  get inUse(): number {
    return this.size - this.#free;
  }

  /** Requests waiting for a permit now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Resolves with a release function (idempotent) once a permit is free. */
  acquire(signal: AbortSignal, waitMs: number): Promise<() => void> {
    if (this.#free > 0 && this.#waiting.length === 0) {
      this.#free -= 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: (): void => {
          done();
          resolve(this.#releaser());
        },
      };
      const leave = (failure: ProviderTransportFailureV1): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index === -1) return;
        this.#waiting.splice(index, 1);
        done();
        reject(failure);
      };
      const timer = setTimeout(
        () => leave(new ProviderTransportFailureV1('before-send', 'timeout', { cause: new HttpTransportDiagnostic('no free connection to the provider within connectTimeoutMs', CONNECTION_POOL_EXHAUSTED_CODE) })),
        waitMs,
      );
      const onAbort = (): void => leave(new ProviderTransportFailureV1('before-send', 'aborted', { cause: new HttpTransportDiagnostic('the request signal was aborted') }));
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      this.#waiting.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
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

/** Whether a transport failure (or its engine error's `cause`) says no connection to the provider was free in time. */
export function isConnectionPoolExhausted(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 3; depth += 1) {
    if ((current as { code?: unknown }).code === CONNECTION_POOL_EXHAUSTED_CODE) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
