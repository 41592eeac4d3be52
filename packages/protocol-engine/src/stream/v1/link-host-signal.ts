import { onceAborted } from './shared-abort-listener.js';

/** Unlinks the host signal from a stream's controller once the stream has settled. */
export type UnlinkHostSignal = () => void;

const alreadyAborted: UnlinkHostSignal = () => undefined;

/**
 * Makes a stream's own controller abort, with the host's reason, when the host's signal aborts. The adapter
 * receives the controller's signal, which so aborts when either side aborts first: one controller per stream,
 * no merged third signal. The link goes through {@link onceAborted}, so it costs the host signal nothing once
 * undone; a host signal from another realm (a `vm` context) works the same way.
 */
export function linkHostSignal(host: AbortSignal, controller: AbortController): UnlinkHostSignal {
  if (host.aborted) {
    controller.abort(host.reason);
    return alreadyAborted;
  }
  return onceAborted(host, () => controller.abort(host.reason));
}
