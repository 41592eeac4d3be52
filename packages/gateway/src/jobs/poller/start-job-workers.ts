import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import type { ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import type { GovernanceStoreV1, TrackedJobTerminalV1, TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import type { RuntimeTarget } from '../../runtime/resolve-catalogue.js';
import { tenantWebhookSecret } from '../webhooks/standard-webhook-signature.js';
import { createWebhookDispatcher, type WebhookDispatcher, type WebhookDispatcherOptions } from '../webhooks/webhook-dispatcher.js';
import { jobPollPlanOf, type JobPollPlan } from './job-poll-plan.js';
import { createJobPoller, type JobPoller } from './job-poller.js';
import { pollThroughEngine } from './poll-through-engine.js';
import { copyJobMedia, type JobMediaCopyOptions } from '../media/copy-job-media.js';
import type { JobMediaStore } from '../media/job-media-store.js';
import type { TrackedJobReadDeps } from './read-tracked-job.js';

/** How a gateway process runs its tracked-job workers. */
export interface JobWorkersOptions {
  readonly store: GovernanceStoreV1;
  readonly engine: Pick<ProtocolEngineV1, 'jobs'>;
  readonly targetOf: (ref: string) => RuntimeTarget | undefined;
  /** Settles a tracked job at its terminal state (the governance wiring's `trackedJobSettlement` through its store). */
  readonly settle: (job: TrackedJobV1, target: RuntimeTarget, snapshot: ProviderAsyncJobSnapshotV2) => Promise<void>;
  /** The job as the jobs API shows it, for webhook events. */
  readonly viewOf: (job: TrackedJobV1) => unknown;
  /** Webhooks are sent only with a master key (each tenant's secret is derived from it). */
  readonly webhookMasterKey?: Uint8Array;
  readonly allowLoopbackCallbacks?: boolean;
  /** Retry delays, attempt deadline and concurrency of webhook deliveries (the dispatcher's defaults otherwise). */
  readonly webhookDelivery?: Pick<WebhookDispatcherOptions, 'retryDelaysMs' | 'timeoutMs' | 'maxConcurrent'>;
  /** Copies of finished jobs' result media (absent: none). */
  readonly media?: Omit<JobMediaCopyOptions, 'onError'>;
  /** Per-family plan overrides (all families when keyed `*`). */
  readonly plans?: Readonly<Record<string, Partial<JobPollPlan>>>;
  /** Defaults: 64 jobs held, 8 polls per target, 30 s leases, a claim every second, 30 s per poll, 1 s freshness. */
  readonly maxConcurrent?: number;
  readonly maxConcurrentPerTarget?: number;
  readonly leaseMs?: number;
  readonly claimIntervalMs?: number;
  readonly pollTimeoutMs?: number;
  readonly freshnessMs?: number;
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

/** The running workers and what the routes need to read through them. */
export interface JobWorkers {
  readonly poller: JobPoller;
  readonly webhooks: WebhookDispatcher | undefined;
  /** Deps for `readTrackedJob` (GET from the store, polling only when stale) sharing the poller's plan and settlement. */
  readonly readDeps: TrackedJobReadDeps;
  /** The media store of result copies (absent: no copies are made). */
  readonly mediaStore: JobMediaStore | undefined;
  /** A tenant's webhook signing secret (`whsec_...`), or `undefined` when this gateway sends no webhooks. */
  webhookSecretOf(tenantId: string): string | undefined;
  /** The plan of a target (the create sets the first poll by it). */
  planOfTarget(ref: string): JobPollPlan;
  /** Stops the poller (its leases are given back) and the webhook retries. */
  close(): Promise<void>;
}

/**
 * Builds and starts one process's job poller and webhook dispatcher over the governance store: what start-up calls
 * once governance is configured. One owner id per process (a fresh UUID), so a restarted process never mistakes its
 * predecessor's leases for its own.
 */
export function startJobWorkers(options: JobWorkersOptions): JobWorkers {
  const now = options.now ?? Date.now;
  const planOfTarget = (ref: string): JobPollPlan => {
    const family = options.targetOf(ref)?.family ?? '';
    return jobPollPlanOf(family, { ...options.plans?.['*'], ...options.plans?.[family] });
  };
  const masterKey = options.webhookMasterKey;
  const webhooks =
    masterKey === undefined
      ? undefined
      : createWebhookDispatcher({
          store: options.store,
          secretFor: (tenantId) => tenantWebhookSecret(masterKey, tenantId),
          dataOf: options.viewOf,
          policy: { allowLoopback: options.allowLoopbackCallbacks ?? false },
          ...options.webhookDelivery,
          now,
          ...(options.onError === undefined ? {} : { onError: options.onError }),
        });
  const settle = async (job: TrackedJobV1, snapshot: ProviderAsyncJobSnapshotV2): Promise<void> => {
    const target = options.targetOf(job.targetRef);
    if (target === undefined) throw new Error('the job\'s target is no longer served');
    await options.settle(job, target, snapshot);
  };
  const poll = pollThroughEngine(options.engine, options.targetOf);
  const shared = {
    planOf: (job: TrackedJobV1) => planOfTarget(job.targetRef),
    settle,
    now,
    ...(webhooks === undefined
      ? {}
      : { onStateChange: (_before: TrackedJobV1, after: TrackedJobV1) => webhooks.announce(after), followUpAtMs: (job: TrackedJobV1) => webhooks.firstFollowUpAtMs(job) }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    ...(options.media === undefined
      ? {}
      : { copyMedia: (job: TrackedJobV1, terminal: TrackedJobTerminalV1) => copyJobMedia({ ...options.media!, ...(options.onError === undefined ? {} : { onError: options.onError }) }, job, terminal) }),
  };
  const poller = createJobPoller({
    ...shared,
    store: options.store,
    poll,
    // The host and pid name the process in the store's lease column (operators, tests); the UUID keeps a restarted
    // process from mistaking its predecessor's leases for its own.
    owner: `${hostname()}:${process.pid}:${randomUUID()}`,
    ...(webhooks === undefined ? {} : { followUp: (job: TrackedJobV1) => webhooks.followUp(job) }),
    maxConcurrent: options.maxConcurrent ?? 64,
    maxConcurrentPerTarget: options.maxConcurrentPerTarget ?? 8,
    leaseMs: options.leaseMs ?? 30_000,
    claimIntervalMs: options.claimIntervalMs ?? 1000,
    pollTimeoutMs: options.pollTimeoutMs ?? 30_000,
  });
  poller.start();
  return {
    poller,
    webhooks,
    readDeps: { ...shared, store: options.store, poll, freshnessMs: options.freshnessMs ?? 1000 },
    planOfTarget,
    mediaStore: options.media?.store,
    webhookSecretOf: (tenantId) => (masterKey === undefined ? undefined : tenantWebhookSecret(masterKey, tenantId)),
    async close() {
      await poller.stop();
      await webhooks?.close();
    },
  };
}
