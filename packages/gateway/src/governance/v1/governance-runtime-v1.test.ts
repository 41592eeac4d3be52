import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EmbeddedGovernanceStore, openEmbeddedGovernanceStore } from '../embedded/embedded-governance-store.js';
import { clientKeyDisplayPrefixV1, generateClientKeyV1, hashClientKeyV1 } from './client-key-v1.js';
import { createGovernanceRuntimeV1, type GovernanceIdentityV1, type GovernanceRuntimeV1 } from './governance-runtime-v1.js';
import type { ClientKeyRecordV1 } from './governance-store-v1.js';

const SECRET = 'test-key-hashing-secret';

describe('governance runtime', () => {
  let directory: string;
  let store: EmbeddedGovernanceStore;
  let runtime: GovernanceRuntimeV1 | undefined;
  let now = Date.UTC(2026, 3, 15);

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'tf-governance-runtime-'));
    store = openEmbeddedGovernanceStore({ dataDirectory: directory });
    await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['gpt-*', 'claude-sonnet'], limits: {}, disabled: false }, 'admin');
  });
  afterEach(async () => {
    runtime?.stop();
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  async function issueKey(extra: Partial<ClientKeyRecordV1> = {}, tenantId = 'acme'): Promise<{ key: string; record: ClientKeyRecordV1 }> {
    const key = generateClientKeyV1();
    const { value } = await store.admin.createKey(
      { id: `k-${Math.random().toString(36).slice(2)}`, tenantId, digest: hashClientKeyV1(key, SECRET), displayPrefix: clientKeyDisplayPrefixV1(key), ...extra },
      'admin',
    );
    return { key, record: value };
  }

  async function started(pollIntervalMs = 60_000): Promise<GovernanceRuntimeV1> {
    runtime = createGovernanceRuntimeV1({ store, keyHashingSecret: SECRET, pollIntervalMs, clock: () => now });
    await runtime.start();
    return runtime;
  }

  it('authenticates a key by its HMAC digest and names its tenant; an unknown key or another secret is refused', async () => {
    const { key, record } = await issueKey();
    const active = await started();
    const result = active.authenticate(key);
    expect(result).toMatchObject({ kind: 'authenticated', tenant: { id: 'acme' }, key: { id: record.id } });
    expect(active.authenticate(`${key}x`)).toEqual({ kind: 'refused', reason: 'unknown-key' });
    const other = createGovernanceRuntimeV1({ store, keyHashingSecret: 'another-secret' });
    await other.refresh();
    expect(other.authenticate(key)).toEqual({ kind: 'refused', reason: 'unknown-key' });
  });

  it('refuses a revoked key from the version that revoked it, after a refresh', async () => {
    const { key, record } = await issueKey();
    const active = await started();
    const before = active.appliedVersion();
    const revoked = await store.admin.revokeKey(record.id, 'admin');
    expect(active.authenticate(key).kind).toBe('authenticated');
    await active.refresh();
    expect(active.appliedVersion()).toBe(revoked?.version);
    expect(active.appliedVersion()).toBe(before + 1);
    expect(active.authenticate(key)).toEqual({ kind: 'refused', reason: 'revoked-key', keyId: record.id, tenantId: 'acme' });
  });

  it('applies a change made elsewhere by polling the version', async () => {
    const { key, record } = await issueKey();
    const active = await started(20);
    await store.admin.revokeKey(record.id, 'admin');
    const deadline = Date.now() + 5000;
    while (active.authenticate(key).kind === 'authenticated' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(active.authenticate(key)).toMatchObject({ kind: 'refused', reason: 'revoked-key' });
    expect(active.appliedVersion()).toBe(await store.currentVersion());
  });

  it('refuses an expired key and the keys of a disabled tenant', async () => {
    const expiring = await issueKey({ expiresAtMs: now + 1000 });
    const plain = await issueKey();
    const active = await started();
    expect(active.authenticate(expiring.key).kind).toBe('authenticated');
    now += 1000;
    expect(active.authenticate(expiring.key)).toMatchObject({ kind: 'refused', reason: 'expired-key' });
    await store.admin.updateTenant('acme', { disabled: true }, 'admin');
    await active.refresh();
    expect(active.authenticate(plain.key)).toMatchObject({ kind: 'refused', reason: 'tenant-disabled', tenantId: 'acme' });
  });

  it('allows the tenant models by name and * pattern; a key narrows them and never widens them', async () => {
    const wide = await issueKey();
    const narrow = await issueKey({ modelAccess: ['gpt-4o', 'claude-*', 'gemini-pro'] });
    const active = await started();
    const identity = (key: string): GovernanceIdentityV1 => {
      const result = active.authenticate(key);
      if (result.kind !== 'authenticated') throw new Error('not authenticated');
      return result;
    };
    const models = ['gpt-4o', 'gpt-4o-mini', 'gpt', 'claude-sonnet', 'claude-opus', 'gemini-pro', 'xgpt-4o'];
    expect(models.filter((model) => active.mayUseModel(identity(wide.key), model))).toEqual(['gpt-4o', 'gpt-4o-mini', 'claude-sonnet']);
    expect(models.filter((model) => active.mayUseModel(identity(narrow.key), model))).toEqual(['gpt-4o', 'claude-sonnet']);
    await store.admin.updateTenant('acme', { modelAccess: ['*'] }, 'admin');
    await store.admin.createTenant({ id: 'none', name: 'None', modelAccess: [], limits: {}, disabled: false }, 'admin');
    const nothing = await issueKey({}, 'none');
    await active.refresh();
    expect(models.every((model) => active.mayUseModel(identity(wide.key), model))).toBe(true);
    expect(models.some((model) => active.mayUseModel(identity(nothing.key), model))).toBe(false);
  });

  it('treats pattern characters other than * literally', async () => {
    await store.admin.updateTenant('acme', { modelAccess: ['a.b*', 'c+(d)'] }, 'admin');
    const { key } = await issueKey();
    const active = await started();
    const result = active.authenticate(key);
    if (result.kind !== 'authenticated') throw new Error('not authenticated');
    expect(['a.b', 'a.b-1', 'axb', 'c+(d)', 'cc(d)'].filter((model) => active.mayUseModel(result, model))).toEqual(['a.b', 'a.b-1', 'c+(d)']);
  });
});
