/** The reason a request's signal carries once the gateway's drain deadline passed (see {@link requestDeadline}). */
export const GATEWAY_SHUTDOWN_REASON = new DOMException('The gateway is shutting down', 'GatewayShutdownError');

/** Whether a signal's reason is the gateway's shutdown. */
export function isGatewayShutdown(reason: unknown): boolean {
  return reason === GATEWAY_SHUTDOWN_REASON;
}

/**
 * The `node:http` response of a request, followed instead of the request's own signal when the gateway runs on
 * `node:http`: it closes before it finished when the client went away. Following it costs one listener, where the
 * platform request's signal costs an `AbortController` and an event target per request.
 */
export interface ClientConnection {
  /** Whether the whole response was handed to the socket. */
  readonly writableFinished: boolean;
  /** Whether the response was closed or destroyed already. */
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/** The reason a request's signal carries when its client closed the connection before the answer was written. */
export function clientClosedReason(): DOMException {
  return new DOMException('The client closed the connection before the answer was written', 'AbortError');
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
export function requestDeadline(client: AbortSignal | ClientConnection, timeoutMs: number, shutdown?: AbortSignal): RequestDeadline {
  const controller = new AbortController();
  const signalled = client instanceof AbortSignal;
  if (signalled ? client.aborted : client.destroyed && !client.writableFinished) {
    controller.abort(signalled ? client.reason : clientClosedReason());
    return { signal: controller.signal, dispose: () => {} };
  }
  if (shutdown?.aborted === true) {
    controller.abort(shutdown.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const onClientAbort = (): void => {
    if (!signalled && client.writableFinished) return;
    dispose();
    controller.abort(signalled ? client.reason : clientClosedReason());
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
  if (signalled) client.addEventListener('abort', onClientAbort, { once: true });
  else client.once('close', onClientAbort);
  shutdown?.addEventListener('abort', onShutdown, { once: true });
  let disposed = false;
  function dispose(): void {
    if (disposed) return;
    disposed = true;
    clearTimeout(timer);
    if (signalled) client.removeEventListener('abort', onClientAbort);
    else client.off('close', onClientAbort);
    shutdown?.removeEventListener('abort', onShutdown);
  }
  return { signal: controller.signal, dispose };
}
