import { ASYNC_JOB_STATES_V2, utcTimestampSchema } from '@tokenforge/model-protocol';
import { z } from 'zod';
import { gatewayJobCreateRequestV1Schema, gatewayJobMediaV1Schema, gatewayJobV1Schema } from './gateway-jobs-api-v1.js';

/**
 * Version 2 of the jobs API: what version 1 says, plus what the gateway now keeps about each job (tracked jobs):
 * a callback URL on create, result URL expiry, when the gateway last heard the provider, the webhook delivery log,
 * and list filters answered from the store. Every v1 body is a valid v2 body except where v2 adds a field.
 */

/** `POST /v2/jobs`: version 1's body plus an optional callback URL. */
export const gatewayJobCreateRequestV2Schema = gatewayJobCreateRequestV1Schema.safeExtend({
  /**
   * Where signed state-change events of this job are POSTed (Standard Webhooks). `https:` only, or `http:`/`https:`
   * to loopback where the operator allows it; never a private, link-local or metadata address; redirects are not
   * followed.
   */
  callbackUrl: z.string().min(1).max(2048).optional(),
});
export type GatewayJobCreateRequestV2 = z.input<typeof gatewayJobCreateRequestV2Schema>;

/** One produced asset, version 2: with the instant the provider's URL stops working, where the provider states it. */
export const gatewayJobMediaV2Schema = gatewayJobMediaV1Schema.extend({
  /** When the provider's URL expires (UTC): Kling keeps results 30 days, DashScope about 24 hours. */
  expiresAt: utcTimestampSchema.optional(),
  /**
   * The gateway's copy (`jobs.media`), a path on this gateway: `GET` it with your key; it works after the provider's
   * URL expired.
   */
  gatewayUrl: z.string().regex(/^\/v2\/jobs\/[^/]+\/media\/\d+$/).optional(),
});
export type GatewayJobMediaV2 = z.infer<typeof gatewayJobMediaV2Schema>;

/** One webhook delivery attempt, as the job's owner sees it. */
export const gatewayJobDeliveryV2Schema = z.strictObject({
  /** The event id (`webhook-id` header): the same for every retry of one event. */
  eventId: z.string().min(1).max(64),
  /** The job status the event announced. */
  status: z.enum(ASYNC_JOB_STATES_V2),
  /** 1 for the first try of an event, then 2, 3... */
  attempt: z.number().int().nonnegative(),
  /** When the attempt ended (UTC). */
  at: utcTimestampSchema,
  /** `delivered` (2xx), `failed` (retried), `abandoned` (retries exhausted, or the receiver's address was refused). */
  outcome: z.enum(['delivered', 'failed', 'abandoned']),
  /** The receiver's HTTP status, when it answered. */
  httpStatus: z.number().int().min(100).max(599).optional(),
  /** Why it failed without a 2xx: `timeout`, `connection`, `redirect`, `address-policy`, `queue-full`, `shutdown`. */
  reason: z.string().min(1).max(32).optional(),
});
export type GatewayJobDeliveryV2 = z.infer<typeof gatewayJobDeliveryV2Schema>;

/** The job resource, version 2. */
export const gatewayJobV2Schema = gatewayJobV1Schema.extend({
  /** The produced media, once the job succeeded, with their expiry. */
  media: z.array(gatewayJobMediaV2Schema).optional(),
  /** When the gateway last heard the provider about this job (UTC); the answer may be this old. */
  observedAt: utcTimestampSchema.optional(),
  /** The callback URL given at create. */
  callbackUrl: z.string().min(1).max(2048).optional(),
  /** The newest webhook delivery attempts of this job, oldest first (at most 20). */
  deliveries: z.array(gatewayJobDeliveryV2Schema).optional(),
});
export type GatewayJobV2 = z.infer<typeof gatewayJobV2Schema>;

/** `GET /v2/jobs` filters: answered from the store, the caller's tenant only. */
export const gatewayJobListQueryV2Schema = z.strictObject({
  /** Only jobs of this public model. */
  model: z.string().min(1).max(256).optional(),
  /** Only jobs in this status. */
  status: z.enum(ASYNC_JOB_STATES_V2).optional(),
  /** Only jobs created at or after this instant (UTC). */
  createdAfter: utcTimestampSchema.optional(),
  /** Only jobs created before this instant (UTC). */
  createdBefore: utcTimestampSchema.optional(),
  /** At most this many jobs, newest first (default 50, at most 500). */
  limit: z.coerce.number().int().min(1).max(500).optional(),
  /** The `nextCursor` of the previous page: the jobs after it. */
  cursor: z.string().regex(/^[A-Za-z0-9_-]{1,1024}$/).optional(),
});
export type GatewayJobListQueryV2 = z.infer<typeof gatewayJobListQueryV2Schema>;

/** `GET /v2/jobs` (200). */
export const gatewayJobListV2Schema = z.strictObject({
  /** Always `list`. */
  object: z.literal('list'),
  /** The caller's jobs, newest first. */
  data: z.array(gatewayJobV2Schema),
  /** Present when more jobs may follow: pass it as `cursor` for the next page. */
  nextCursor: z.string().min(1).optional(),
});
export type GatewayJobListV2 = z.infer<typeof gatewayJobListV2Schema>;
