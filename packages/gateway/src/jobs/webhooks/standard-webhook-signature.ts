import { createHmac, timingSafeEqual } from 'node:crypto';

/** The three headers of a Standard Webhooks delivery (https://www.standardwebhooks.com/). */
export interface StandardWebhookHeaders {
  /** The event id: the same on every retry of one event, so receivers can drop duplicates. */
  readonly 'webhook-id': string;
  /** Seconds since the epoch when this delivery attempt was signed. */
  readonly 'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under the secret's bytes. */
  readonly 'webhook-signature': string;
}

const SECRET_PREFIX = 'whsec_';

/** The key bytes of a `whsec_<base64>` secret (the prefix is optional, as in the scheme's libraries). */
export function webhookSecretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/**
 * A tenant's webhook secret, derived from the operator's webhook master key: `whsec_` + base64 of
 * HMAC-SHA256(master key, `tokenforge-webhook:<tenantId>`). Nothing is stored; rotating the master key rotates
 * every tenant's secret.
 */
export function tenantWebhookSecret(masterKey: Uint8Array, tenantId: string): string {
  return SECRET_PREFIX + createHmac('sha256', masterKey).update(`tokenforge-webhook:${tenantId}`).digest('base64');
}

function signature(secret: string, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', webhookSecretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** Signs one delivery attempt of `body`. */
export function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string): StandardWebhookHeaders {
  const timestamp = String(Math.floor(timestampSeconds));
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature(secret, id, timestamp, body)}` };
}

/** Why a received webhook is refused, or `undefined` when it is authentic and fresh. */
export type StandardWebhookRefusal = 'missing-headers' | 'stale-timestamp' | 'bad-signature';

/**
 * The receiver's check: the headers are present, the timestamp is within `toleranceSeconds` of `nowSeconds`
 * (replays refused), and one of the space-separated `v1,` signatures matches, compared in constant time.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: { readonly get: (name: string) => string | null },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): StandardWebhookRefusal | undefined {
  const id = headers.get('webhook-id');
  const timestamp = headers.get('webhook-timestamp');
  const signatures = headers.get('webhook-signature');
  if (id === null || timestamp === null || signatures === null || !/^\d{1,12}$/.test(timestamp)) return 'missing-headers';
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return 'stale-timestamp';
  const expected = Buffer.from(signature(secret, id, timestamp, body));
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || value === undefined) continue;
    const given = Buffer.from(value);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
  }
  return 'bad-signature';
}
