import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { taskEnvelopeV2Schema } from '@tokenforge/model-protocol';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedGovernanceStore, type EmbeddedGovernanceStore } from '../../governance/embedded/embedded-governance-store.js';
import type { TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import { resolveCatalogue, type ResolvedCatalogue } from '../../runtime/resolve-catalogue.js';
import { parseGatewayCatalogue } from '../../catalogue/load-catalogue.js';
import { simulatorCatalogue } from '../../test-support/simulator-catalogue.js';
import { jobPollPlanOf } from './job-poll-plan.js';
import { createJobPoller, type JobPoller } from './job-poller.js';
import { pollThroughEngine } from './poll-through-engine.js';
import { readTrackedJob } from './read-tracked-job.js';
import { startJobWorkers } from './start-job-workers.js';
import { tenantWebhookSecret, verifyStandardWebhook } from '../webhooks/standard-webhook-signature.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const KLING = 'kling-video/v1';
const DASHSCOPE = 'dashscope-tasks/v1';

let simulator: ProviderSimulator;
let resolved: ResolvedCatalogue;
let directory: string;
let store: EmbeddedGovernanceStore;
const engine = createProtocolEngineV1({ registry: createBuiltinTokenForgeProtocolSuiteV1().registry });

beforeAll(async () => {
  simulator = await startProviderSimulator({ jobTimings: { queuedMs: 50, runningMs: 100 } });
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'kling', taskKind: 'video-generation', targets: [{ family: KLING, model: 'job.100.300' }] },
    { name: 'kling-fail', taskKind: 'video-generation', targets: [{ family: KLING, model: 'job-fail.50.200' }] },
    { name: 'dashscope', taskKind: 'video-generation', targets: [{ family: DASHSCOPE, model: 'job.100.250' }] },
    { name: 'dashscope-fail', taskKind: 'video-generation', targets: [{ family: DASHSCOPE, model: 'job-fail.0.150' }] },
  ]);
  resolved = resolveCatalogue(parseGatewayCatalogue(catalogue), createBuiltinTokenForgeProtocolSuiteV1(), env);
  directory = await mkdtemp(join(tmpdir(), 'tf-poller-sim-'));
  store = openEmbeddedGovernanceStore({ dataDirectory: directory });
});
afterAll(async () => {
  await store?.close();
  await resolved?.close();
  await simulator?.close();
  await rm(directory, { recursive: true, force: true });
});

async function createJob(model: string, index: number): Promise<TrackedJobV1> {
  const target = resolved.models.get(model)?.targets[0];
  if (target === undefined) throw new Error(model);
  const task = taskEnvelopeV2Schema.parse({ kind: 'video-generation', prompt: 'a red fox in snow', durationSeconds: 5, idempotencyKey: `poller-${model}-${index}` });
  const execution = await engine.execute({ binding: target.binding, task, signal: AbortSignal.timeout(10_000) });
  if (execution.kind !== 'accepted-job') throw new Error(`not accepted: ${execution.kind}`);
  const now = Date.now();
  const job: TrackedJobV1 = {
    tenantId: 'acme',
    keyId: 'k1',
    publicModel: model,
    targetRef: target.ref,
    providerJobId: execution.providerJobId,
    attemptId: `${model}-${index}:1`,
    reservedMicros: 1000,
    currency: 'USD',
    createdAtMs: now,
    state: 'queued',
    nextPollAtMs: now + 50,
    pollAttempts: 0,
  };
  await store.recordJob(job);
  return job;
}

describe('job poller against the simulator (Kling, DashScope)', () => {
  it('two pollers on one store bring every job to its terminal state with nobody polling, one poll per job at a time, settled once', async () => {
    const models = ['kling', 'kling-fail', 'dashscope', 'dashscope-fail'];
    const jobs = await Promise.all(Array.from({ length: 40 }, (_, index) => createJob(models[index % 4] as string, index)));
    const settlements: string[] = [];
    const inFlightPerJob = new Map<string, number>();
    let overlapping = 0;
    let polls = 0;
    const poll = pollThroughEngine(engine, (ref) => resolved.targets.get(ref));
    const errors: unknown[] = [];
    const make = (owner: string): JobPoller =>
      createJobPoller({
        store,
        owner,
        poll: async (job, signal) => {
          const running = (inFlightPerJob.get(job.providerJobId) ?? 0) + 1;
          inFlightPerJob.set(job.providerJobId, running);
          if (running > 1) overlapping += 1;
          polls += 1;
          try {
            return await poll(job, signal);
          } finally {
            inFlightPerJob.set(job.providerJobId, (inFlightPerJob.get(job.providerJobId) ?? 1) - 1);
          }
        },
        planOf: (job) => jobPollPlanOf(resolved.targets.get(job.targetRef)?.family ?? '', { firstPollMs: 40, backoffFactor: 1.5, ceilingMs: 150 }),
        settle: async (job) => {
          settlements.push(job.attemptId);
        },
        onError: (error) => errors.push(error),
        now: Date.now,
        maxConcurrent: 16,
        maxConcurrentPerTarget: 6,
        leaseMs: 5_000,
        claimIntervalMs: 20,
        pollTimeoutMs: 5_000,
      });
    const pollers = [make('a'), make('b')];
    for (const poller of pollers) poller.start();
    try {
      const deadline = Date.now() + 20_000;
      let open = jobs.length;
      while (open > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const rows = await store.listJobs('acme', { limit: 100 });
        open = rows.filter((row) => row.settledAtMs === undefined).length;
      }
      expect(open).toBe(0);
    } finally {
      await Promise.all(pollers.map((poller) => poller.stop()));
    }
    const rows = await store.listJobs('acme', { limit: 100 });
    expect(errors).toEqual([]);
    expect(overlapping).toBe(0);
    expect(polls).toBeGreaterThanOrEqual(jobs.length);
    expect([...settlements].sort()).toEqual(jobs.map((job) => job.attemptId).sort());
    for (const row of rows) {
      expect(row.nextPollAtMs).toBeUndefined();
      if (row.publicModel.endsWith('-fail')) {
        expect(row.state).toBe('failed');
        expect(row.terminal?.failureCode).toBeDefined();
      } else {
        expect(row.state).toBe('succeeded');
        expect(row.terminal?.media?.[0]?.url).toMatch(/^https?:\/\//);
        // Kling keeps result URLs 30 days, DashScope about 24 hours.
        const expected = row.publicModel === 'kling' ? 30 * 86_400_000 : 86_400_000;
        expect((row.terminal?.media?.[0]?.expiresAtMs ?? 0) - (row.terminal?.finishedAtMs ?? 0)).toBe(expected);
      }
    }
  }, 30_000);

  it('startJobWorkers: jobs finish, settle and announce themselves with signed webhooks; reads then answer from the store', async () => {
    const masterKey = new TextEncoder().encode('webhook-master-key-0123456789abcdef');
    const secret = tenantWebhookSecret(masterKey, 'acme');
    const verified: string[] = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = new Headers(Object.entries(request.headers).map(([name, value]): [string, string] => [name, String(value)]));
        if (verifyStandardWebhook(secret, headers, body, Date.now() / 1000) === undefined) verified.push((JSON.parse(body) as { type: string }).type);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const settled: string[] = [];
    const workers = startJobWorkers({
      store,
      engine,
      targetOf: (ref) => resolved.targets.get(ref),
      settle: async (job) => {
        settled.push(job.attemptId);
      },
      viewOf: (job) => ({ object: 'job', model: job.publicModel, status: job.state }),
      webhookMasterKey: masterKey,
      allowLoopbackCallbacks: true,
      plans: { '*': { firstPollMs: 40, ceilingMs: 100 } },
      claimIntervalMs: 20,
    });
    try {
      const jobs = await Promise.all(['kling', 'dashscope-fail'].map(async (model, index) => {
        const job = await createJob(model, 100 + index);
        const withCallback = { ...job, callbackUrl, nextPollAtMs: job.createdAtMs + workers.planOfTarget(job.targetRef).firstPollMs };
        await store.recordJob(withCallback);
        return withCallback;
      }));
      const deadline = Date.now() + 10_000;
      while (settled.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      await workers.webhooks?.idle();
      expect(settled.sort()).toEqual(jobs.map((job) => job.attemptId).sort());
      expect(verified).toContain('job.succeeded');
      expect(verified).toContain('job.failed');
      for (const job of jobs) {
        const read = await readTrackedJob(workers.readDeps, job, AbortSignal.timeout(1000));
        expect(read?.source).toBe('store');
        expect(read?.job.deliveries?.some((delivery) => delivery.outcome === 'delivered')).toBe(true);
      }
    } finally {
      await workers.close();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 30_000);
});
