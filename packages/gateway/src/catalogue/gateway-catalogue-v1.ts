import {
  embeddingSpaceV2Schema,
  HOSTED_TOOL_KINDS_V3,
  PROVIDER_FAILURE_CODES_V3,
  PROTOCOL_FAMILY_PATTERN,
  type ProtocolFamily,
  reasoningEffortV3Schema,
  structuredOutputSupportV3Schema,
  taskKindV2Schema,
  taskKindV3Schema,
} from '@tokenforge/model-protocol';
import { z } from 'zod';
import { priceTableV1Schema } from '../governance/v1/price-table-v1.js';
import { checkAliases } from '../routing/resolve-aliases.js';

/** An environment variable name: where a secret lives (the catalogue never holds one). */
const environmentVariableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be an environment variable name (letters, digits, _)')
  .describe('Name of an environment variable that holds the secret.');

const identifier = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1 to 64 characters of letters, digits, . _ -');

/** A positive whole number of milliseconds, at most a day. */
const milliseconds = z.number().int().positive().max(86_400_000);

// ---- Operations (metrics endpoint) and operator-tuned routing: cooldown, tiers and balancing, fallback, aliases ----

/** The Prometheus endpoint (`GET /metrics`), on a port of its own: never on the client port. */
export const gatewayMetricsV1Schema = z.strictObject({
  /** The port of the metrics endpoint (`0` picks a free one). */
  port: z.number().int().min(0).max(65_535),
  /** The interface it binds. Default `127.0.0.1`: only this machine's scraper reaches it. */
  host: z.string().min(1).max(255).optional(),
});

/**
 * Outlier ejection per target, in each process: a target that fails `failures` times within `windowMs` with a
 * failure of the listed classes is skipped for `cooldownMs` (while any other target remains), then one request
 * probes it; success makes it healthy again, failure starts another cooldown.
 */
export const gatewayCooldownV1Schema = z.strictObject({
  /** Failures within the window that start a cooldown (default 3). */
  failures: z.number().int().positive().max(1_000).optional(),
  /** The window failures are counted in, in milliseconds (default 10 s). */
  windowMs: milliseconds.optional(),
  /** How long the target is skipped, in milliseconds (default 30 s). */
  cooldownMs: milliseconds.optional(),
  /**
   * The failure classes that count, normalized failure codes (default `network`, `timeout`, `overloaded`,
   * `provider-error`: connect errors and resets, timeouts, 5xx). `network` also covers a refused or reset connection.
   */
  classes: z.array(z.enum(PROVIDER_FAILURE_CODES_V3)).min(1).optional(),
});

/** How a model picks among the targets of one tier. */
export const gatewayBalanceV1Schema = z.enum(['ordered', 'weighted', 'least-in-flight', 'latency']);

/** Routing of one model; without it, targets are tried in catalogue order as before. */
export const gatewayModelRoutingV1Schema = z.strictObject({
  /**
   * Within a tier (targets with the same `tier`, lowest first): `ordered` (catalogue order, the default),
   * `weighted` (random by `weight`), `least-in-flight` (fewest requests in flight in this process), `latency` (lowest
   * recent latency, an exponentially weighted mean; targets not yet measured first). The rest of the tier follows
   * in the same order for fallback, then the next tier.
   */
  balance: gatewayBalanceV1Schema.optional(),
  /** Outlier ejection for this model's targets (overrides the catalogue's `routing.cooldown`). */
  cooldown: gatewayCooldownV1Schema.optional(),
  /**
   * Failure codes that may fall back to the next target although they are not retryable (for example
   * `authentication` or `quota-exceeded` with several accounts). Default none: only retryable failures fall back.
   * Never after the first byte reached the client, never after a failure whose acceptance is not `not-accepted`.
   */
  fallbackOn: z.array(z.enum(PROVIDER_FAILURE_CODES_V3)).optional(),
});

/** Routing defaults for every model. */
export const gatewayRoutingV1Schema = z.strictObject({
  /** Outlier ejection for every target (a model's own `routing.cooldown` overrides it). Absent: no cooldown. */
  cooldown: gatewayCooldownV1Schema.optional(),
});

/**
 * Other public names of models: `{ "gpt-4o-mini": "chat-default" }` serves `gpt-4o-mini` with the targets of
 * `chat-default`. Resolved when the catalogue loads; an alias may point at another alias, a cycle is refused.
 */
export const gatewayAliasesV1Schema = z.record(
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be 1 to 128 characters of letters, digits, . _ -'),
  z.string().min(1).max(128),
);

/** A target's place in its model's routing. */
export const gatewayTargetRoutingV1Schema = z.strictObject({
  /** The tier (default 0): lower tiers first; fallback goes to the next tier once a tier is exhausted. */
  tier: z.number().int().min(0).max(15).optional(),
  /** The share of `weighted` balancing within the tier (default 1). */
  weight: z.number().positive().max(1_000).optional(),
});

const INLINE_SECRET_FIELDS: Readonly<Record<string, string>> = { apiKey: 'apiKeyEnv', accessKey: 'accessKeyEnv', secretKey: 'secretKeyEnv', key: 'apiKeyEnv' };

/** What is wrong with a credentials object, in catalogue terms (never echoing a value). */
function credentialsProblem(input: unknown): string {
  const fields = typeof input === 'object' && input !== null ? Object.keys(input) : [];
  const inline = fields.filter((field) => INLINE_SECRET_FIELDS[field] !== undefined);
  if (inline.length > 0) {
    return `a secret never lives in the catalogue: replace ${inline.map((field) => `\`${field}\``).join(', ')} with ${inline.map((field) => `\`${INLINE_SECRET_FIELDS[field]}: NAME\``).join(', ')} and put the secret in the environment variable NAME`;
  }
  return 'must be { apiKeyEnv: NAME } or { accessKeyEnv: NAME, secretKeyEnv: NAME }, naming the environment variables that hold the secrets';
}

/** Where a target's credentials come from. */
export const gatewayTargetCredentialsV1Schema = z.union(
  [
    /** One API key (bearer, `x-api-key` or `x-goog-api-key`, as the family's transport metadata says). */
    z.strictObject({ apiKeyEnv: environmentVariableName }),
    /** An access key and a secret key (Kling signs a short-lived JWT with them). */
    z.strictObject({ accessKeyEnv: environmentVariableName, secretKeyEnv: environmentVariableName }),
  ],
  { error: (issue) => credentialsProblem(issue.input) },
);

/** A protocol family id, refused with what to write instead (the bare pattern helps no one). */
const catalogueFamily = z
  .string()
  .max(64)
  .regex(PROTOCOL_FAMILY_PATTERN, {
    error: (issue) => {
      const given = typeof issue.input === 'string' ? issue.input : '';
      const bare = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(given);
      return `must be a protocol family with its major version, such as openai-chat/v1${bare ? ` (write ${given}/v1)` : ''}`;
    },
  }) as unknown as z.ZodType<ProtocolFamily>;

/**
 * Capability facts that override the family's defaults (see `FAMILY_CAPABILITY_DEFAULTS`): what the target's
 * model can do. The family and the execution mode come from the family.
 */
export const gatewayCapabilityOverridesV1Schema = z.strictObject({
  /**
   * Task kinds the target serves (default: the family's). `token-count` is opt-in per target: list it only when the
   * provider behind the target answers its family's counting endpoint (anthropic-messages, openai-responses and
   * gemini-generate-content have one); a target without it refuses counting, never estimates.
   */
  taskKinds: z.array(taskKindV3Schema).min(1).optional(),
  /** Function calling. */
  tools: z.boolean().optional(),
  /** Image parts in chat messages. */
  imageInput: z.boolean().optional(),
  /** Document parts in chat messages. */
  documentInput: z.boolean().optional(),
  /** Audio parts in chat messages. */
  audioInput: z.boolean().optional(),
  /** Reasoning effort or budget. */
  reasoning: z.boolean().optional(),
  /**
   * JSON schema response formats: `true` / `false` as before (`true` is `native-json-schema`), or how the target
   * produces schema-conforming JSON (`native-json-schema`, `json-object`, `forced-tool`, `none`).
   */
  structuredOutput: z.union([z.boolean(), structuredOutputSupportV3Schema]).optional(),
  /**
   * Hosted tool kinds the provider runs for this target (`web-search`). A request's hosted tool of another kind is
   * dropped for the target and named in the `x-tokenforge-dropped-tools` response header.
   */
  hostedTools: z.array(z.enum(HOSTED_TOOL_KINDS_V3)).optional(),
  /** The target honours the parallel-tool-calls switch (otherwise the client's switch is dropped for it, a hint). */
  parallelToolCalls: z.boolean().optional(),
  /** The target prunes the conversation server-side (Anthropic context management; otherwise dropped, a hint). */
  contextManagement: z.boolean().optional(),
  /**
   * The target can force a tool choice (`required`, or a named tool). Default: `true` for a target with tools.
   * `false` refuses a forced choice before anything is sent, and rules out the forced-tool structured-output mode.
   */
  forcedToolChoice: z.boolean().optional(),
  /**
   * The target accepts a forced tool choice while reasoning is on (Anthropic refuses `tool_choice` `any` or `tool`
   * with extended thinking). Default: not declared, so a forced-tool structured output with reasoning is refused.
   */
  forcedToolChoiceWithReasoning: z.boolean().optional(),
  /**
   * The reasoning effort levels the model takes on the wire (`none` ... `max`); a requested level outside the list
   * goes to the nearest listed one. Absent: the family's documented mapping.
   */
  reasoningEfforts: z.array(reasoningEffortV3Schema).min(1).optional(),
  /** Largest total size of the files of an image edit, in bytes (default for `openai-images/v1`: 16 MiB). */
  maxPreparedMediaBytes: z.number().int().positive().optional(),
  /** The embedding space of an embedding target (vectors of two spaces are not comparable). */
  embedding: embeddingSpaceV2Schema.optional(),
});

/** Connections per target when `maxConnections` is absent: the default `limits.maxConcurrentRequests`, so the pool never refuses first. */
export const DEFAULT_TARGET_MAX_CONNECTIONS = 64;

/** One upstream a public model can be served by. */
export const gatewayTargetV1Schema = z.strictObject({
  /** Opaque provider identity, shown in the operator log (never a dispatch key). */
  provider: identifier,
  /** The wire protocol family the target speaks, e.g. `openai-chat/v1`. */
  family: catalogueFamily,
  /** The model name sent to the provider. */
  model: z.string().min(1).max(256),
  /** The provider's base URL (`https://api.openai.com/v1`, `https://api.anthropic.com`, ...). Absent only with `agentCli`. */
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Where the credentials come from. Absent only with `agentCli`. */
  credentials: gatewayTargetCredentialsV1Schema.optional(),
  /**
   * A target of family `agent-cli/v1`: a locally installed coding-agent CLI the gateway runs once per request (the
   * process transport) instead of an HTTP provider; `baseUrl` and `credentials` are then absent. `model` is the
   * model the CLI is told to use.
   */
  agentCli: z
    .strictObject({
      /** Which CLI it is: `claude-code`, `codex` or `gemini-cli` (the family's mapping). */
      program: z.enum(['claude-code', 'codex', 'gemini-cli']),
      /** The executable: an absolute path, or a name on the `PATH` the gateway passes on. */
      executable: z.string().min(1).max(4096),
      /** The CLI's own configuration folder for this target (its sign-in and settings; the child's `HOME`). */
      configFolder: z.string().min(1).max(4096),
      /**
       * Variables the CLI receives, by name, each read from the gateway's environment variable of the same
       * name (values never live in the catalogue). Nothing else of the gateway's environment reaches the CLI
       * except `PATH`, locale and time zone.
       */
      environment: z.array(environmentVariableName).max(64).optional(),
      /** Runs of this target at once (default 1). */
      maxConcurrentRuns: z.number().int().min(1).max(64).optional(),
      /** Runs that may wait for a free run (default 0); one more is refused as overloaded (503 in the client's dialect). */
      maxQueuedRuns: z.number().int().min(0).max(1024).optional(),
      /** Wall-clock bound of one run, in milliseconds (default 5 min); past it the run is killed and fails as `timeout`. */
      deadlineMs: milliseconds.optional(),
      /**
       * The CLI's own built-in tools this target allows (default `none`: every one off by the CLI's own flags).
       * `read-only`: only the CLI's file-reading tools, confined to the run's fresh, empty working folder (Claude
       * Code: `Read`, `Glob`, `Grep` with `--restricted`; Gemini CLI: its read tools under an admin policy). Codex
       * cannot confine reading to its working folder, so a Codex target with `read-only` is a catalogue problem.
       * Tool activity stays the CLI's own: a client never sees a tool call or a tool's output.
       */
      builtInTools: z.enum(['none', 'read-only']).optional(),
    })
    .optional(),
  /** Capability facts over the family's defaults. */
  capability: gatewayCapabilityOverridesV1Schema.optional(),
  /** Per-target timeouts (defaults: the transport's). */
  timeouts: z
    .strictObject({
      /** Connecting, TLS included. */
      connectMs: milliseconds.optional(),
      /** From sending the request to the response head. */
      headersMs: milliseconds.optional(),
      /** Longest pause between two body chunks. */
      bodyIdleMs: milliseconds.optional(),
    })
    .optional(),
  /**
   * Most connections open at once to this target (default {@link DEFAULT_TARGET_MAX_CONNECTIONS}). A request that
   * finds them all busy waits for one at most `timeouts.connectMs`, then fails as a retryable `overloaded` (503 in
   * the client's dialect) that falls back to the next target: never a silent queue.
   */
  maxConnections: z.number().int().min(1).max(1024).optional(),
  /**
   * Pass the provider's rate-limit facts back to the client (default `false`: they describe the operator's
   * account). When `true`, an answer this target gave to a client of the same rate-limit header dialect (OpenAI's
   * `x-ratelimit-*`, Anthropic's `anthropic-ratelimit-*`) carries them, rewritten in that dialect's header names.
   * Never after a fallback from an earlier target, never to a client of another dialect.
   */
  passRateLimitHeaders: z.boolean().optional(),
  /**
   * What the target costs (per million tokens, per image, ...), in one currency. A ledger row names the table's
   * `version`. Every attempt reserves at the highest price among the model's targets; a target without a price is
   * metered in tokens and charged nothing (budgets do not hold it).
   */
  price: priceTableV1Schema.optional(),
  /** The target's tier and weight in its model's routing (see the model's `routing`). */
  routing: gatewayTargetRoutingV1Schema.optional(),
  /** Network reach beyond public addresses (for a provider on this machine or a private network). */
  network: z
    .strictObject({
      /** Allow loopback addresses, plain `http://` included (a local simulator or a local model server). */
      allowLoopback: z.boolean().optional(),
      /** Allow private (RFC 1918 / unique-local) addresses. */
      allowPrivate: z.boolean().optional(),
    })
    .optional(),
});

/** A public model name and the targets that serve it, tried in order. */
export const gatewayModelV1Schema = z.strictObject({
  /** The name clients send (`model` in the body, or the Gemini path segment). */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be 1 to 128 characters of letters, digits, . _ - (it may travel in a URL path)'),
  /** The task kind the model serves: a request of another kind is refused as not found. */
  taskKind: taskKindV2Schema,
  /** Targets, tried in order on a retryable failure before any byte reached the client. */
  targets: z.array(gatewayTargetV1Schema).min(1).max(16),
  /** Tiers, balancing, cooldown and fallback classes (default: catalogue order, no cooldown, retryable failures fall back). */
  routing: gatewayModelRoutingV1Schema.optional(),
});

/** A client key, by the environment variable that holds it. */
export const gatewayClientKeyV1Schema = z.strictObject({
  /** A label for the operator log and for job ownership (never the key itself). */
  id: identifier,
  /** The environment variable that holds the key. */
  env: environmentVariableName,
});

/** Limits every request is held to. */
export const gatewayLimitsV1Schema = z.strictObject({
  /** Largest request body, in bytes (default 16 MiB). */
  maxBodyBytes: z.number().int().positive().max(256 * 1024 * 1024).optional(),
  /** Time allowed to receive the request head, in milliseconds (default 10 s). */
  headersTimeoutMs: milliseconds.optional(),
  /** Time allowed for a whole request, streams included, in milliseconds (default 10 min). */
  requestTimeoutMs: milliseconds.optional(),
  /**
   * Longest wait between two reads of a request body, in milliseconds (default 60 s, nginx's
   * `client_body_timeout`). The body is read before the request takes a concurrency slot; a slower client is
   * answered 408 in its dialect.
   */
  bodyIdleTimeoutMs: milliseconds.optional(),
  /** Time allowed to receive a whole request body, in milliseconds (default 300 s); past it the answer is 408. */
  bodyTimeoutMs: milliseconds.optional(),
  /** Model requests served at once; more are refused with the dialect's 429 and `retry-after` (default 64). */
  maxConcurrentRequests: z.number().int().positive().max(100_000).optional(),
  /** Provider attempts per request, retries and fallbacks together (default 3). */
  maxAttempts: z.number().int().positive().max(16).optional(),
  /** Total wait a request may spend honouring `retry-after` before a retry, in milliseconds (default 5 s). */
  retryBudgetMs: z.number().int().nonnegative().max(600_000).optional(),
  /** How long open streams may run after SIGTERM before the gateway closes them (default 10 s). */
  drainTimeoutMs: z.number().int().nonnegative().max(600_000).optional(),
});

/** Operator overrides of a family's polling plan (see the gateway README, "Tracked jobs"); absent fields keep the plan's. */
export const gatewayJobPollPlanV1Schema = z.strictObject({
  /** The first poll, this long after the create (default 5 s). */
  firstPollMs: milliseconds.optional(),
  /** Each later interval is the previous one times this (default 1.5; 1 keeps it constant). */
  backoffFactor: z.number().min(1).max(10).optional(),
  /** No interval grows beyond this (default 60 s). */
  ceilingMs: milliseconds.optional(),
  /** How long a job may stay open before it is `unknown` and polled every `slowPollMs` (default 2 h). */
  planMs: z.number().int().positive().max(90 * 86_400_000).optional(),
  /** The interval of jobs past their plan (default 15 min). */
  slowPollMs: milliseconds.optional(),
});

/** How each instance polls tracked jobs. */
export const gatewayJobPollingV1Schema = z.strictObject({
  /** Jobs one instance holds at once, waiting or being polled (default 64). */
  maxConcurrent: z.number().int().positive().max(10_000).optional(),
  /** Polls in flight at once against one target, per instance (default 8). */
  maxConcurrentPerTarget: z.number().int().positive().max(10_000).optional(),
  /** How long a claim lasts; a dead instance's jobs are taken over after it (default 30 s). */
  leaseMs: z.number().int().min(100).max(3_600_000).optional(),
  /** How often an idle instance asks the store for due jobs (default 1 s). */
  claimIntervalMs: z.number().int().min(5).max(600_000).optional(),
  /** A poll taking longer is abandoned and retried by the plan (default 30 s). */
  pollTimeoutMs: milliseconds.optional(),
  /** Plan overrides by family (`kling-video/v1`), or `*` for every family (a family's entry wins over `*`). */
  plans: z.record(z.string().min(1).max(128), gatewayJobPollPlanV1Schema).optional(),
});

/** Webhook delivery of tracked jobs' state changes. */
export const gatewayJobWebhooksV1Schema = z.strictObject({
  /**
   * The environment variable holding the webhook master key (32+ characters; `NAME_FILE` works as for other
   * secrets); each tenant's signing secret is derived from it. Default `TOKENFORGE_WEBHOOK_MASTER_KEY`; unset with
   * the embedded store, a key generated in the data directory (`webhook-master-key`, mode 0600) is used.
   */
  masterKeyEnv: environmentVariableName.optional(),
  /** Allow callback URLs to loopback (`http://127.0.0.1:...`), for local receivers and tests (default false: public HTTPS only). */
  allowLoopback: z.boolean().optional(),
  /** Waits before the 2nd, 3rd... attempt of an event, in milliseconds; abandoned after the last (default 5 s, 30 s, 2 min, 10 min, 30 min, 2 h). */
  retryDelaysMs: z.array(z.number().int().nonnegative().max(86_400_000)).max(20).optional(),
  /** One attempt's deadline in milliseconds (default 10 s). */
  timeoutMs: milliseconds.optional(),
  /** Deliveries in flight at once per instance (default 8). */
  maxConcurrent: z.number().int().positive().max(1000).optional(),
});

/** The async jobs API settings. */
export const gatewayJobsV1Schema = z.strictObject({
  /** The environment variable that holds the job handle signing key (at least 32 characters). */
  signingKeyEnv: environmentVariableName,
  /** How long a job handle stays valid, in seconds (default 7 days). */
  handleTtlSeconds: z.number().int().positive().max(90 * 86_400).optional(),
  /**
   * With governance (tracked jobs): a `GET` of a job answers from the gateway's row while its last observation is at
   * most this old, in milliseconds, and asks the provider only when it is older (default 1000).
   */
  freshnessMs: z.number().int().nonnegative().max(86_400_000).optional(),
  /** The tracked-job poller of each instance (with governance). */
  polling: gatewayJobPollingV1Schema.optional(),
  /** Signed webhook events of tracked jobs (Standard Webhooks). */
  webhooks: gatewayJobWebhooksV1Schema.optional(),
  /**
   * Copies of finished jobs' results (with governance), fetched once at the terminal state and served at
   * `GET /v2/jobs/{id}/media/{index}` after the provider's URL expired. Absent: no copies.
   */
  media: z
    .strictObject({
      /** The directory of the copies (default: `media` in the data directory; `TOKENFORGE_DATA_DIR` or `./.tokenforge`). */
      directory: z.string().min(1).max(4096).optional(),
      /** The largest asset copied, in bytes (default 256 MiB); a larger one is left at the provider. */
      maxBytes: z.number().int().positive().max(16 * 1024 * 1024 * 1024).optional(),
      /** One download's deadline in milliseconds (default 120 s). */
      timeoutMs: z.number().int().positive().max(3_600_000).optional(),
      /** Allow result URLs on loopback (a local provider, tests; default false). */
      allowLoopback: z.boolean().optional(),
      /** A PEM file of authorities to trust for result downloads instead of the system roots (a private CA). */
      trustedCertificatesFile: z.string().min(1).max(4096).optional(),
    })
    .optional(),
});

/** Tenants, keys, limits and spend (see the gateway README, "Tenants, limits and spend"). */
export const gatewayGovernanceV1Schema = z.strictObject({
  /**
   * `embedded` (default): one process, state in the data directory; when `REDIS_URL` or `DATABASE_URL` is set, the
   * shared store on Redis and PostgreSQL instead (both required; see the README, "Running several instances"). `off`:
   * no tenants, no metering (the static `clientKeys` only, as before governance existed).
   */
  store: z.enum(['embedded', 'off']).optional(),
  /**
   * The embedded store's data directory (default: `--data-dir`, then `TOKENFORGE_DATA_DIR`, then `./.tokenforge`).
   * A relative path is read from the working directory.
   */
  dataDir: z.string().min(1).max(4096).optional(),
  /**
   * Which limits let requests through, unmetered, while the store cannot be reached (default: none; the dialect's
   * 503 and nothing sent). A request is let through only when every limit its tenant and key hold is listed here.
   */
  failOpen: z
    .strictObject({
      requestsPerMinute: z.boolean().optional(),
      tokensPerMinute: z.boolean().optional(),
      concurrentRequests: z.boolean().optional(),
      budget: z.boolean().optional(),
    })
    .optional(),
  /** How often each instance polls the governance version to apply admin changes, in milliseconds (default 1000). */
  pollIntervalMs: z.number().int().min(50).max(60_000).optional(),
  /**
   * How often each instance sweeps for orphaned reservations (held past their request's deadline by an instance that
   * died) and settles them at their reserved amount, in milliseconds (default 30 000).
   */
  sweepIntervalMs: z.number().int().min(100).max(3_600_000).optional(),
});

/** The operator console under `/console` (see the gateway README, "The operator console"). */
export const gatewayConsoleV1Schema = z.strictObject({
  /**
   * Trust `X-Forwarded-Proto` (default `false`): set it only when a TLS-terminating proxy in front of every instance
   * sets that header and clients cannot reach the gateway past it. Then a sign-in whose `X-Forwarded-Proto` is
   * `https` gets a `Secure` session cookie although the gateway itself speaks plain HTTP. Read at start.
   */
  trustForwardedProto: z.boolean().optional(),
});

/** The gateway catalogue: public models, client keys, limits. Secrets never live in it, only variable names. */
export const gatewayCatalogueV1Schema = z
  .strictObject({
    /** The catalogue format version. */
    version: z.literal(1),
    /** Keys clients authenticate with. */
    clientKeys: z.array(gatewayClientKeyV1Schema).min(1),
    /** Public models. */
    models: z.array(gatewayModelV1Schema).min(1),
    /** Limits (all optional, with defaults). */
    limits: gatewayLimitsV1Schema.optional(),
    /** Async jobs (required when a model serves `video-generation` through an async family). */
    jobs: gatewayJobsV1Schema.optional(),
    /** Tenants, limits and spend (default: the embedded store when the CLI starts the gateway). */
    governance: gatewayGovernanceV1Schema.optional(),
    /** The Prometheus metrics endpoint (absent: none). */
    metrics: gatewayMetricsV1Schema.optional(),
    /** Routing defaults (cooldown) for every model. */
    routing: gatewayRoutingV1Schema.optional(),
    /** Other public names of models. */
    aliases: gatewayAliasesV1Schema.optional(),
    /** The operator console (default: cookies are `Secure` only when the gateway itself serves TLS). */
    console: gatewayConsoleV1Schema.optional(),
  })
  .superRefine((catalogue, context) => {
    checkAliases(catalogue.aliases ?? {}, new Set(catalogue.models.map((model) => model.name)), (alias, message) =>
      context.addIssue({ code: 'custom', path: ['aliases', alias], message }),
    );
    const seenModels = new Map<string, number>();
    catalogue.models.forEach((model, index) => {
      const earlier = seenModels.get(model.name);
      if (earlier !== undefined) context.addIssue({ code: 'custom', path: ['models', index, 'name'], message: `repeats the name of models.${earlier}` });
      else seenModels.set(model.name, index);
    });
    const seenKeys = new Map<string, number>();
    catalogue.clientKeys.forEach((key, index) => {
      const earlier = seenKeys.get(key.id);
      if (earlier !== undefined) context.addIssue({ code: 'custom', path: ['clientKeys', index, 'id'], message: `repeats the id of clientKeys.${earlier}` });
      else seenKeys.set(key.id, index);
    });
  });

export type GatewayCatalogueV1 = z.infer<typeof gatewayCatalogueV1Schema>;
export type GatewayModelV1 = z.infer<typeof gatewayModelV1Schema>;
export type GatewayTargetV1 = z.infer<typeof gatewayTargetV1Schema>;
export type GatewayClientKeyV1 = z.infer<typeof gatewayClientKeyV1Schema>;
export type GatewayLimitsV1 = z.infer<typeof gatewayLimitsV1Schema>;
export type GatewayGovernanceV1 = z.infer<typeof gatewayGovernanceV1Schema>;
export type GatewayMetricsV1 = z.infer<typeof gatewayMetricsV1Schema>;
export type GatewayCooldownV1 = z.infer<typeof gatewayCooldownV1Schema>;
export type GatewayBalanceV1 = z.infer<typeof gatewayBalanceV1Schema>;
export type GatewayModelRoutingV1 = z.infer<typeof gatewayModelRoutingV1Schema>;
export type GatewayRoutingV1 = z.infer<typeof gatewayRoutingV1Schema>;
export type GatewayConsoleV1 = z.infer<typeof gatewayConsoleV1Schema>;
