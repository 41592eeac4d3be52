import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  adminJobListV1Schema,
  adminKeyListV1Schema,
  adminLimitUseV1Schema,
  adminRequestListV1Schema,
  adminRequestV1Schema,
  adminSpendV1Schema,
  adminTargetsV1Schema,
  adminTenantListV1Schema,
} from './admin/gateway-admin-api-v1.js';
import type { RequestAttemptRecordV1, RequestRecordV1 } from './governance/v1/governance-store-v1.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { simulatorCatalogue } from './test-support/simulator-catalogue.js';

/*
 * Per-attempt request records and target health end to end (issue #36, "Requests", "Targets"): a real gateway with the embedded store, the simulator
 * upstream, the OpenAI SDK as client; the records read back through `/admin/v1/requests`.
 */

const PROMPT = 'a prompt that must never reach a request record';
let simulator: ProviderSimulator;
let gateway: RunningGateway;
let dataDir: string;

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(simulator, [
    {
      name: 'fallback',
      taskKind: 'chat',
      targets: [
        { family: 'openai-chat/v1', model: 'error.503.2' },
        { family: 'openai-chat/v1', model: 'slow-first-byte.300' },
      ],
    },
    {
      name: 'unreachable-first',
      taskKind: 'chat',
      targets: [
        { family: 'openai-chat/v1', model: 'text', baseUrl: 'http://127.0.0.1:1/v1' },
        { family: 'anthropic-messages/v1', model: 'text' },
      ],
    },
  ]);
  dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-request-attempts-'));
  gateway = await startGateway({ catalogue, env, logger: { write: () => undefined }, dataDir });
});
afterAll(async () => {
  await gateway?.close();
  await simulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function tenantKey(id: string): Promise<string> {
  const admin = (path: string, body: unknown) =>
    fetch(`${gateway.url}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await admin('/tenants', { id, name: id })).status).toBe(201);
  return ((await (await admin('/keys', { tenantId: id })).json()) as { apiKey: string }).apiKey;
}

/** The request's record (the admin API includes every record queued before the call; the log stage queues it as the request ends). */
async function recordOf(requestId: string): Promise<RequestRecordV1> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const answer = await fetch(`${gateway.url}/admin/v1/requests?limit=50`, { headers: { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}` } });
    const record = ((await answer.json()) as { requests: RequestRecordV1[] }).requests.find((entry) => entry.requestId === requestId);
    if (record !== undefined) return record;
    if (Date.now() > deadline) throw new Error(`request ${requestId} was not recorded`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('records each attempt of a streamed request with a retry and a fallback: number, target, family, outcome, the provider\'s wait, start, first byte and duration', async () => {
  const client = new OpenAI({ apiKey: await tenantKey('attempts-a'), baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const started = Date.now();
  const { data: stream, response } = await client.chat.completions.create({ model: 'fallback', stream: true, messages: [{ role: 'user', content: PROMPT }] }).withResponse();
  for await (const _chunk of stream) void _chunk;
  const record = await recordOf(response.headers.get('x-request-id') ?? '');
  expect(JSON.stringify(record)).not.toContain(PROMPT);
  // The first target asks for a 2 s wait: it is tried again after it, then the request falls back.
  const [first, retried, second] = record.attempts as [RequestAttemptRecordV1, RequestAttemptRecordV1, RequestAttemptRecordV1];
  expect(record.attempts).toHaveLength(3);
  for (const [index, attempt] of [first, retried].entries()) {
    expect(attempt).toMatchObject({ attempt: index + 1, targetRef: 'fallback#0', provider: 'simulator', family: 'openai-chat/v1', outcome: 'provider-error', diagnostic: 'retry after 2000 ms' });
    expect(attempt.timeToFirstByteMs).toBeUndefined();
  }
  expect(second).toMatchObject({ attempt: 3, targetRef: 'fallback#1', family: 'openai-chat/v1', outcome: 'ok' });
  expect(second.diagnostic).toBeUndefined();
  expect(first.startedAtMs).toBeGreaterThanOrEqual(started);
  expect(retried.startedAtMs).toBeGreaterThanOrEqual(first.startedAtMs! + 2000);
  expect(second.startedAtMs).toBeGreaterThanOrEqual(retried.startedAtMs! + retried.durationMs! - 1);
  // The simulator holds the first byte 300 ms; the attempt's timings are completed when its stream ends.
  expect(second.timeToFirstByteMs).toBeGreaterThanOrEqual(290);
  expect(second.durationMs).toBeGreaterThan(second.timeToFirstByteMs!);
  expect(record.totalMs).toBeGreaterThanOrEqual(second.durationMs!);
});

it('GET /admin/v1/requests/{id}: one record by its id, 404 not-found for an unknown id', async () => {
  const client = new OpenAI({ apiKey: await tenantKey('attempts-c'), baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const { response } = await client.chat.completions.create({ model: 'unreachable-first', messages: [{ role: 'user', content: PROMPT }] }).withResponse();
  const requestId = response.headers.get('x-request-id') ?? '';
  const headers = { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}` };
  const found = await fetch(`${gateway.url}/admin/v1/requests/${requestId}`, { headers });
  expect(found.status).toBe(200);
  expect(((await found.json()) as { request: RequestRecordV1 }).request).toMatchObject({ requestId, tenantId: 'attempts-c', attempts: [{ attempt: 1 }, { attempt: 2 }] });
  const unknown = await fetch(`${gateway.url}/admin/v1/requests/no-such-request`, { headers });
  expect(unknown.status).toBe(404);
  expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not-found');
});

it('names the transport stage and reason of an attempt that never reached its target', async () => {
  const client = new OpenAI({ apiKey: await tenantKey('attempts-b'), baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const { response } = await client.chat.completions.create({ model: 'unreachable-first', messages: [{ role: 'user', content: PROMPT }] }).withResponse();
  const record = await recordOf(response.headers.get('x-request-id') ?? '');
  expect(record.attempts).toHaveLength(2);
  expect(record.attempts[0]).toMatchObject({ attempt: 1, outcome: 'PROTOCOL_ENGINE_TRANSPORT_FAILED', diagnostic: 'transport connect-failed (before-send)' });
  expect(record.attempts[1]).toMatchObject({ attempt: 2, targetRef: 'unreachable-first#1', family: 'anthropic-messages/v1', outcome: 'ok' });
  expect(record.attempts[1]?.timeToFirstByteMs).toBeLessThanOrEqual(record.attempts[1]?.durationMs ?? -1);
});

it('/admin/v1/targets: each target\'s last 5 minutes (attempts, error rate, latency p50/p90/p99) and upstream pool use, labelled with the instance', async () => {
  const answer = await fetch(`${gateway.url}/admin/v1/targets`, { headers: { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}` } });
  const report = (await answer.json()) as { instance: string; targets: { ref: string; recent?: Record<string, number>; pool?: Record<string, number> }[] };
  expect(report.instance).toMatch(new RegExp(`:${process.pid}$`));
  const byRef = new Map(report.targets.map((target) => [target.ref, target]));
  // Two 503s at fallback#0; one slow-first-byte answer at fallback#1 (its latency is to the stream's head).
  expect(byRef.get('fallback#0')?.recent).toEqual({ attempts: 2, errorRate: 1 });
  const slow = byRef.get('fallback#1')?.recent;
  expect(slow).toMatchObject({ attempts: 1, errorRate: 0 });
  expect(slow?.latencyP50Ms).toBeGreaterThanOrEqual(290);
  expect(slow?.latencyP99Ms).toBe(slow?.latencyP50Ms);
  expect(byRef.get('unreachable-first#0')?.recent).toEqual({ attempts: 2, errorRate: 1 });
  expect(byRef.get('fallback#1')?.pool).toMatchObject({ inUse: 0, waiting: 0 });
  expect(byRef.get('fallback#1')?.pool?.connections).toBeGreaterThan(0);
});

it('every admin answer the console reads matches its admin API schema (the types the console imports)', async () => {
  const read = async (path: string, schema: z.ZodType): Promise<void> => {
    const answer = await fetch(`${gateway.url}/admin/v1${path}`, { headers: { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}` } });
    expect(answer.status).toBe(200);
    const parsed = schema.safeParse(await answer.json());
    expect([path, parsed.success ? [] : parsed.error.issues]).toEqual([path, []]);
  };
  await read('/tenants', adminTenantListV1Schema);
  await read('/keys', adminKeyListV1Schema);
  await read('/tenants/attempts-a/limit-use', adminLimitUseV1Schema);
  await read('/spend?groupBy=tenant,key,model,day', adminSpendV1Schema);
  await read('/requests', adminRequestListV1Schema);
  const [newest] = ((await (await fetch(`${gateway.url}/admin/v1/requests?limit=1`, { headers: { authorization: `Bearer ${gateway.governance?.adminKey ?? ''}` } })).json()) as { requests: RequestRecordV1[] }).requests;
  await read(`/requests/${newest?.requestId ?? ''}`, adminRequestV1Schema);
  await read('/jobs?tenantId=attempts-a', adminJobListV1Schema);
  await read('/targets', adminTargetsV1Schema);
});
