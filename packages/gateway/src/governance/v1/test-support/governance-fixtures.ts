import type { UsageV3 } from '@tokenforge/model-protocol';
import type { AdmissionRequestV1, SettlementV1 } from '../governance-store-v1.js';
import { reservationFactsV1 } from '../reservation-facts-v1.js';

let sequence = 0;

/**
 * An admission request for tenant `acme`, key `key-1`, target `model-a#0`; the request id is `request-<n>` unless
 * given, the attempt id follows the request id and attempt.
 */
export function admissionRequestV1(overrides: Partial<AdmissionRequestV1> = {}): AdmissionRequestV1 {
  sequence += 1;
  const requestId = overrides.requestId ?? `request-${sequence}`;
  const attempt = overrides.attempt ?? 1;
  return {
    attemptId: `${requestId}:${attempt}`,
    requestId,
    attempt,
    tenantId: 'acme',
    keyId: 'key-1',
    publicModel: 'model-a',
    targetRef: 'model-a#0',
    provider: 'simulator',
    priceVersion: 'prices-1',
    tenantLimits: {},
    firstAttempt: attempt === 1,
    reservedTokens: 100,
    reservedMicros: 1000,
    currency: 'USD',
    deadlineMs: Date.now() + 60_000,
    ...overrides,
  };
}

/** Overrides of a settlement; `usage: undefined` leaves the usage out. */
export type SettlementOverridesV1 = Omit<Partial<SettlementV1>, 'usage'> & { usage?: UsageV3 | undefined };

/** A completed `actual` settlement of `request` (10 input and 5 output tokens, 400 micros, releasing the slot). */
export function settlementV1(request: AdmissionRequestV1, overrides: SettlementOverridesV1 = {}): SettlementV1 {
  const { usage = { inputTokens: 10, outputTokens: 5 }, ...rest } = overrides;
  const now = Date.now();
  const base: SettlementV1 = {
    ...reservationFactsV1(request),
    kind: 'actual',
    costMicros: 400,
    usedTokens: 15,
    overrun: false,
    outcome: 'completed',
    releaseSlot: true,
    startedAtMs: now,
    settledAtMs: now,
    ...rest,
  };
  return 'usage' in overrides && overrides.usage === undefined ? base : { ...base, usage };
}
