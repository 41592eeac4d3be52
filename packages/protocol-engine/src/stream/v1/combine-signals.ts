/** A signal that aborts when either input aborts, and a way to drop the links once the stream has settled. */
export interface CombinedSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * Combines the host's signal with the stream's own abort. Uses `AbortSignal.any` where the host signal is a
 * signal of this realm; a signal from another realm (a `vm` context) is linked by hand.
 */
export function combineSignals(host: AbortSignal, own: AbortSignal): CombinedSignal {
  if (typeof AbortSignal.any === 'function' && host instanceof AbortSignal) {
    return { signal: AbortSignal.any([host, own]), dispose: () => undefined };
  }
  const controller = new AbortController();
  const onHostAbort = (): void => controller.abort(host.reason);
  const onOwnAbort = (): void => controller.abort(own.reason);
  if (host.aborted) controller.abort(host.reason);
  else host.addEventListener('abort', onHostAbort, { once: true });
  own.addEventListener('abort', onOwnAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      host.removeEventListener('abort', onHostAbort);
      own.removeEventListener('abort', onOwnAbort);
    },
  };
}
