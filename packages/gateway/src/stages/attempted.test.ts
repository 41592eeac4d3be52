import { describe, expect, it } from 'vitest';
import { failureDetail } from './attempted.js';

describe('failureDetail', () => {
  it('carries the family\'s provider code for the operator log only when it is a short identifier', () => {
    expect(failureDetail({ code: 'timeout', retryable: true, providerCode: 'agent-cli.deadline' }, 'accepted')).toEqual({ retryable: true, acceptance: 'accepted', providerCode: 'agent-cli.deadline' });
    expect(failureDetail({ code: 'provider-error', retryable: false, providerCode: 'said: "please log in" <secret>' }, 'accepted')).toEqual({ retryable: false, acceptance: 'accepted' });
    expect(failureDetail({ code: 'provider-error', retryable: false, providerCode: 'x'.repeat(65) }, 'unknown')).toEqual({ retryable: false, acceptance: 'unknown' });
    expect(failureDetail({ code: 'rate-limited', retryable: true, retryAfterMs: 1000 }, 'not-accepted')).toEqual({ retryable: true, acceptance: 'not-accepted', retryAfterMs: 1000 });
  });
});
