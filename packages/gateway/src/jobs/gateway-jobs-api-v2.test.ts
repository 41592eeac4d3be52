import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayJobV1Schema } from './gateway-jobs-api-v1.js';
import { gatewayJobsApiV2JsonSchema } from './gateway-jobs-api-v2-json-schema.js';
import { gatewayJobCreateRequestV2Schema, gatewayJobListQueryV2Schema, gatewayJobV2Schema } from './gateway-jobs-api-v2.js';

describe('the jobs API v2 schema', () => {
  it('the committed JSON Schema is the one the zod schemas generate', () => {
    const committed = JSON.parse(readFileSync(new URL('./gateway-jobs-api-v2.schema.json', import.meta.url), 'utf8')) as unknown;
    // Regenerate with: npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/jobs/write-gateway-jobs-api-v2-json-schema.ts
    expect(committed).toEqual(gatewayJobsApiV2JsonSchema());
  });

  it('a v1 job is a v2 job; the v2 fields are refused by v1', () => {
    const job = { id: 'tfj1.abc.def', object: 'job', model: 'video', status: 'succeeded', media: [{ type: 'video', url: 'https://cdn.example.com/a.mp4' }] } as const;
    expect(gatewayJobV2Schema.safeParse(job).success).toBe(true);
    const tracked = {
      ...job,
      media: [{ type: 'video', url: 'https://cdn.example.com/a.mp4', expiresAt: '2026-05-15T12:00:00Z' }],
      observedAt: '2026-04-15T12:00:00Z',
      deliveries: [{ eventId: 'msg_1', status: 'succeeded', attempt: 1, at: '2026-04-15T12:00:01Z', outcome: 'delivered', httpStatus: 204 }],
    };
    expect(gatewayJobV2Schema.safeParse(tracked).success).toBe(true);
    expect(gatewayJobV1Schema.safeParse(tracked).success).toBe(false);
    expect(gatewayJobV2Schema.safeParse({ ...tracked, deliveries: [{ ...tracked.deliveries[0], outcome: 'maybe' }] }).success).toBe(false);
  });

  it('create takes a callback URL; list filters are closed and bounded', () => {
    expect(gatewayJobCreateRequestV2Schema.safeParse({ model: 'video', prompt: 'a fox', callbackUrl: 'https://hooks.example.com/x' }).success).toBe(true);
    expect(gatewayJobCreateRequestV2Schema.safeParse({ model: 'video', prompt: 'a fox', callbackUrl: '' }).success).toBe(false);
    expect(gatewayJobListQueryV2Schema.parse({ status: 'running', limit: '20' })).toEqual({ status: 'running', limit: 20 });
    expect(gatewayJobListQueryV2Schema.safeParse({ status: 'done' }).success).toBe(false);
    expect(gatewayJobListQueryV2Schema.safeParse({ limit: '501' }).success).toBe(false);
    expect(gatewayJobListQueryV2Schema.safeParse({ page: '2' }).success).toBe(false);
  });
});
