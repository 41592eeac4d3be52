import { ASYNC_JOB_STATES_V2, PROVIDER_FAILURE_CODES_V1, usageV1Schema, utcTimestampSchema, videoGenerationTaskV2Schema } from '@tokenforge/model-protocol';
import { z } from 'zod';

/** A client idempotency key: 1 to 100 letters, digits, `.`, `_`, `:` or `-`. */
const clientIdempotencyKeySchema = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, 'idempotencyKey must be 1 to 100 characters of letters, digits, . _ : -');

/** A signed job handle `tfj1.<payload>.<signature>` (base64url parts). */
const jobHandleSchema = z.string().regex(/^tfj1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

const { kind: _kind, idempotencyKey: _key, ...videoFields } = videoGenerationTaskV2Schema.shape;

/**
 * `POST /v1/jobs`: the public model name, an optional idempotency key and the task fields of the model's task
 * kind (video generation: the engine's video task without its `kind`). Unknown fields are refused.
 */
export const gatewayJobCreateRequestV1Schema = z
  .strictObject({
    /** The public model name from the catalogue; it must have an async target. */
    model: z.string().min(1).max(256),
    /** Your key for this submission; the gateway generates one when absent and answers it back. */
    idempotencyKey: clientIdempotencyKeySchema.optional(),
    ...videoFields,
  })
  .refine((body) => body.prompt !== undefined || body.image !== undefined, { message: 'a video job needs a prompt or an image', path: ['prompt'] });
export type GatewayJobCreateRequestV1 = z.input<typeof gatewayJobCreateRequestV1Schema>;

/** One produced asset of a finished job. */
export const gatewayJobMediaV1Schema = z.strictObject({
  /** What the asset is. */
  type: z.enum(['video', 'image']),
  /** The provider's https URL of the asset. */
  url: z.string().min(1).max(8192),
  /** Duration in seconds (videos), when the provider says. */
  durationSeconds: z.number().nonnegative().optional(),
});
export type GatewayJobMediaV1 = z.infer<typeof gatewayJobMediaV1Schema>;

/** The job resource: the answer of create (202) and get (200), and each item of a list. */
export const gatewayJobV1Schema = z.strictObject({
  /** The signed, self-contained job handle; pass it to get and cancel. */
  id: jobHandleSchema,
  /** Always `job`. */
  object: z.literal('job'),
  /** The public model name the job was created for. */
  model: z.string().min(1),
  /** The normalized state; `succeeded`, `failed` and `cancelled` are final, the others keep polling. */
  status: z.enum(ASYNC_JOB_STATES_V2),
  /** Progress from 0 to 1, when the provider reports it. */
  progress: z.number().min(0).max(1).optional(),
  /** When the job was created (UTC). */
  createdAt: utcTimestampSchema.optional(),
  /** When the provider last changed the job (UTC). */
  updatedAt: utcTimestampSchema.optional(),
  /** When the job reached a final state (UTC). */
  finishedAt: utcTimestampSchema.optional(),
  /** Your idempotency key (or the generated one), when the provider echoes it. */
  idempotencyKey: clientIdempotencyKeySchema.optional(),
  /** The produced media, once the job succeeded. */
  media: z.array(gatewayJobMediaV1Schema).optional(),
  /** Why the job failed (status `failed`): a stable provider failure code, never the provider's text. */
  failure: z.strictObject({ /** The normalized failure code. */ code: z.enum(PROVIDER_FAILURE_CODES_V1) }).optional(),
  /** Usage, when the provider reports it (the engine's usage shape, version 1). */
  usage: usageV1Schema.optional(),
});
export type GatewayJobV1 = z.infer<typeof gatewayJobV1Schema>;

/** `POST /v1/jobs/{id}/cancel` (200): the provider took the cancel request; get the job to see its state. */
export const gatewayJobCancelV1Schema = z.strictObject({
  /** The job handle that was cancelled. */
  id: jobHandleSchema,
  /** Always `job`. */
  object: z.literal('job'),
  /** The public model name of the job. */
  model: z.string().min(1),
  /** Always `true`: the provider accepted the request (the job may still finish first). */
  cancelRequested: z.literal(true),
});
export type GatewayJobCancelV1 = z.infer<typeof gatewayJobCancelV1Schema>;

/** `GET /v1/jobs?model=NAME` or `GET /v1/jobs?recover=TOKEN` (200). */
export const gatewayJobListV1Schema = z.strictObject({
  /** Always `list`. */
  object: z.literal('list'),
  /** The caller's jobs (or the recovered window's), newest first as the provider lists them. */
  data: z.array(gatewayJobV1Schema),
});
export type GatewayJobListV1 = z.infer<typeof gatewayJobListV1Schema>;

/** The gateway's own error codes of the jobs API. */
export const GATEWAY_JOB_ERROR_CODES_V1 = [
  'invalid-client-key',
  'jobs-disabled',
  'body-too-large',
  'malformed-json',
  'invalid-request',
  'model-not-found',
  'invalid-job-id',
  'job-id-expired',
  'job-not-found',
  'cancel-unsupported',
  'recovery-unsupported',
  'job-acceptance-unknown',
  'no-target-accepted',
  'provider-error',
  // Governance: the tenant's limits (see the gateway README, "Tenants, limits and spend").
  'tenant-rate-limit',
  'tenant-token-limit',
  'tenant-concurrency-limit',
  'tenant-budget-exhausted',
  'governance-unavailable',
] as const;

/** Every `error.code` the jobs API answers: its own codes, and the provider failure code of a refused create. */
export const gatewayJobErrorCodeV1Schema = z.enum([...new Set([...GATEWAY_JOB_ERROR_CODES_V1, ...PROVIDER_FAILURE_CODES_V1])] as [string, ...string[]]);
export type GatewayJobErrorCodeV1 = (typeof GATEWAY_JOB_ERROR_CODES_V1)[number] | (typeof PROVIDER_FAILURE_CODES_V1)[number];

/** What is wrong with one field of a request, by a stable reason. */
export const GATEWAY_JOB_ISSUE_REASONS_V1 = ['missing', 'wrong-type', 'unknown-field', 'out-of-range', 'invalid-format', 'invalid-value'] as const;
export type GatewayJobIssueReasonV1 = (typeof GATEWAY_JOB_ISSUE_REASONS_V1)[number];

/** One problem of an `invalid-request`. */
export const gatewayJobIssueV1Schema = z.strictObject({
  /** The field, as a dotted path from the body (or the query parameter); empty for the body itself. */
  path: z.string(),
  /** Why the field is refused. */
  reason: z.enum(GATEWAY_JOB_ISSUE_REASONS_V1),
  /** A short human explanation; never echoes the value. */
  message: z.string().min(1),
});
export type GatewayJobIssueV1 = z.infer<typeof gatewayJobIssueV1Schema>;

/** The error envelope of every jobs API refusal: `{ error: { code, message, ... } }`. */
export const gatewayJobErrorV1Schema = z.strictObject({
  /** The refusal. */
  error: z.strictObject({
    /** A stable code (see {@link GATEWAY_JOB_ERROR_CODES_V1}, or a provider failure code for a refused create). */
    code: gatewayJobErrorCodeV1Schema,
    /** A short human explanation; never a prompt, a key or a provider id. */
    message: z.string().min(1),
    /** `invalid-request`: the path of the first problem (the same as `issues[0].path`). */
    path: z.string().optional(),
    /** `invalid-request`: every problem of the request, each with its path. */
    issues: z.array(gatewayJobIssueV1Schema).min(1).optional(),
    /** `job-acceptance-unknown`: the idempotency key of the submission that may exist. */
    idempotencyKey: clientIdempotencyKeySchema.optional(),
    /** `job-acceptance-unknown`: the submission window to look in (UTC). */
    submittedWindow: z.strictObject({ /** Window start (UTC). */ from: utcTimestampSchema, /** Window end (UTC). */ to: utcTimestampSchema }).optional(),
    /** `job-acceptance-unknown`: a signed token for `GET /v1/jobs?recover=TOKEN` that lists the window. */
    recover: jobHandleSchema.optional(),
  }),
});
export type GatewayJobErrorV1 = z.infer<typeof gatewayJobErrorV1Schema>;

const REASONS: Record<string, GatewayJobIssueReasonV1> = {
  invalid_type: 'wrong-type',
  too_small: 'out-of-range',
  too_big: 'out-of-range',
  not_multiple_of: 'out-of-range',
  invalid_format: 'invalid-format',
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/**
 * Every problem of a failed parse of `input`, one per field, in the envelope's issue shape (unknown keys one by
 * one, absent required fields as `missing`).
 */
export function gatewayJobIssuesOf(error: z.ZodError, input: unknown): GatewayJobIssueV1[] {
  const issues: GatewayJobIssueV1[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ path: [...path, key].join('.'), reason: 'unknown-field', message: 'This field is not part of the request.' });
    } else if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
      issues.push({ path: path.join('.'), reason: 'missing', message: 'This field is required.' });
    } else {
      issues.push({ path: path.join('.'), reason: REASONS[issue.code] ?? 'invalid-value', message: issue.message });
    }
  }
  return issues;
}
