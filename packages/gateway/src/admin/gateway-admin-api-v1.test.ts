import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pipelineGateway } from '../test-support/pipeline-gateway.js';
import { adminKeyCreatedV1Schema, adminKeyV1Schema, adminTenantCreateV1Schema } from './gateway-admin-api-v1.js';
import { gatewayAdminApiV1JsonSchema } from './gateway-admin-api-v1-json-schema.js';

describe('the admin API v1 schema', () => {
  it('the committed JSON Schema is the one the zod schemas generate', () => {
    const committed = JSON.parse(readFileSync(new URL('./gateway-admin-api-v1.schema.json', import.meta.url), 'utf8')) as unknown;
    // Regenerate with: npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/admin/write-gateway-admin-api-v1-json-schema.ts
    expect(committed).toEqual(gatewayAdminApiV1JsonSchema());
  });

  it('takes model names and `*` patterns, and refuses other model access entries and unknown fields', () => {
    expect(adminTenantCreateV1Schema.safeParse({ id: 't', name: 'T', modelAccess: ['gpt-4.1', 'claude-*', '*'] }).success).toBe(true);
    expect(adminTenantCreateV1Schema.safeParse({ id: 't', name: 'T', modelAccess: ['a*b'] }).success).toBe(false);
    expect(adminTenantCreateV1Schema.safeParse({ id: 't', name: 'T', limits: { requestsPerMinute: 0 } }).success).toBe(false);
    expect(adminTenantCreateV1Schema.safeParse({ id: 't', name: 'T', extra: true }).success).toBe(false);
  });

  it('a key as listed has no field for the key or its digest; only the create answer carries the key', () => {
    const key = { id: 'k-1', tenantId: 't', displayPrefix: 'tf-abcd', createdAtMs: 1 };
    expect(adminKeyV1Schema.safeParse(key).success).toBe(true);
    expect(adminKeyV1Schema.safeParse({ ...key, digest: 'ab' }).success).toBe(false);
    expect(adminKeyCreatedV1Schema.safeParse({ version: 3, key, apiKey: 'tf-x' }).success).toBe(true);
  });
});

describe('the admin API without governance', () => {
  it('answers 404 governance-off on every route, and /readyz names no governance version', async () => {
    const { app } = pipelineGateway();
    const answer = await app.request('/admin/v1/tenants', { headers: { authorization: 'Bearer anything' } });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: { code: 'governance-off', message: expect.any(String) } });
    expect(await (await app.request('/readyz')).json()).toEqual({ status: 'ready' });
  });
});
