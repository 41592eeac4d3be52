/** A request's signal: aborted when the client goes away or when the request's time is up. */
export interface RequestDeadline {
  /** Aborts with the client signal's reason, or with a `TimeoutError` `DOMException` once the time is up. */
  readonly signal: AbortSignal;
  /** Stops the timer and stops following the client signal (the request is over). Idempotent. */
  dispose(): void;
}

/**
 * `AbortSignal.any([client, AbortSignal.timeout(timeoutMs)])` with one controller and one timer instead of three
 * signals per request; the timer must be disposed of when the request ends (it is unref'd meanwhile).
 */
export function requestDeadline(client: AbortSignal, timeoutMs: number): RequestDeadline {
  const controller = new AbortController();
  if (client.aborted) {
    controller.abort(client.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const onClientAbort = (): void => {
    dispose();
    controller.abort(client.reason);
  };
  const timer = setTimeout(() => {
    client.removeEventListener('abort', onClientAbort);
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  client.addEventListener('abort', onClientAbort, { once: true });
  let disposed = false;
  function dispose(): void {
    if (disposed) return;
    disposed = true;
    clearTimeout(timer);
    client.removeEventListener('abort', onClientAbort);
  }
  return { signal: controller.signal, dispose };
}
