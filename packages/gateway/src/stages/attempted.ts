import type { NormalizedProviderFailureV3 } from '@tokenforge/model-protocol';
import type { AttemptEnding } from '../governance/wiring/request-metering.js';
import type { AttemptEnd } from '../telemetry/gateway-telemetry.js';

/** Whether the provider took the request of a failed attempt. */
export type AttemptAcceptance = 'accepted' | 'not-accepted' | 'unknown';

/** What one attempt on one target came to: an answer for the client, or a failure the attempt policy weighs. */
export type Attempted =
  | { readonly kind: 'answer'; readonly response: Response; readonly outcome: string }
  | {
      readonly kind: 'failure';
      readonly failure: NormalizedProviderFailureV3;
      readonly acceptance: AttemptAcceptance;
      /** What the attempt's governance settlement needs (the attempt stage settles it once it knows what follows). */
      readonly ending: AttemptEnding;
    };

/** What an attempt's log line and telemetry get beside its outcome. */
export type AttemptDetail = Omit<AttemptEnd, 'outcome'> & { readonly providerCode?: string };

/** Writes one attempt to the request's facts and ends its telemetry. */
export type LogAttempt = (outcome: string, detail?: AttemptDetail) => void;

const LOGGABLE_PROVIDER_CODE = /^[A-Za-z0-9._:-]{1,64}$/;

/** The attempt detail of a failure (its provider code only when it is a short identifier). */
export function failureDetail(failure: NormalizedProviderFailureV3, acceptance: AttemptAcceptance): AttemptDetail {
  return {
    retryable: failure.retryable,
    acceptance,
    ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
    ...(failure.providerCode !== undefined && LOGGABLE_PROVIDER_CODE.test(failure.providerCode) ? { providerCode: failure.providerCode } : {}),
  };
}
