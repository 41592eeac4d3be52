import type { ProviderTransportFailureReasonV1 } from '@tokenforge/model-protocol';

/**
 * Raised by the pinned connector: the socket never opened, so no request byte left. Its code is not one of
 * undici's socket codes, so undici fails the queued requests with it instead of retrying.
 */
export class ConnectStageError extends Error {
  readonly code = 'TOKENFORGE_HTTP_TRANSPORT_CONNECT';
  readonly reason: ProviderTransportFailureReasonV1;
  readonly detail: unknown;

  constructor(reason: ProviderTransportFailureReasonV1, message: string, detail?: unknown) {
    super(message);
    this.name = 'ConnectStageError';
    this.reason = reason;
    this.detail = detail;
  }
}
