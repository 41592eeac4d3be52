/** The reason a request's signal carries once the gateway's drain deadline passed (see {@link requestDeadline}). */
export const GATEWAY_SHUTDOWN_REASON = new DOMException('The gateway is shutting down', 'GatewayShutdownError');

/** Whether a signal's reason is the gateway's shutdown. */
export function isGatewayShutdown(reason: unknown): boolean {
  return reason === GATEWAY_SHUTDOWN_REASON;
}

/** A request's signal: aborted when the client goes away, when the request's time is up, or at shutdown. */
export interface RequestDeadline {
  /** Aborts with the client signal's reason, or with a `TimeoutError` `DOMException` once the time is up. */
  readonly signal: AbortSignal;
  /** Stops the timer and stops following the client signal (the request is over). Idempotent. */
  dispose(): void;
}

/**
 * `AbortSignal.any([client, AbortSignal.timeout(timeoutMs), shutdown])` with one controller and one timer instead of
 * four signals per request; the timer must be disposed of when the request ends (it is unref'd meanwhile). The
 * gateway's `shutdown` signal aborts at the drain deadline with {@link GATEWAY_SHUTDOWN_REASON}.
 */
export function requestDeadline(client: AbortSignal, timeoutMs: number, shutdown?: AbortSignal): RequestDeadline {
  const controller = new AbortController();
  const first = client.aborted ? client : shutdown?.aborted === true ? shutdown : undefined;
  if (first !== undefined) {
    controller.abort(first.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const onClientAbort = (): void => {
    dispose();
    controller.abort(client.reason);
  };
  const onShutdown = (): void => {
    dispose();
    controller.abort(shutdown?.reason);
  };
  const timer = setTimeout(() => {
    dispose();
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  client.addEventListener('abort', onClientAbort, { once: true });
  shutdown?.addEventListener('abort', onShutdown, { once: true });
  let disposed = false;
  function dispose(): void {
    if (disposed) return;
    disposed = true;
    clearTimeout(timer);
    client.removeEventListener('abort', onClientAbort);
    shutdown?.removeEventListener('abort', onShutdown);
  }
  return { signal: controller.signal, dispose };
}
