import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedGovernanceStore, type EmbeddedGovernanceStore } from '../../governance/embedded/embedded-governance-store.js';
import type { TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import { tenantWebhookSecret, verifyStandardWebhook } from './standard-webhook-signature.js';
import { createWebhookDispatcher, webhookEventId, type WebhookDispatcherOptions } from './webhook-dispatcher.js';

const MASTER = new TextEncoder().encode('webhook-master-key-0123456789abcdef');
const SECRET = tenantWebhookSecret(MASTER, 'acme');

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly verdict: string;
}

/** A webhook receiver on a real socket that verifies every signature and answers what `answer` says. */
async function startReceiver(answer: (count: number) => { status: number; headers?: Record<string, string> } | 'hang') {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = new Headers(Object.entries(request.headers).map(([name, value]): [string, string] => [name, String(value)]));
      received.push({ headers: request.headers, body, verdict: verifyStandardWebhook(SECRET, headers, body, Date.now() / 1000) ?? 'verified' });
      const reply = answer(received.length);
      if (reply === 'hang') return;
      response.writeHead(reply.status, reply.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/jobs`;
  return {
    url,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

let directory: string;
let store: EmbeddedGovernanceStore;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tf-webhooks-'));
  store = openEmbeddedGovernanceStore({ dataDirectory: directory });
});
afterEach(async () => {
  await store.close();
  await rm(directory, { recursive: true, force: true });
});

async function job(callbackUrl: string, state = 'succeeded'): Promise<TrackedJobV1> {
  const row: TrackedJobV1 = {
    tenantId: 'acme',
    keyId: 'k1',
    publicModel: 'video',
    targetRef: 'video#0',
    providerJobId: `job-${Math.random().toString(36).slice(2)}`,
    attemptId: 'r:1',
    reservedMicros: 1,
    currency: 'USD',
    createdAtMs: Date.now(),
    state,
    callbackUrl,
  };
  await store.recordJob(row);
  return row;
}

const dispatcher = (overrides: Partial<WebhookDispatcherOptions> = {}) =>
  createWebhookDispatcher({
    store,
    secretFor: (tenantId) => (tenantId === 'acme' ? SECRET : undefined),
    dataOf: (row) => ({ object: 'job', model: row.publicModel, status: row.state }),
    policy: { allowLoopback: true },
    now: Date.now,
    retryDelaysMs: [20, 20, 20],
    timeoutMs: 2000,
    ...overrides,
  });

const deliveries = async (row: TrackedJobV1) => (await store.findJob(row.tenantId, row.targetRef, row.providerJobId))?.deliveries ?? [];

describe('webhook dispatcher', () => {
  it('delivers a signed event the receiver verifies; a receiver that is down is retried with the same event id', async () => {
    const receiver = await startReceiver((count) => ({ status: count <= 2 ? 503 : 204 }));
    try {
      const row = await job(receiver.url);
      const webhooks = dispatcher();
      webhooks.announce(row);
      await webhooks.idle();
      expect(receiver.received.map((entry) => entry.verdict)).toEqual(['verified', 'verified', 'verified']);
      const ids = new Set(receiver.received.map((entry) => entry.headers['webhook-id']));
      expect(ids.size).toBe(1);
      expect(JSON.parse(receiver.received[2]?.body ?? '')).toMatchObject({ type: 'job.succeeded', data: { object: 'job', model: 'video', status: 'succeeded' } });
      expect((await deliveries(row)).map((entry) => [entry.attempt, entry.outcome, entry.status])).toEqual([
        [1, 'failed', 503],
        [2, 'failed', 503],
        [3, 'delivered', 204],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('gives up after the last retry and logs it abandoned', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const row = await job(receiver.url);
      const webhooks = dispatcher({ retryDelaysMs: [10] });
      webhooks.announce(row);
      await webhooks.idle();
      expect((await deliveries(row)).map((entry) => entry.outcome)).toEqual(['failed', 'abandoned']);
    } finally {
      await receiver.close();
    }
  });

  it('never follows a redirect', async () => {
    const elsewhere = await startReceiver(() => ({ status: 200 }));
    const receiver = await startReceiver(() => ({ status: 307, headers: { location: elsewhere.url } }));
    try {
      const row = await job(receiver.url);
      const webhooks = dispatcher({ retryDelaysMs: [] });
      webhooks.announce(row);
      await webhooks.idle();
      expect(await deliveries(row)).toMatchObject([{ outcome: 'abandoned', status: 307, reason: 'redirect' }]);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await receiver.close();
      await elsewhere.close();
    }
  });

  it('refuses, at delivery, a host name that now resolves to a private or metadata address, without retrying', async () => {
    for (const address of ['10.0.0.7', '169.254.169.254']) {
      const row = await job('https://hooks.example.com/jobs');
      const webhooks = dispatcher({ policy: { allowLoopback: false }, resolveHostname: async () => [address] });
      webhooks.announce(row);
      await webhooks.idle();
      expect(await deliveries(row)).toMatchObject([{ attempt: 1, outcome: 'abandoned', reason: 'address-policy' }]);
    }
  });

  it('a receiver that hangs never blocks the announcer; the attempt times out and is retried', async () => {
    const receiver = await startReceiver((count) => (count === 1 ? 'hang' : { status: 200 }));
    try {
      const row = await job(receiver.url);
      const webhooks = dispatcher({ timeoutMs: 200 });
      const started = performance.now();
      webhooks.announce(row);
      expect(performance.now() - started).toBeLessThan(50);
      expect(webhooks.pending).toBe(1);
      await webhooks.idle();
      expect((await deliveries(row)).map((entry) => [entry.outcome, entry.reason])).toEqual([
        ['failed', 'timeout'],
        ['delivered', undefined],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('sends nothing for a tenant without a secret or a job without a callback', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const webhooks = dispatcher();
      webhooks.announce({ ...(await job(receiver.url)), tenantId: 'globex' });
      const { callbackUrl: _none, ...withoutCallback } = await job(receiver.url);
      webhooks.announce(withoutCallback);
      await webhooks.idle();
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('follow-up: an event another instance announced and then went silent on is announced again here; a delivered one is done', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    let now = Date.now();
    try {
      const webhooks = dispatcher({ now: () => now, timeoutMs: 1000 });
      const row = await job(receiver.url);
      const settled = { ...row, settledAtMs: now };
      const first = webhooks.firstFollowUpAtMs(settled) ?? 0;
      expect(first).toBe(now + 6000);
      // Announced by a dead instance: one failed attempt in the log, then nothing.
      await store.appendJobDelivery(row, { eventId: webhookEventId(row), state: 'succeeded', attempt: 1, atMs: now, outcome: 'failed', status: 503 });
      const logged = (await store.findJob(row.tenantId, row.targetRef, row.providerJobId)) as TrackedJobV1;
      // Within the dead instance's next retry (20 ms) plus slack, nothing is sent.
      expect(webhooks.followUp({ ...logged, settledAtMs: now })).toBe(now + 20 + 6000);
      expect(receiver.received).toEqual([]);
      now += 20 + 6000;
      expect(webhooks.followUp({ ...logged, settledAtMs: now })).toBe(now + 6000);
      await webhooks.idle();
      expect(receiver.received.map((entry) => [entry.verdict, entry.headers['webhook-id']])).toEqual([['verified', webhookEventId(row)]]);
      const after = (await store.findJob(row.tenantId, row.targetRef, row.providerJobId)) as TrackedJobV1;
      expect(webhooks.followUp(after)).toBeUndefined();
      const { callbackUrl: _callbackUrl, ...withoutCallback } = row;
      expect(webhooks.followUp(withoutCallback)).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });
});
