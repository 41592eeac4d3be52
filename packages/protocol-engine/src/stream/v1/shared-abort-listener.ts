/**
 * Runs `callback` once when `signal` aborts, and returns a function that unregisters it. The signal must not have
 * aborted yet: callers check `aborted` first and act at once (an abort event never comes twice).
 *
 * Every execution linked to the same host signal shares one real `abort` listener on it: a host that passes
 * one long-lived signal (a server's shutdown signal) to thousands of concurrent executions gets neither an
 * `EventTarget` listener-count warning nor a growing listener list, and each execution unregisters in
 * constant time when it settles. Nothing is held on the signal once every execution linked to it has
 * unregistered, apart from the one listener, which the signal's own lifetime bounds.
 *
 * (`AbortSignal.any` is not used for this: on Node 20 each call leaves a weak reference in the source
 * signal's set of dependants that is never removed, so a long-lived host signal grows without bound and
 * every garbage collection slows down with it.)
 */
export function onceAborted(signal: AbortSignal, callback: () => void): () => void {
  let hub = hubs.get(signal);
  if (hub === undefined) {
    hub = new AbortHub(signal);
    hubs.set(signal, hub);
  }
  return hub.add(callback);
}

const hubs = new WeakMap<AbortSignal, AbortHub>();

/** How many callbacks are linked to `signal` now (for tests: one per open stream, none once all settled). */
export function linkedCallbackCount(signal: AbortSignal): number {
  return hubs.get(signal)?.size ?? 0;
}

class AbortHub {
  private readonly callbacks = new Set<() => void>();
  private listening = false;

  constructor(private readonly signal: AbortSignal) {}

  get size(): number {
    return this.callbacks.size;
  }

  add(callback: () => void): () => void {
    // A fresh wrapper per registration: the same callback linked twice is two registrations.
    const entry = (): void => callback();
    this.callbacks.add(entry);
    if (!this.listening) {
      this.listening = true;
      this.signal.addEventListener('abort', this.onAbort, { once: true });
    }
    return () => {
      this.callbacks.delete(entry);
    };
  }

  private readonly onAbort = (): void => {
    hubs.delete(this.signal);
    const callbacks = [...this.callbacks];
    this.callbacks.clear();
    for (const callback of callbacks) {
      try {
        callback();
      } catch (error) {
        // Reported the way an EventTarget reports a throwing listener, without stopping the others.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };
}
