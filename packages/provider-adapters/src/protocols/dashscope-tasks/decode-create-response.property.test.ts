import fc from 'fast-check';
import { normalizedProviderFailureV1Schema, providerJobIdSchema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { decodeDashScopeCreateResponse } from './decode-create-response.js';

describe('decodeDashScopeCreateResponse properties', () => {
  it('any JSON value with any status yields one valid outcome; only 2xx with a string task id is accepted; unknown is never retryable', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 100, max: 599 }), (value, status) => {
        const ok = status >= 200 && status <= 299;
        const outcome = decodeDashScopeCreateResponse({
          outcome: ok ? { ok: true, status, value } : { ok: false, status, failure: { code: 'provider-error', retryable: false }, errorBody: value },
          headers: {},
          nowMs: 0,
        });
        if (outcome.acceptance.state === 'accepted') {
          expect(ok).toBe(true);
          expect(providerJobIdSchema.safeParse((outcome as { providerJobId: unknown }).providerJobId).success).toBe(true);
        } else {
          const failure = normalizedProviderFailureV1Schema.parse((outcome as { failure: unknown }).failure);
          if (outcome.acceptance.state === 'unknown') expect(failure.retryable).toBe(false);
          else expect(status >= 400 && status <= 499).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
