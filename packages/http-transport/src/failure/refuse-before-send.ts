import { ProviderTransportFailureV1, type ProviderTransportFailureReasonV1 } from '@tokenforge/model-protocol';
import { HttpTransportDiagnostic } from './transport-diagnostic.js';

/** A failure raised before anything was sent; `message` is our own text and never holds request data. */
export function refuseBeforeSend(reason: ProviderTransportFailureReasonV1, message: string): ProviderTransportFailureV1 {
  return new ProviderTransportFailureV1('before-send', reason, { cause: new HttpTransportDiagnostic(message) });
}
