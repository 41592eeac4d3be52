import type { AdmissionRequestV1 } from './governance-store-v1.js';

/**
 * What an admitted reservation carries into the row written for it when it is never settled (the orphan sweep adds
 * cost, used tokens and times around these facts).
 */
export interface ReservationFactsV1 {
  /** `<requestId>:<attempt>` of the admitted attempt. */
  readonly attemptId: string;
  readonly requestId: string;
  readonly attempt: number;
  readonly tenantId: string;
  readonly keyId: string;
  /** The public model name the client asked for. */
  readonly publicModel: string;
  /** The catalogue target (`<model>#<index>`) and its provider label. */
  readonly targetRef: string;
  readonly provider: string;
  /** The price table version the reservation was computed with. */
  readonly priceVersion: string;
  readonly currency: string;
  /** Money reserved, in micro-units of `currency`. */
  readonly reservedMicros: number;
  /** Tokens reserved in the token windows. */
  readonly reservedTokens: number;
}

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
