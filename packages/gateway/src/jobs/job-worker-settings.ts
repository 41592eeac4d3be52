import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GatewayCatalogueV1 } from '../catalogue/gateway-catalogue-v1.js';
import { createDirectoryJobMediaStore } from './media/job-media-store.js';
import type { TrackedJobV1 } from '../governance/v1/governance-store-v1.js';
import { GatewayConfigurationError } from '../runtime/gateway-configuration-error.js';
import { readSecret } from '../runtime/read-secret.js';
import { ownerPrefix, signJobHandle } from './job-handle.js';
import type { JobWorkersOptions } from './poller/start-job-workers.js';
import { trackedJobViewV2 } from './tracked-job-view.js';

/** The variable the webhook master key is read from when the catalogue names none. */
export const DEFAULT_WEBHOOK_MASTER_KEY_ENV = 'TOKENFORGE_WEBHOOK_MASTER_KEY';

type Settings = Pick<
  JobWorkersOptions,
  'media' | 'webhookMasterKey' | 'allowLoopbackCallbacks' | 'plans' | 'maxConcurrent' | 'maxConcurrentPerTarget' | 'leaseMs' | 'claimIntervalMs' | 'pollTimeoutMs' | 'freshnessMs' | 'webhookDelivery'
>;

/**
 * The job workers' settings from the catalogue's `jobs` section and the environment: the webhook master key from
 * `jobs.webhooks.masterKeyEnv` (or its `_FILE`), else the embedded store's generated one; without either, no
 * webhooks. A master key shorter than 32 characters is a configuration error (it would make every tenant's secret
 * guessable).
 */
export function jobWorkerSettings(
  jobs: GatewayCatalogueV1['jobs'],
  env: Readonly<Record<string, string | undefined>>,
  generatedMasterKey: string | undefined,
  dataDir: string,
): Settings {
  const name = jobs?.webhooks?.masterKeyEnv ?? DEFAULT_WEBHOOK_MASTER_KEY_ENV;
  const read = readSecret(env, name);
  if (read !== undefined && 'problem' in read) throw new GatewayConfigurationError([`jobs.webhooks.masterKeyEnv: ${read.problem}`]);
  if (read !== undefined && read.value.length < 32) throw new GatewayConfigurationError([`jobs.webhooks.masterKeyEnv: ${name} must hold at least 32 characters`]);
  const masterKey = read?.value ?? generatedMasterKey;
  const polling = jobs?.polling;
  const webhooks = jobs?.webhooks;
  // Absent settings are left out (the workers' defaults apply): exact optional properties never hold `undefined`.
  const defined = <T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
    Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
  return defined({
    webhookMasterKey: masterKey === undefined ? undefined : new TextEncoder().encode(masterKey),
    allowLoopbackCallbacks: webhooks?.allowLoopback,
    plans: polling?.plans === undefined ? undefined : Object.fromEntries(Object.entries(polling.plans).map(([family, plan]) => [family, defined(plan)])),
    maxConcurrent: polling?.maxConcurrent,
    maxConcurrentPerTarget: polling?.maxConcurrentPerTarget,
    leaseMs: polling?.leaseMs,
    claimIntervalMs: polling?.claimIntervalMs,
    pollTimeoutMs: polling?.pollTimeoutMs,
    freshnessMs: jobs?.freshnessMs,
    media:
      jobs?.media === undefined
        ? undefined
        : {
            store: createDirectoryJobMediaStore(resolve(jobs.media.directory ?? join(dataDir, 'media'))),
            maxBytes: jobs.media.maxBytes ?? 256 * 1024 * 1024,
            timeoutMs: jobs.media.timeoutMs ?? 120_000,
            allowLoopback: jobs.media.allowLoopback ?? false,
            ...(jobs.media.trustedCertificatesFile === undefined ? {} : { trustedCertificates: [readFileSync(jobs.media.trustedCertificatesFile, 'utf8')] }),
          },
    webhookDelivery: webhooks === undefined ? undefined : defined({ retryDelaysMs: webhooks.retryDelaysMs, timeoutMs: webhooks.timeoutMs, maxConcurrent: webhooks.maxConcurrent }),
  });
}

/**
 * A webhook event's `data`: the job as `GET /v2/jobs/{id}` shows it to its owner, with a freshly signed handle (the
 * client's id for the job) valid for `handleTtlSeconds`.
 */
export function webhookEventData(job: TrackedJobV1, signingKey: Uint8Array | undefined, handleTtlSeconds: number, nowMs: number): unknown {
  if (signingKey === undefined) return { object: 'job', model: job.publicModel, status: job.state };
  const handle = signJobHandle({ kind: 'job', target: job.targetRef, providerJobId: job.providerJobId, client: job.tenantId, expiresAt: Math.floor(nowMs / 1000) + handleTtlSeconds }, signingKey);
  const { deliveries: _deliveries, ...view } = trackedJobViewV2(job, handle, ownerPrefix(job.tenantId, signingKey));
  return view;
}
