import { describe, expect, it } from 'vitest';
import type { ClientKeyRecordV1, TenantRecordV1 } from '../v1/governance-store-v1.js';
import { GovernanceSnapshotView, mayUseModel, modelPatternMatches } from './governance-snapshot-view.js';

const tenant = (id: string, extra: Partial<TenantRecordV1> = {}): TenantRecordV1 => ({ id, name: id, modelAccess: ['*'], limits: {}, createdAtMs: 0, disabled: false, ...extra });
const key = (id: string, tenantId: string, extra: Partial<ClientKeyRecordV1> = {}): ClientKeyRecordV1 => ({ id, tenantId, digest: `d-${id}`, displayPrefix: 'tf-x', createdAtMs: 0, ...extra });

describe('the governance snapshot view', () => {
  it('finds a key by digest and refuses revoked, expired and disabled-tenant keys with the reason', () => {
    const view = new GovernanceSnapshotView({
      version: 4,
      tenants: [tenant('a'), tenant('off', { disabled: true })],
      keys: [key('live', 'a'), key('revoked', 'a', { revokedAtMs: 5 }), key('expired', 'a', { expiresAtMs: 100 }), key('later', 'a', { expiresAtMs: 1000 }), key('disabled', 'off')],
    });
    expect(view.lookup('d-live', 500)).toEqual({ kind: 'found', principal: { tenant: tenant('a'), key: key('live', 'a') } });
    expect(view.lookup('d-nope', 500)).toEqual({ kind: 'refused', reason: 'unknown' });
    expect(view.lookup('d-revoked', 500)).toEqual({ kind: 'refused', reason: 'revoked' });
    expect(view.lookup('d-expired', 500)).toEqual({ kind: 'refused', reason: 'expired' });
    expect(view.lookup('d-later', 500).kind).toBe('found');
    expect(view.lookup('d-disabled', 500)).toEqual({ kind: 'refused', reason: 'tenant-disabled' });
  });

  it('model access: exact names, `*` and prefix patterns; a key narrows its tenant and never widens it', () => {
    expect(modelPatternMatches('*', 'x')).toBe(true);
    expect(modelPatternMatches('gpt-*', 'gpt-4.1')).toBe(true);
    expect(modelPatternMatches('gpt-*', 'claude')).toBe(false);
    expect(modelPatternMatches('gpt-4.1', 'gpt-4.1-mini')).toBe(false);
    const narrow = tenant('n', { modelAccess: ['gpt-*'] });
    expect(mayUseModel({ tenant: narrow, key: key('k', 'n') }, 'gpt-4.1')).toBe(true);
    expect(mayUseModel({ tenant: narrow, key: key('k', 'n', { modelAccess: ['*'] }) }, 'claude')).toBe(false);
    expect(mayUseModel({ tenant: narrow, key: key('k', 'n', { modelAccess: ['gpt-5'] }) }, 'gpt-4.1')).toBe(false);
    expect(mayUseModel({ tenant: tenant('none', { modelAccess: [] }), key: key('k', 'none') }, 'gpt-4.1')).toBe(false);
  });
});
