import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobWorkerSettings } from './job-worker-settings.js';
import { tenantWebhookSecret } from './webhooks/standard-webhook-signature.js';

const folder = mkdtempSync(join(tmpdir(), 'tf-job-settings-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const KEY = 'a-webhook-master-key-of-32-characters-at-least';
const jobs = { signingKeyEnv: 'SIGNING' };
const secretOf = (settings: ReturnType<typeof jobWorkerSettings>) => (settings.webhookMasterKey === undefined ? undefined : tenantWebhookSecret(settings.webhookMasterKey, 'acme'));

describe('jobWorkerSettings', () => {
  it('reads the master key from TOKENFORGE_WEBHOOK_MASTER_KEY, its _FILE, or the catalogue\'s variable; else the generated one; else none', () => {
    const file = join(folder, 'master-key');
    writeFileSync(file, `${KEY}\n`);
    const expected = tenantWebhookSecret(new TextEncoder().encode(KEY), 'acme');
    expect(secretOf(jobWorkerSettings(jobs, { TOKENFORGE_WEBHOOK_MASTER_KEY: KEY }, undefined, folder))).toBe(expected);
    expect(secretOf(jobWorkerSettings(jobs, { TOKENFORGE_WEBHOOK_MASTER_KEY_FILE: file }, 'generated-key-0123456789abcdef0123456789', folder))).toBe(expected);
    expect(secretOf(jobWorkerSettings({ ...jobs, webhooks: { masterKeyEnv: 'HOOKS_KEY' } }, { HOOKS_KEY: KEY }, undefined, folder))).toBe(expected);
    expect(secretOf(jobWorkerSettings(jobs, {}, KEY, folder))).toBe(expected);
    expect(jobWorkerSettings(jobs, {}, undefined, folder).webhookMasterKey).toBeUndefined();
  });

  it('refuses a short master key or an unreadable file, naming the setting and never the value', () => {
    for (const env of [{ TOKENFORGE_WEBHOOK_MASTER_KEY: 'short-key' }, { TOKENFORGE_WEBHOOK_MASTER_KEY_FILE: join(folder, 'missing') }]) {
      let caught: unknown;
      try {
        jobWorkerSettings(jobs, env, undefined, folder);
      } catch (error) {
        caught = error;
      }
      expect((caught as { code?: string }).code).toBe('GATEWAY_CONFIGURATION_INVALID');
      expect(String((caught as Error).message)).not.toContain('short-key');
      expect((caught as { problems: string[] }).problems[0]).toMatch(/^jobs\.webhooks\.masterKeyEnv: /);
    }
  });

  it('takes the polling, freshness, webhook and media settings, leaving absent ones to the defaults', () => {
    const settings = jobWorkerSettings(
      {
        ...jobs,
        freshnessMs: 250,
        polling: { leaseMs: 2000, plans: { '*': { firstPollMs: 600 } } },
        webhooks: { allowLoopback: true, retryDelaysMs: [100] },
        media: { maxBytes: 1000 },
      },
      {},
      undefined,
      folder,
    );
    expect(settings).toMatchObject({ freshnessMs: 250, leaseMs: 2000, plans: { '*': { firstPollMs: 600 } }, allowLoopbackCallbacks: true, webhookDelivery: { retryDelaysMs: [100] }, media: { maxBytes: 1000, allowLoopback: false, timeoutMs: 120_000 } });
    expect(settings).not.toHaveProperty('maxConcurrent');
    expect(jobWorkerSettings(jobs, {}, undefined, folder)).not.toHaveProperty('media');
  });
});
