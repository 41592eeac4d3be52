import { z } from 'zod';

const identifier = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1 to 64 characters of letters, digits, . _ -');
const count = z.number().int().positive().max(1_000_000_000);

/** Public model names or `*` patterns (`*` alone, or a prefix ending in `*`). */
const modelAccess = z.array(z.string().regex(/^(?:\*|[A-Za-z0-9][A-Za-z0-9._-]{0,127}\*?)$/, 'a model name, `*`, or a prefix ending in `*`')).max(256);

/** A budget: at most `amountMicros` of `currency` per `period`. */
export const adminBudgetV1Schema = z.strictObject({
  /** The most spent per period, in millionths of the currency unit (1 USD = 1000000). */
  amountMicros: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  /** ISO 4217 code, upper case (`USD`): only prices in this currency count against it. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** `day` and `month` reset at 00:00 UTC; `total` never resets. */
  period: z.enum(['day', 'month', 'total']),
});

/** Limits of a tenant or a key; an absent limit does not apply. */
export const adminLimitsV1Schema = z.strictObject({
  /** Requests admitted per rolling minute. */
  requestsPerMinute: count.optional(),
  /** Input plus output tokens per rolling minute (reserved at admission, corrected at settlement). */
  tokensPerMinute: count.optional(),
  /** Requests in flight at once. */
  concurrentRequests: count.optional(),
  /** Spend per period. */
  budget: adminBudgetV1Schema.optional(),
});

/** `POST /admin/v1/tenants`. */
export const adminTenantCreateV1Schema = z.strictObject({
  /** Stable id (letters, digits, `.`, `_`, `-`). */
  id: identifier,
  /** Display name. */
  name: z.string().min(1).max(256),
  /** Models the tenant may use (default `["*"]`: all). */
  modelAccess: modelAccess.optional(),
  /** Limits (default none). */
  limits: adminLimitsV1Schema.optional(),
  /** A disabled tenant's keys are refused (default `false`). */
  disabled: z.boolean().optional(),
});

/** `PATCH /admin/v1/tenants/{id}`: the fields to change. */
export const adminTenantUpdateV1Schema = z.strictObject({
  name: z.string().min(1).max(256).optional(),
  modelAccess: modelAccess.optional(),
  /** Replaces the tenant's limits as a whole. */
  limits: adminLimitsV1Schema.optional(),
  disabled: z.boolean().optional(),
});

/** `POST /admin/v1/keys`. */
export const adminKeyCreateV1Schema = z.strictObject({
  /** The tenant the key belongs to. */
  tenantId: identifier,
  /** Narrows the tenant's model access (never widens it). */
  modelAccess: modelAccess.optional(),
  /** Limits held in addition to the tenant's. */
  limits: adminLimitsV1Schema.optional(),
  /** Epoch milliseconds after which the key is refused. */
  expiresAtMs: z.number().int().positive().optional(),
});

/** `PATCH /admin/v1/keys/{id}`. */
export const adminKeyUpdateV1Schema = z.strictObject({
  modelAccess: modelAccess.optional(),
  limits: adminLimitsV1Schema.optional(),
  expiresAtMs: z.number().int().positive().optional(),
});

/** A tenant as the admin API shows it. */
export const adminTenantV1Schema = z.strictObject({
  id: z.string(),
  name: z.string(),
  modelAccess: z.array(z.string()),
  limits: adminLimitsV1Schema,
  /** Epoch milliseconds. */
  createdAtMs: z.number().int(),
  disabled: z.boolean(),
});

/** A key as the admin API shows it: never the key, never its digest. */
export const adminKeyV1Schema = z.strictObject({
  id: z.string(),
  tenantId: z.string(),
  /** The first characters of the key (`tf-3a9C`). */
  displayPrefix: z.string(),
  createdAtMs: z.number().int(),
  expiresAtMs: z.number().int().optional(),
  revokedAtMs: z.number().int().optional(),
  modelAccess: z.array(z.string()).optional(),
  limits: adminLimitsV1Schema.optional(),
});

/** The answer of a change: the governance version it created and the changed resource. */
export const adminTenantChangeV1Schema = z.strictObject({ version: z.number().int(), tenant: adminTenantV1Schema });
export const adminKeyChangeV1Schema = z.strictObject({ version: z.number().int(), key: adminKeyV1Schema });

/** `POST /admin/v1/keys` (201): the key itself, shown this once and never again. */
export const adminKeyCreatedV1Schema = z.strictObject({
  version: z.number().int(),
  key: adminKeyV1Schema,
  /** The API key (`tf-` and 43 base62 characters). Store it now: only its keyed digest is kept. */
  apiKey: z.string(),
});

/** `GET /admin/v1/tenants/{id}/webhook-secret`: the secret a tenant's receivers verify webhook signatures with. */
export const adminWebhookSecretV1Schema = z.strictObject({
  tenantId: z.string(),
  /**
   * `whsec_` and the base64 key (Standard Webhooks): derived from the gateway's webhook master key and the tenant id,
   * so every instance signs with it and rotating the master key rotates it.
   */
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/),
});

/** One webhook delivery attempt of a tracked job (`GET /admin/v1/jobs/deliveries`). */
export const adminJobDeliveryV1Schema = z.strictObject({
  /** The event id (`webhook-id`): the same for every retry and replay of one event. */
  eventId: z.string(),
  /** The job state the event announced. */
  state: z.string(),
  /** 1 for the first try of an event, then 2, 3... (0: refused before any try, as when the queue was full). */
  attempt: z.number().int().nonnegative(),
  /** When the attempt ended (epoch milliseconds). */
  atMs: z.number().int(),
  /** `delivered` (2xx), `failed` (retried), `abandoned` (retries exhausted, or refused by the address policy). */
  outcome: z.enum(['delivered', 'failed', 'abandoned']),
  /** The receiver's HTTP status, when it answered. */
  status: z.number().int().optional(),
  /** Why it failed without a 2xx: `timeout`, `connection`, `redirect`, `address-policy`, `queue-full`, `shutdown`. */
  reason: z.string().optional(),
});

/** `GET /admin/v1/jobs/deliveries?tenantId=&target=&providerJobId=` (200): the job's delivery log, oldest first. */
export const adminJobDeliveriesV1Schema = z.strictObject({
  /** The job's callback URL (absent: it has none). */
  callbackUrl: z.string().optional(),
  deliveries: z.array(adminJobDeliveryV1Schema),
});

/** `POST /admin/v1/jobs/replay`: which job's event to send again. */
export const adminJobReplayV1Schema = z.strictObject({
  tenantId: identifier,
  /** The catalogue target of the job (`<model>#<index>`, as `GET /admin/v1/jobs` shows it). */
  target: z.string().min(1).max(300),
  providerJobId: z.string().min(1).max(300),
  /** The event to send again (from the delivery log); absent: the event of the job's current state. */
  eventId: z.string().min(1).max(64).optional(),
});

/** `POST /admin/v1/jobs/replay` (202): the event queued for delivery; its attempts appear in the delivery log. */
export const adminJobReplayedV1Schema = z.strictObject({ eventId: z.string(), state: z.string() });

/** Every refusal of the admin API. */
export const adminErrorV1Schema = z.strictObject({
  error: z.strictObject({
    /**
     * `admin-unauthorized`, `csrf-token-invalid` (a console session's change without its token), `invalid-body`,
     * `not-found`, `conflict`, `governance-off`, `governance-unavailable`, `webhooks-off` (no webhook master key).
     */
    code: z.enum(['admin-unauthorized', 'csrf-token-invalid', 'invalid-body', 'not-found', 'conflict', 'governance-off', 'governance-unavailable', 'webhooks-off']),
    message: z.string(),
    /** For `invalid-body`: the paths of the refused fields. */
    fields: z.array(z.string()).optional(),
  }),
});

export type AdminTenantCreateV1 = z.infer<typeof adminTenantCreateV1Schema>;
export type AdminLimitsV1 = z.infer<typeof adminLimitsV1Schema>;
