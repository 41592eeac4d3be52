import type { AdmissionRequestV1 } from './governance-store-v1.js';

/**
 * What an admitted reservation carries into the row written for it when it is never settled (the orphan sweep adds
 * cost, used tokens and times around these facts).
 */
export type ReservationFactsV1 = Pick<
  AdmissionRequestV1,
  | 'attemptId'
  | 'requestId'
  | 'attempt'
  | 'tenantId'
  | 'keyId'
  | 'publicModel'
  | 'targetRef'
  | 'provider'
  | 'priceVersion'
  | 'currency'
  | 'reservedMicros'
  | 'reservedTokens'
>;

/** The facts of an admission request that its settlement row repeats. */
export function reservationFactsV1(request: AdmissionRequestV1): ReservationFactsV1 {
  return {
    attemptId: request.attemptId,
    requestId: request.requestId,
    attempt: request.attempt,
    tenantId: request.tenantId,
    keyId: request.keyId,
    publicModel: request.publicModel,
    targetRef: request.targetRef,
    provider: request.provider,
    priceVersion: request.priceVersion,
    currency: request.currency,
    reservedMicros: request.reservedMicros,
    reservedTokens: request.reservedTokens,
  };
}
