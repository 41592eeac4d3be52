import { ASYNC_JOB_STATES_V2, PROVIDER_FAILURE_CODES_V1, type ProviderFailureCodeV1 } from '@tokenforge/model-protocol';
import type { TrackedJobDeliveryV1, TrackedJobV1 } from '../governance/v1/governance-store-v1.js';
import type { GatewayJobV1 } from './gateway-jobs-api-v1.js';
import type { GatewayJobDeliveryV2, GatewayJobV2 } from './gateway-jobs-api-v2.js';

/** An instant as the jobs API writes it (UTC, whole seconds). */
export const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const status = (state: string): GatewayJobV1['status'] => ((ASYNC_JOB_STATES_V2 as readonly string[]).includes(state) ? (state as GatewayJobV1['status']) : 'unknown');

/** One delivery log entry as the jobs API v2 shows it. */
export function deliveryViewV2(delivery: TrackedJobDeliveryV1): GatewayJobDeliveryV2 {
  return {
    eventId: delivery.eventId,
    status: status(delivery.state),
    attempt: delivery.attempt,
    at: isoSeconds(delivery.atMs),
    outcome: delivery.outcome,
    ...(delivery.status === undefined ? {} : { httpStatus: delivery.status }),
    ...(delivery.reason === undefined ? {} : { reason: delivery.reason.slice(0, 32) }),
  };
}

/**
 * A tracked job's row as the jobs API v2 shows it to its owner: `handle` is its signed id, `prefix` the owner tag
 * of its idempotency key (taken off); a result with a copy in the media store gets its `gatewayUrl`.
 */
export function trackedJobViewV2(job: TrackedJobV1, handle: string, prefix: string): GatewayJobV2 {
  const terminal = job.terminal;
  const failureCode = terminal?.failureCode;
  return {
    id: handle,
    object: 'job',
    model: job.publicModel,
    status: status(job.state),
    ...(job.progress === undefined ? {} : { progress: job.progress }),
    createdAt: isoSeconds(job.createdAtMs),
    ...(terminal === undefined ? {} : { finishedAt: isoSeconds(terminal.finishedAtMs) }),
    ...(job.idempotencyKey?.startsWith(prefix) === true ? { idempotencyKey: job.idempotencyKey.slice(prefix.length) } : {}),
    ...(terminal?.media === undefined
      ? {}
      : {
          media: terminal.media.map((item, index) => ({
            type: item.type,
            url: item.url,
            ...(item.durationSeconds === undefined ? {} : { durationSeconds: item.durationSeconds }),
            ...(item.expiresAtMs === undefined ? {} : { expiresAt: isoSeconds(item.expiresAtMs) }),
            ...(item.storedKey === undefined ? {} : { gatewayUrl: `/v2/jobs/${handle}/media/${index}` }),
          })),
        }),
    ...(failureCode !== undefined && (PROVIDER_FAILURE_CODES_V1 as readonly string[]).includes(failureCode) ? { failure: { code: failureCode as ProviderFailureCodeV1 } } : {}),
    ...(terminal?.usage === undefined ? {} : { usage: terminal.usage }),
    ...(job.lastObservedAtMs === undefined ? {} : { observedAt: isoSeconds(job.lastObservedAtMs) }),
    ...(job.callbackUrl === undefined ? {} : { callbackUrl: job.callbackUrl }),
    ...(job.deliveries === undefined || job.deliveries.length === 0 ? {} : { deliveries: job.deliveries.map(deliveryViewV2) }),
  };
}

/** The same job as the jobs API v1 shows it: version 2's fields taken off. */
export function trackedJobViewV1(job: TrackedJobV1, handle: string, prefix: string): GatewayJobV1 {
  const { observedAt: _observedAt, callbackUrl: _callbackUrl, deliveries: _deliveries, media, ...rest } = trackedJobViewV2(job, handle, prefix);
  return { ...rest, ...(media === undefined ? {} : { media: media.map(({ expiresAt: _expiresAt, gatewayUrl: _gatewayUrl, ...item }) => item) }) };
}
