import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProviderTransport } from '@tokenforge/model-protocol';

/** The header each metered attempt carries upstream, so provider-side records can be reconciled with the ledger. */
export const ATTEMPT_ID_HEADER = 'x-tokenforge-attempt-id';

const currentAttemptId = new AsyncLocalStorage<string>();

/** Runs `execute` (an engine call) so that every request its transport sends carries `attemptId`. */
export function withAttemptId<T>(attemptId: string | undefined, execute: () => Promise<T>): Promise<T> {
  return attemptId === undefined ? execute() : currentAttemptId.run(attemptId, execute);
}

/**
 * A transport that adds {@link ATTEMPT_ID_HEADER} to each request sent inside {@link withAttemptId}: the engine
 * and the adapters never see it (the binding's transport is the host's), and requests outside a metered attempt
 * go out unchanged.
 */
export function attemptIdTransport(transport: ProviderTransport): ProviderTransport {
  return {
    send: (request) => {
      const attemptId = currentAttemptId.getStore();
      return transport.send(attemptId === undefined ? request : { ...request, headers: { ...request.headers, [ATTEMPT_ID_HEADER]: attemptId } });
    },
  };
}
