import { onceAborted } from './shared-abort-listener.js';

/** A signal that aborts when either input aborts, and a way to drop the links once the stream has settled. */
export interface CombinedSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * Combines the host's signal with the stream's own abort: the result aborts with the reason of whichever
 * aborts first. The link to the host signal goes through {@link onceAborted}, so it costs the host signal
 * nothing once disposed; a host signal from another realm (a `vm` context) works the same way.
 */
export function combineSignals(host: AbortSignal, own: AbortSignal): CombinedSignal {
  const controller = new AbortController();
  const onOwnAbort = (): void => controller.abort(own.reason);
  if (host.aborted) {
    controller.abort(host.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const unlinkHost = onceAborted(host, () => controller.abort(host.reason));
  own.addEventListener('abort', onOwnAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      unlinkHost();
      own.removeEventListener('abort', onOwnAbort);
    },
  };
}
