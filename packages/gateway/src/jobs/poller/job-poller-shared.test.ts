import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { taskEnvelopeV2Schema } from '@tokenforge/model-protocol';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedGovernanceStore } from '../../governance/shared/shared-governance-store.js';
import { type RealServers, realServersAvailable, startRealServers } from '../../governance/shared/test-support/real-servers.js';
import { resetSharedGovernanceState } from '../../governance/shared/test-support/reset-shared-governance-state.js';
import type { TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import { parseGatewayCatalogue } from '../../catalogue/load-catalogue.js';
import { resolveCatalogue, type ResolvedCatalogue } from '../../runtime/resolve-catalogue.js';
import { simulatorCatalogue } from '../../test-support/simulator-catalogue.js';
import { tenantWebhookSecret, verifyStandardWebhook } from '../webhooks/standard-webhook-signature.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { jobPollPlanOf } from './job-poll-plan.js';
import { createJobPoller, type JobPoller } from './job-poller.js';
import { pollThroughEngine } from './poll-through-engine.js';

const JOBS = 300;
const SECRET = tenantWebhookSecret(new TextEncoder().encode('webhook-master-key-for-the-test-0123'), 'acme');

describe.skipIf(!realServersAvailable())('three pollers over one Redis and one PostgreSQL, against the simulator', () => {
  let servers: RealServers;
  let simulator: ProviderSimulator;
  let resolved: ResolvedCatalogue;
  beforeAll(async () => {
    [servers, simulator] = await Promise.all([startRealServers(), startProviderSimulator({ jobTimings: { queuedMs: 50, runningMs: 100 } })]);
    const { catalogue, env } = simulatorCatalogue(simulator, [
      { name: 'kling', taskKind: 'video-generation', targets: [{ family: 'kling-video/v1', model: 'job.200.600' }] },
      { name: 'dashscope-fail', taskKind: 'video-generation', targets: [{ family: 'dashscope-tasks/v1', model: 'job-fail.100.500' }] },
    ]);
    resolved = resolveCatalogue(parseGatewayCatalogue(catalogue), createBuiltinTokenForgeProtocolSuiteV1(), env);
  }, 120_000);
  afterAll(async () => {
    await resolved?.close();
    await simulator?.close();
    await servers?.dispose();
  });

  it(`${JOBS} open jobs, nobody polling: each polled by one instance at a time, settled once, announced and verified; a killed instance's jobs are taken over; a receiver down for a while gets its events later`, async () => {
    await resetSharedGovernanceState(servers.redis.url, servers.postgres.url);
    const stores = await Promise.all([0, 1, 2].map(() => SharedGovernanceStore.open({ redisUrl: servers.redis.url, databaseUrl: servers.postgres.url })));
    const engine = createProtocolEngineV1({ registry: createBuiltinTokenForgeProtocolSuiteV1().registry });
    // The receiver refuses everything for the first 1.5 s of polling (down), then verifies and accepts.
    const receivedIds = new Map<string, number>();
    let refusedWhileDown = 0;
    let badSignatures = 0;
    let downUntil = Number.POSITIVE_INFINITY;
    const receiver: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (Date.now() < downUntil) {
          refusedWhileDown += 1;
          return response.writeHead(503).end();
        }
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = new Headers(Object.entries(request.headers).map(([name, value]): [string, string] => [name, String(value)]));
        if (verifyStandardWebhook(SECRET, headers, body, Date.now() / 1000) !== undefined) {
          badSignatures += 1;
          return response.writeHead(400).end();
        }
        const id = headers.get('webhook-id') ?? '';
        receivedIds.set(id, (receivedIds.get(id) ?? 0) + 1);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const settlements = new Map<string, number>();
    const inFlight = new Map<string, number>();
    let overlapping = 0;
    let polls = 0;
    const errors: unknown[] = [];
    const poll = pollThroughEngine(engine, (ref) => resolved.targets.get(ref));
    const dispatchers: WebhookDispatcher[] = [];
    const pollers: JobPoller[] = stores.map((store, index) => {
      const webhooks = createWebhookDispatcher({
        store,
        secretFor: () => SECRET,
        dataOf: (job) => ({ object: 'job', model: job.publicModel, status: job.state }),
        policy: { allowLoopback: true },
        now: Date.now,
        retryDelaysMs: [300, 300, 300, 300, 300, 300],
        maxConcurrent: 16,
      });
      dispatchers.push(webhooks);
      // Instance 2 is killed after its first claims: it never polls, extends or releases again.
      const dead = {
        claimDueJobs: (claim: Parameters<typeof store.claimDueJobs>[0]) => store.claimDueJobs(claim),
        observeJob: () => new Promise<never>(() => undefined),
        extendJobLeases: async () => 0,
        releaseJobLeases: async () => 0,
      };
      return createJobPoller({
        store: index === 2 ? dead : store,
        owner: `instance-${index}`,
        poll: async (job, signal) => {
          if (index === 2) return new Promise(() => undefined);
          const running = (inFlight.get(job.providerJobId) ?? 0) + 1;
          inFlight.set(job.providerJobId, running);
          if (running > 1) overlapping += 1;
          polls += 1;
          try {
            return await poll(job, signal);
          } finally {
            inFlight.set(job.providerJobId, (inFlight.get(job.providerJobId) ?? 1) - 1);
          }
        },
        planOf: (job) => jobPollPlanOf(resolved.targets.get(job.targetRef)?.family ?? '', { firstPollMs: 100, backoffFactor: 1.5, ceilingMs: 400 }),
        // The real settlement path: the store charges each attempt id once, whoever calls.
        settle: async (job, snapshot) => {
          const result = await store.settle({
            attemptId: job.attemptId, requestId: job.attemptId.split(':')[0] ?? job.attemptId, attempt: 1, tenantId: job.tenantId, keyId: job.keyId,
            publicModel: job.publicModel, targetRef: job.targetRef, provider: 'simulator', kind: snapshot.state === 'succeeded' ? 'estimated' : 'released',
            costMicros: snapshot.state === 'succeeded' ? job.reservedMicros : 0, currency: job.currency, priceVersion: 'bench', reservedMicros: job.reservedMicros,
            reservedTokens: 0, usedTokens: 0, overrun: false, outcome: snapshot.state, releaseSlot: false, startedAtMs: job.createdAtMs, settledAtMs: Date.now(),
          });
          if (result.kind === 'settled') settlements.set(job.attemptId, (settlements.get(job.attemptId) ?? 0) + 1);
          if (result.kind === 'unavailable') throw new Error('settlement unavailable');
        },
        onStateChange: (_before, after) => webhooks.announce(after),
        onError: (error) => errors.push(error),
        now: Date.now,
        maxConcurrent: index === 2 ? 20 : 64,
        maxConcurrentPerTarget: 32,
        leaseMs: 1500,
        claimIntervalMs: 25,
        pollTimeoutMs: index === 2 ? 600_000 : 5000,
      });
    });

    const models = ['kling', 'dashscope-fail'];
    const jobs: TrackedJobV1[] = [];
    for (let batch = 0; batch < JOBS; batch += 50) {
      jobs.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, async (_, offset) => {
            const index = batch + offset;
            const model = models[index % 2] as string;
            const target = resolved.models.get(model)?.targets[0];
            if (target === undefined) throw new Error(model);
            const task = taskEnvelopeV2Schema.parse({ kind: 'video-generation', prompt: 'a fox', durationSeconds: 5, idempotencyKey: `shared-${index}` });
            const execution = await engine.execute({ binding: target.binding, task, signal: AbortSignal.timeout(10_000) });
            if (execution.kind !== 'accepted-job') throw new Error(execution.kind);
            const now = Date.now();
            const job: TrackedJobV1 = {
              tenantId: 'acme', keyId: 'k1', publicModel: model, targetRef: target.ref, providerJobId: execution.providerJobId,
              attemptId: `shared-${index}:1`, reservedMicros: 1000, currency: 'USD', createdAtMs: now, state: 'queued',
              nextPollAtMs: now + 100, pollAttempts: 0, callbackUrl,
            };
            await stores[index % 3]?.recordJob(job);
            return job;
          }),
        )),
      );
    }
    const started = performance.now();
    downUntil = Date.now() + 1500;
    pollers[2]?.start();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(pollers[2]?.held).toBeGreaterThan(0);
    pollers[0]?.start();
    pollers[1]?.start();
    try {
      const deadline = Date.now() + 60_000;
      let open = jobs.length;
      while (open > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        open = (await stores[0]!.listJobs('acme', { limit: 1000 })).filter((row) => row.settledAtMs === undefined).length;
      }
      expect(open).toBe(0);
      const elapsedMs = performance.now() - started;
      await Promise.all(dispatchers.slice(0, 2).map((webhooks) => webhooks.idle()));
      const rows = await stores[0]!.listJobs('acme', { limit: 1000 });
      expect(errors).toEqual([]);
      expect(overlapping).toBe(0);
      expect([...settlements.values()].every((count) => count === 1)).toBe(true);
      expect(settlements.size).toBe(JOBS);
      const ledger = await stores[0]!.admin.ledger({ tenantId: 'acme', limit: 1000 });
      expect(ledger).toHaveLength(JOBS);
      expect(ledger.reduce((sum, row) => sum + row.costMicros, 0)).toBe((JOBS / 2) * 1000);
      expect(rows.filter((row) => row.state === 'succeeded')).toHaveLength(JOBS / 2);
      expect(rows.filter((row) => row.state === 'failed' && row.terminal?.failureCode !== undefined)).toHaveLength(JOBS / 2);
      // Every terminal event reached the receiver and verified; the ones sent while it was down were retried.
      const terminalIds = rows.map((row) => row.deliveries?.find((delivery) => delivery.state === row.state && delivery.outcome === 'delivered')?.eventId);
      expect(terminalIds.every((id) => id !== undefined && receivedIds.has(id))).toBe(true);
      expect(refusedWhileDown).toBeGreaterThan(0);
      expect(badSignatures).toBe(0);
      console.info(`[job-poller-shared] ${JOBS} jobs over 3 instances (one killed): all terminal in ${Math.round(elapsedMs)} ms, ${polls} polls (${Math.round((polls / elapsedMs) * 1000)}/s), ${refusedWhileDown} deliveries refused while the receiver was down`);
    } finally {
      await Promise.all(pollers.slice(0, 2).map((poller) => poller.stop()));
      await Promise.all(dispatchers.map((webhooks) => webhooks.close()));
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
      await Promise.all(stores.slice(0, 2).map((store) => store.close()));
      await stores[2]?.close().catch(() => undefined);
    }
  }, 120_000);
});
