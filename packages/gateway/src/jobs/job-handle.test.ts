import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJobHandle, verifyJobHandle } from './job-handle.js';

const KEY = new TextEncoder().encode('job-handle-test-key-0123456789abcdef');
const NOW_MS = 1_800_000_000_000;
const claims = (client: string, expiresAt: number) => ({ kind: 'job' as const, target: 'video#0', providerJobId: 'p1', client, expiresAt });

/** A handle signed with KEY over a payload written by hand (JSON.stringify cannot write `1e400`). */
function rawHandle(payload: string): string {
  const encoded = Buffer.from(payload, 'utf8').toString('base64url');
  return `tfj1.${encoded}.${createHmac('sha256', KEY).update(`tfj1.${encoded}`).digest('base64url')}`;
}

describe('verifyJobHandle', () => {
  it('answers another client’s handle as foreign whether or not it expired, its own expired one as expired', () => {
    const expired = signJobHandle(claims('main', NOW_MS / 1000 - 1), KEY);
    expect(verifyJobHandle(expired, KEY, 'other', NOW_MS)).toBe('foreign');
    expect(verifyJobHandle(expired, KEY, 'main', NOW_MS)).toBe('expired');
    expect(verifyJobHandle(signJobHandle(claims('main', NOW_MS / 1000 + 60), KEY), KEY, 'main', NOW_MS)).toMatchObject({ client: 'main' });
  });

  it('refuses a signed handle whose expiry is not finite or beyond any handle’s lifetime', () => {
    const payload = (expiry: string) => `{"k":"job","t":"video#0","j":"p1","c":"main","e":${expiry}}`;
    expect(verifyJobHandle(rawHandle(payload('1e400')), KEY, 'main', NOW_MS)).toBe('malformed');
    expect(verifyJobHandle(rawHandle(payload(String(NOW_MS / 1000 + 400 * 86_400))), KEY, 'main', NOW_MS)).toBe('malformed');
    expect(verifyJobHandle(rawHandle(payload(String(NOW_MS / 1000 + 90 * 86_400))), KEY, 'main', NOW_MS)).toMatchObject({ client: 'main' });
  });
});
