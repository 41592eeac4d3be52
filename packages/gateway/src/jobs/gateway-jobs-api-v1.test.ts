import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayJobCreateRequestV1Schema, gatewayJobErrorV1Schema, gatewayJobIssuesOf, gatewayJobV1Schema } from './gateway-jobs-api-v1.js';
import { gatewayJobsApiV1JsonSchema } from './gateway-jobs-api-v1-json-schema.js';
import { expectGatewayJobsAnswer } from './test-support/expect-gateway-jobs-answer.js';

describe('the jobs API v1 schema', () => {
  it('the committed JSON Schema is the one the zod schemas generate', () => {
    const committed = JSON.parse(readFileSync(new URL('./gateway-jobs-api-v1.schema.json', import.meta.url), 'utf8')) as unknown;
    // Regenerate with: npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/jobs/write-gateway-jobs-api-v1-json-schema.ts
    expect(committed).toEqual(gatewayJobsApiV1JsonSchema());
  });

  it('reports every problem of a create body once, by path and stable reason, never echoing a value', () => {
    const body = { model: 7, prompt: 'secret-canary-prompt', aspectRatio: 'wide', guidance: 3, nope: 1 };
    const parsed = gatewayJobCreateRequestV1Schema.safeParse(body);
    expect(parsed.success).toBe(false);
    const issues = gatewayJobIssuesOf(parsed.error!, body);
    expect(issues.map(({ path, reason }) => [path, reason])).toEqual([
      ['model', 'wrong-type'],
      ['aspectRatio', 'invalid-format'],
      ['guidance', 'out-of-range'],
      ['nope', 'unknown-field'],
    ]);
    expect(JSON.stringify(issues)).not.toContain('secret-canary-prompt');
    expect(gatewayJobErrorV1Schema.safeParse({ error: { code: 'invalid-request', message: 'x', path: 'nope', issues } }).success).toBe(true);
  });

  it('is closed: the job resource and the error envelope refuse fields they do not name', () => {
    const job = { id: 'tfj1.abc.def', object: 'job', model: 'video', status: 'queued' };
    expect(gatewayJobV1Schema.safeParse(job).success).toBe(true);
    expect(gatewayJobV1Schema.safeParse({ ...job, providerJobId: '123' }).success).toBe(false);
    expect(gatewayJobErrorV1Schema.safeParse({ error: { code: 'not-a-code', message: 'x' } }).success).toBe(false);
    expect(gatewayJobErrorV1Schema.safeParse({ error: { code: 'rate-limited', message: 'x' } }).success).toBe(true);
  });

  it('the answer check picks the schema by route and status, and fails on an answer outside it', () => {
    const job = { id: 'tfj1.abc.def', object: 'job', model: 'video', status: 'running' };
    expect(() => expectGatewayJobsAnswer('GET', '/v1/jobs/tfj1.abc.def', 200, job)).not.toThrow();
    expect(() => expectGatewayJobsAnswer('GET', '/v1/jobs/tfj1.abc.def', 200, { ...job, status: 'done' })).toThrow(/status/);
    expect(() => expectGatewayJobsAnswer('GET', '/v1/jobs?model=video', 200, job)).toThrow(/outside the jobs API v1 schema/);
    expect(() => expectGatewayJobsAnswer('POST', '/v1/jobs/tfj1.abc.def/cancel', 200, { id: job.id, object: 'job', model: 'video', cancelRequested: true })).not.toThrow();
    expect(() => expectGatewayJobsAnswer('POST', '/v1/jobs', 400, { error: { code: 'invalid-request', message: 'x', extra: 1 } })).toThrow();
  });
});
