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

/** `GET /admin/v1/tenants` (200). */
export const adminTenantListV1Schema = z.strictObject({ tenants: z.array(adminTenantV1Schema) });
/** `GET /admin/v1/keys` (200). */
export const adminKeyListV1Schema = z.strictObject({ keys: z.array(adminKeyV1Schema) });

const holderUse = {
  /** Requests admitted in the last minute (0 while the holder has no requests limit). */
  requestsLastMinute: z.number().int().nonnegative(),
  /** Tokens reserved or used in the last minute (0 while the holder has no tokens limit). */
  tokensLastMinute: z.number().nonnegative(),
  /** Requests in flight now. */
  inFlight: z.number().int().nonnegative(),
};

/** `GET /admin/v1/tenants/{id}/limit-use` (200): the current use of a tenant's limits and its keys'. */
export const adminLimitUseV1Schema = z.strictObject({
  tenantId: z.string(),
  ...holderUse,
  /** Spent in the current budget period, in millionths of the budget's currency. */
  budgetSpentMicros: z.number().nonnegative(),
  /** Reserved by requests in flight in the current budget period. */
  budgetReservedMicros: z.number().nonnegative(),
  keys: z.array(z.strictObject({ keyId: z.string(), ...holderUse })),
});

/** One group of `GET /admin/v1/spend`: the dimensions grouped by, then the sums. */
export const adminSpendGroupV1Schema = z.strictObject({
  tenantId: z.string().optional(),
  keyId: z.string().optional(),
  publicModel: z.string().optional(),
  /** UTC day `YYYY-MM-DD`. */
  day: z.string().optional(),
  currency: z.string(),
  /** Charged, in millionths of `currency`. */
  costMicros: z.number(),
  /** Settled attempts. */
  attempts: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
});
/** `GET /admin/v1/spend` (200). */
export const adminSpendV1Schema = z.strictObject({ groups: z.array(adminSpendGroupV1Schema) });

/** One attempt of a request record: never a prompt, an output, a key or a provider's error body. */
export const adminRequestAttemptV1Schema = z.strictObject({
  /** The catalogue target (`<model>#<index>`). */
  targetRef: z.string(),
  provider: z.string(),
  /** `ok`, a normalized failure code, or an engine error code. */
  outcome: z.string(),
  /** 1 for the first attempt, then 2, 3... (absent in records written before it existed, as the fields below). */
  attempt: z.number().int().positive().optional(),
  /** The target's protocol family. */
  family: z.string().optional(),
  /** Why a failed attempt failed, for operators (the codec rule and where, the transport stage and reason, the wait asked for). */
  diagnostic: z.string().optional(),
  /** Epoch milliseconds. */
  startedAtMs: z.number().optional(),
  /** From the attempt's start to the first byte sent to the client. */
  timeToFirstByteMs: z.number().optional(),
  /** From the attempt's start to its end (a stream's end for a streamed answer). */
  durationMs: z.number().optional(),
});

/** One request record of `GET /admin/v1/requests`: the operator log line's facts. */
export const adminRequestRecordV1Schema = z.strictObject({
  requestId: z.string(),
  tenantId: z.string().optional(),
  keyId: z.string().optional(),
  route: z.string(),
  publicModel: z.string().optional(),
  status: z.number().int(),
  /** `completed`, `failed:<code>`, `refused:<code>`, `cancelled`, ... */
  outcome: z.string(),
  attempts: z.array(adminRequestAttemptV1Schema),
  totalMs: z.number(),
  timeToFirstByteMs: z.number().optional(),
  /** Epoch milliseconds. */
  atMs: z.number(),
});
/** `GET /admin/v1/requests` (200), newest first. */
export const adminRequestListV1Schema = z.strictObject({ requests: z.array(adminRequestRecordV1Schema) });
/** `GET /admin/v1/requests/{requestId}` (200; 404 `not-found` when unknown or past its retention). */
export const adminRequestV1Schema = z.strictObject({ request: adminRequestRecordV1Schema });

/** One tracked async job of `GET /admin/v1/jobs` (the fields the console reads; the answer has more). */
export const adminTrackedJobV1Schema = z.object({
  tenantId: z.string(),
  keyId: z.string(),
  publicModel: z.string(),
  targetRef: z.string(),
  providerJobId: z.string(),
  reservedMicros: z.number(),
  currency: z.string(),
  createdAtMs: z.number(),
  /** `queued`, `running`, `succeeded`, `failed`, `cancelled`, `unknown`. */
  state: z.string(),
  /** Set once the terminal state was settled. */
  settledAtMs: z.number().optional(),
});
/** `GET /admin/v1/jobs` (200). */
export const adminJobListV1Schema = z.object({ jobs: z.array(adminTrackedJobV1Schema) });

/** One target of `GET /admin/v1/targets`: catalogue facts, then (where routing runs) this instance's view of it. */
export const adminTargetV1Schema = z.strictObject({
  ref: z.string(),
  provider: z.string(),
  family: z.string(),
  execution: z.string().optional(),
  priceVersion: z.string().optional(),
  /** `healthy`, `cooling-down` or `probing`. */
  state: z.enum(['healthy', 'cooling-down', 'probing']).optional(),
  /** Failures of the cooldown's classes in its window. */
  recentFailures: z.number().int().nonnegative().optional(),
  cooldownRemainingMs: z.number().nonnegative().optional(),
  /** Attempts this instance has in flight at the target. */
  inFlight: z.number().int().nonnegative().optional(),
  latencyEwmaMs: z.number().optional(),
  /** The last 5 minutes in this instance: attempts, error rate (0 to 1), latency percentiles of the answered ones (ms). */
  recent: z
    .strictObject({
      attempts: z.number().int().nonnegative(),
      errorRate: z.number().min(0).max(1),
      latencyP50Ms: z.number().optional(),
      latencyP90Ms: z.number().optional(),
      latencyP99Ms: z.number().optional(),
    })
    .optional(),
  /** This instance's upstream connection pool for the target: its size, connections in use, requests waiting. */
  pool: z.strictObject({ connections: z.number().int(), inUse: z.number().int().nonnegative(), waiting: z.number().int().nonnegative() }).optional(),
});
/** `GET /admin/v1/targets` (200): labelled with the instance (`<hostname>:<pid>`) it came from. */
export const adminTargetsV1Schema = z.strictObject({ instance: z.string(), targets: z.array(adminTargetV1Schema) });

export type AdminBudgetV1 = z.infer<typeof adminBudgetV1Schema>;
export type AdminTenantV1 = z.infer<typeof adminTenantV1Schema>;
export type AdminKeyV1 = z.infer<typeof adminKeyV1Schema>;
export type AdminKeyCreatedV1 = z.infer<typeof adminKeyCreatedV1Schema>;
export type AdminErrorV1 = z.infer<typeof adminErrorV1Schema>;
export type AdminLimitUseV1 = z.infer<typeof adminLimitUseV1Schema>;
export type AdminSpendGroupV1 = z.infer<typeof adminSpendGroupV1Schema>;
export type AdminRequestAttemptV1 = z.infer<typeof adminRequestAttemptV1Schema>;
export type AdminRequestRecordV1 = z.infer<typeof adminRequestRecordV1Schema>;
export type AdminTrackedJobV1 = z.infer<typeof adminTrackedJobV1Schema>;
export type AdminTargetV1 = z.infer<typeof adminTargetV1Schema>;
export type AdminTargetsV1 = z.infer<typeof adminTargetsV1Schema>;
