import { describe, expect, it } from 'vitest';
import { signStandardWebhook, tenantWebhookSecret, verifyStandardWebhook } from './standard-webhook-signature.js';

const headersOf = (record: Record<string, string>) => new Headers(record);

describe('Standard Webhooks signature', () => {
  it('matches the scheme\'s published test vector', () => {
    // The example of the Standard Webhooks specification (standardwebhooks.com, "Verifying webhooks").
    const headers = signStandardWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('verifies its own signature and refuses a changed body, another secret, a stale timestamp or missing headers', () => {
    const secret = tenantWebhookSecret(new TextEncoder().encode('master-key-0123456789abcdef'), 'acme');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(tenantWebhookSecret(new TextEncoder().encode('master-key-0123456789abcdef'), 'globex')).not.toBe(secret);
    const headers = headersOf({ ...signStandardWebhook(secret, 'msg_1', 1_000_000, '{"a":1}') });
    expect(verifyStandardWebhook(secret, headers, '{"a":1}', 1_000_100)).toBeUndefined();
    expect(verifyStandardWebhook(secret, headers, '{"a":2}', 1_000_100)).toBe('bad-signature');
    expect(verifyStandardWebhook(tenantWebhookSecret(new Uint8Array(32), 'acme'), headers, '{"a":1}', 1_000_100)).toBe('bad-signature');
    expect(verifyStandardWebhook(secret, headers, '{"a":1}', 1_000_301)).toBe('stale-timestamp');
    expect(verifyStandardWebhook(secret, headersOf({ 'webhook-id': 'msg_1' }), '{"a":1}', 1_000_000)).toBe('missing-headers');
    const rotated = headersOf({ ...Object.fromEntries(headers), 'webhook-signature': `v1,bm90LXRoaXM= ${headers.get('webhook-signature')}` });
    expect(verifyStandardWebhook(secret, rotated, '{"a":1}', 1_000_000)).toBeUndefined();
  });
});
