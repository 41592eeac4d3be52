const noop = (): void => undefined;

/**
 * Asks an adapter iterator to stop (its `return()`), without waiting for it and without throwing: the engine's one
 * best-effort release. The abort signal has already told the adapter to stop; this frees its transport sooner.
 */
export function releaseIterator(iterator: AsyncIterator<unknown>): void {
  try {
    const result: unknown = iterator.return?.();
    if (typeof result === 'object' && result !== null && typeof (result as PromiseLike<unknown>).then === 'function') {
      (result as PromiseLike<unknown>).then(noop, noop);
    }
  } catch {
    // Releasing is best effort.
  }
}
