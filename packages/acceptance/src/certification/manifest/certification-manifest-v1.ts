import { protocolFamilySchema, providerDispatchTargetV2Schema, taskEnvelopeV2Schema } from '@tokenforge/model-protocol';
import { z } from 'zod';

/** The version tag every v1 manifest carries. */
export const CERTIFICATION_MANIFEST_VERSION_V1 = 'tokenforge-certification-manifest/v1';

/** Largest values the schema accepts, so a typo cannot ask for a day of polling. */
export const MANIFEST_LIMITS_V1 = Object.freeze({
  maxCases: 200,
  maxPolls: 1000,
  maxPollIntervalMs: 600_000,
  maxRequests: 10_000,
  maxDurationMs: 6 * 60 * 60 * 1000,
});

const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** The name of an environment variable (upper case, digits, `_`): where a secret lives, never the secret. */
export const secretEnvNameSchema = z.string().regex(ENV_NAME, 'an environment variable name in upper case, such as OPENAI_API_KEY');

/**
 * An exact provider origin: `https://host[:port]`, with a DNS host name (no IP literal, no userinfo, path, query or
 * fragment). It is the only place the case's requests may go.
 */
export const providerOriginSchema = z
  .string()
  .max(300)
  .regex(/^https:\/\/[a-z0-9.-]+(?::[0-9]{1,5})?$/, 'an https origin such as https://api.example.com')
  .refine((value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return false;
    if (url.origin !== value) return false;
    const host = url.hostname;
    if (host.startsWith('[') || /^[0-9.]+$/.test(host)) return false;
    return /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host);
  }, 'an https origin with a DNS host name and nothing after the port, such as https://api.example.com');

/** A base path under the origin: `/` or segments of safe characters, no trailing slash. */
export const basePathSchema = z
  .string()
  .max(200)
  .regex(/^(?:\/|(?:\/[A-Za-z0-9._~-]+)+)$/, 'a path such as /v1, without a trailing slash or dot segments')
  .refine((value) => !value.split('/').some((segment) => segment === '.' || segment === '..'), 'no dot segments');

/** Where a case's secret lives, by the family's auth scheme. */
export const manifestCredentialsV1Schema = z.discriminatedUnion('type', [
  /** One key (bearer or named-header schemes). */
  z.strictObject({
    type: z.literal('api-key'),
    /** The variable holding the API key. */
    apiKeyEnv: secretEnvNameSchema,
  }),
  /** An access key and a signing key (HS256 JWT scheme). */
  z.strictObject({
    type: z.literal('access-key'),
    /** The variable holding the access key (the token issuer). */
    accessKeyEnv: secretEnvNameSchema,
    /** The variable holding the signing key. */
    secretKeyEnv: secretEnvNameSchema,
  }),
]);
export type ManifestCredentialsV1 = z.infer<typeof manifestCredentialsV1Schema>;

/** How a case reaches its provider. */
export const manifestConnectionV1Schema = z.strictObject({
  /** The exact provider origin (see {@link providerOriginSchema}). */
  origin: providerOriginSchema,
  /** The path the family's adapter paths are appended to (`/v1` for the OpenAI families, `/` for most others). */
  basePath: basePathSchema,
  /** The names of the environment variables holding the secret. */
  credentials: manifestCredentialsV1Schema,
});
export type ManifestConnectionV1 = z.infer<typeof manifestConnectionV1Schema>;

/** How an async case observes its job. Certification never cancels a job. */
export const manifestAsyncPollingV1Schema = z.strictObject({
  /** Most `engine.jobs.get` calls after the start; the case ends `polling-exhausted` when none saw a terminal state. */
  maxPolls: z.number().int().min(1).max(MANIFEST_LIMITS_V1.maxPolls),
  /** Wait before each poll, in milliseconds. */
  pollIntervalMs: z.number().int().min(0).max(MANIFEST_LIMITS_V1.maxPollIntervalMs),
  /** After success, read one page of `engine.jobs.list` and require the job on it (families that declare list). */
  listAfterSuccess: z.boolean().optional(),
});
export type ManifestAsyncPollingV1 = z.infer<typeof manifestAsyncPollingV1Schema>;

/** One certification case: a resolved target, a task, the connection and, for async targets, polling bounds. */
export const manifestCaseV1Schema = z.strictObject({
  /** A label unique in the manifest. Only its fingerprint reaches output and evidence. */
  caseId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/),
  /** The resolved target: provider identity, wire model, connection reference and capability facts. */
  target: providerDispatchTargetV2Schema,
  /** The normalized task to execute. */
  task: taskEnvelopeV2Schema,
  /** Where the requests go and which variables hold the secret. */
  connection: manifestConnectionV1Schema,
  /** Polling bounds; required exactly when the target's execution mode is `async-job`. */
  async: manifestAsyncPollingV1Schema.optional(),
});
export type ManifestCaseV1 = z.infer<typeof manifestCaseV1Schema>;

/** Suite-wide caps; the run stops (incomplete) when either is reached. */
export const manifestCapsV1Schema = z.strictObject({
  /** Most engine operations of the run: execution starts plus job get and list observations. */
  maxRequests: z.number().int().min(1).max(MANIFEST_LIMITS_V1.maxRequests),
  /** Longest wall time of the run, in milliseconds. */
  maxDurationMs: z.number().int().min(1000).max(MANIFEST_LIMITS_V1.maxDurationMs),
});
export type ManifestCapsV1 = z.infer<typeof manifestCapsV1Schema>;

/** A versioned certification manifest. */
export const certificationManifestV1Schema = z.strictObject({
  /** Editor hint: where the manifest's JSON Schema lives. Ignored by the tools. */
  $schema: z.string().max(500).optional(),
  /** Always `tokenforge-certification-manifest/v1`. */
  manifestVersion: z.literal(CERTIFICATION_MANIFEST_VERSION_V1),
  /**
   * Present for a shard: the families this manifest covers (each needs a case, no case may lie outside). Absent: the
   * manifest must cover every family the engine registers.
   */
  shard: z.strictObject({ families: z.array(protocolFamilySchema).min(1) }).optional(),
  /** Suite-wide request and duration caps. */
  caps: manifestCapsV1Schema,
  /** The cases, at least one. */
  cases: z.array(manifestCaseV1Schema).min(1).max(MANIFEST_LIMITS_V1.maxCases),
});
export type CertificationManifestV1 = z.infer<typeof certificationManifestV1Schema>;

/** The manifest's JSON Schema (draft 2020-12), generated from {@link certificationManifestV1Schema}. */
export function certificationManifestJsonSchemaV1(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(certificationManifestV1Schema, { target: 'draft-2020-12', unrepresentable: 'any' }),
    title: 'TokenForge certification manifest v1',
  };
}
