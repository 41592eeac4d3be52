import type { ProviderTransport } from '@tokenforge/model-protocol';

/** The header each metered attempt carries upstream, so provider-side records can be reconciled with the ledger. */
export const ATTEMPT_ID_HEADER = 'x-tokenforge-attempt-id';

/**
 * The attempt running under each request signal. The engine hands a binding's `bindTransport` the signal the host
 * passed to `execute`, and a request's attempts run one after another, so the signal names the attempt. (An
 * `AsyncLocalStorage` would do the same, but on Node 20 it turns on promise hooks for the whole process: every promise
 * of every request then pays for them.)
 */
const attemptIds = new WeakMap<AbortSignal, string>();

/** Runs `execute` (an engine call under `signal`) so that every request its transport sends carries `attemptId`. */
export function withAttemptId<T>(attemptId: string | undefined, signal: AbortSignal, execute: () => Promise<T>): Promise<T> {
  if (attemptId === undefined) return execute();
  attemptIds.set(signal, attemptId);
  let running: Promise<T>;
  try {
    running = execute();
  } catch (error) {
    attemptIds.delete(signal);
    throw error;
  }
  const forget = (): void => {
    if (attemptIds.get(signal) === attemptId) attemptIds.delete(signal);
  };
  running.then(forget, forget);
  return running;
}

/**
 * The transport a binding hands the engine for one call under `signal`: `transport` itself, or, inside
 * {@link withAttemptId}, one that adds {@link ATTEMPT_ID_HEADER} to each request. The engine and the adapters never
 * see the header (the binding's transport is the host's), and requests outside a metered attempt go out unchanged.
 */
export function attemptTransport(transport: ProviderTransport, signal: AbortSignal): ProviderTransport {
  const attemptId = attemptIds.get(signal);
  if (attemptId === undefined) return transport;
  return { send: (request) => transport.send({ ...request, headers: { ...request.headers, [ATTEMPT_ID_HEADER]: attemptId } }) };
}
