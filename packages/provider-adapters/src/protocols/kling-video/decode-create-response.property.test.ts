import fc from 'fast-check';
import { providerAcceptanceFactsSchema, normalizedProviderFailureV1Schema, providerJobIdSchema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { decodeKlingCreateResponse } from './decode-create-response.js';

describe('decodeKlingCreateResponse properties', () => {
  it('any JSON value with any status yields one valid outcome, and only a 2xx code-0 string id is accepted', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 100, max: 599 }), (value, status) => {
        const outcome = decodeKlingCreateResponse({
          outcome: status >= 200 && status <= 299 ? { ok: true, status, value } : { ok: false, status, failure: { code: 'provider-error', retryable: false }, errorBody: value },
          headers: {},
          endpoint: 'text2video',
          nowMs: 0,
        });
        expect(providerAcceptanceFactsSchema.parse(outcome.acceptance)).toBeDefined();
        if (outcome.acceptance.state === 'accepted') {
          expect(status >= 200 && status <= 299).toBe(true);
          expect(providerJobIdSchema.parse((outcome as { providerJobId: string }).providerJobId)).toMatch(/^text2video:/);
        } else {
          const failure = normalizedProviderFailureV1Schema.parse((outcome as { failure: unknown }).failure);
          if (outcome.acceptance.state === 'unknown') expect(failure.retryable).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('any 18-19 digit id given as a JSON string survives digit for digit', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 10n ** 17n, max: 10n ** 19n - 1n }), (id) => {
        const outcome = decodeKlingCreateResponse({ outcome: { ok: true, status: 200, value: { code: 0, data: { task_id: String(id) } } }, headers: {}, endpoint: 'image2video', nowMs: 0 });
        expect(outcome).toMatchObject({ providerJobId: `image2video:${id}` });
      }),
    );
  });
});
