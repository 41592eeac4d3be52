import { z } from 'zod';
import { jobMediaV2Schema } from '../../result/v1/task-result-v1.js';
import { normalizedProviderFailureV1Schema } from '../../outcome/v1/provider-failure-v1.js';
import { usageV1Schema } from '../../usage/v1/usage-v1.js';

/** Normalized job states. `succeeded`, `failed` and `cancelled` are terminal; `unknown` keeps polling. */
export const ASYNC_JOB_STATES_V2 = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'unknown'] as const;
export type AsyncJobStateV2 = (typeof ASYNC_JOB_STATES_V2)[number];

/** ISO 8601 instant in UTC with a `Z` suffix, for example `2026-11-29T03:00:00.000Z`. */
export const utcTimestampSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/);

/** Provider job id: an opaque string, never parsed as a number. */
export const providerJobIdSchema = z.string().min(1).max(256).regex(/^[\x21-\x7e]+$/);

/** What a provider says about one async job at one moment. */
export const providerAsyncJobSnapshotV2Schema = z.strictObject({
  /** The provider's job id (opaque string). */
  providerJobId: providerJobIdSchema,
  /** The normalized state. */
  state: z.enum(ASYNC_JOB_STATES_V2),
  /** The provider's raw status, bounded, for diagnosis. */
  rawState: z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/).optional(),
  /** When the provider created the job (UTC). */
  createdAt: utcTimestampSchema.optional(),
  /** When the provider last changed the job (UTC). */
  updatedAt: utcTimestampSchema.optional(),
  /** When the job reached a terminal state (UTC). */
  finishedAt: utcTimestampSchema.optional(),
  /** Progress from 0 to 1, when the provider reports it. */
  progress: z.number().min(0).max(1).optional(),
  /** The host's idempotency key, when the provider echoes it. */
  idempotencyKey: z.string().min(1).max(128).optional(),
  /** Produced media, when the job succeeded (or partly succeeded). */
  media: z.array(jobMediaV2Schema).optional(),
  /** Partial success: how many requested outputs succeeded and failed, when the provider says. */
  outputCounts: z.strictObject({ succeeded: z.number().int().nonnegative(), failed: z.number().int().nonnegative() }).optional(),
  /** Why the job failed (state `failed`). */
  failure: normalizedProviderFailureV1Schema.optional(),
  /** Usage, when reported. */
  usage: usageV1Schema.optional(),
});
export type ProviderAsyncJobSnapshotV2 = z.infer<typeof providerAsyncJobSnapshotV2Schema>;

/** Which page of a provider's job list to read, and an optional creation-time window. */
export const providerAsyncJobListInputV2Schema = z.strictObject({
  /** 1-based page number. */
  pageNum: z.number().int().min(1).max(100_000),
  /** Items per page, 1 to 500 (adapters clamp to what their provider allows and say so). */
  pageSize: z.number().int().min(1).max(500),
  /** Only jobs created at or after this instant (UTC). */
  createdAfter: utcTimestampSchema.optional(),
  /** Only jobs created before this instant (UTC). */
  createdBefore: utcTimestampSchema.optional(),
});
export type ProviderAsyncJobListInputV2 = z.infer<typeof providerAsyncJobListInputV2Schema>;

/** A page of a provider's job list as an adapter returns it. */
export const providerAsyncJobListPageV2Schema = z.strictObject({
  /** The jobs on this page (after the adapter applied any window the provider cannot filter). */
  items: z.array(providerAsyncJobSnapshotV2Schema),
  /** The provider's total, or, where it reports none, the number of items through this page. */
  total: z.number().int().nonnegative(),
  /** `exact` when the provider reported the total; `lower-bound` when the adapter counted it. */
  totalKind: z.enum(['exact', 'lower-bound']),
  /** Pages a full reconciliation of the window needs at this page size, when known. */
  pagesForWindow: z.number().int().nonnegative().optional(),
});
export type ProviderAsyncJobListPageV2 = z.infer<typeof providerAsyncJobListPageV2Schema>;
