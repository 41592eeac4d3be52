import { chmod, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ASYNC_JOB_STATES_V2, FINISH_REASONS_V1, PROVIDER_FAILURE_CODES_V3, protocolFamilySchema, usageV1Schema, utcTimestampSchema } from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_API_VERSION } from '@tokenforge/protocol-engine';
import { z } from 'zod';
import { CertificationError } from '../certification-error.js';
import { FINGERPRINT_PATTERN } from './fingerprint.js';

/** The version tag every v1 evidence file carries. */
export const CERTIFICATION_EVIDENCE_VERSION_V1 = 'tokenforge-certification-evidence/v1';

const fingerprintSchema = z.string().regex(FINGERPRINT_PATTERN);
const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** How one case ended. Only `succeeded` is success. */
export const CASE_OUTCOMES_V1 = ['succeeded', 'failed', 'rejected', 'polling-exhausted', 'error', 'not-run'] as const;
export type CaseOutcomeV1 = (typeof CASE_OUTCOMES_V1)[number];

/** Why a run stopped before every case ran. */
export const RUN_STOP_REASONS_V1 = ['request-cap', 'duration-cap', 'network-policy', 'internal-error'] as const;
export type RunStopReasonV1 = (typeof RUN_STOP_REASONS_V1)[number];

/** Engine operations, counted by kind. */
export const operationCountsV1Schema = z.strictObject({
  /** `engine.execute` calls (sync, stream or async starts). */
  executionStarts: count,
  /** `engine.jobs.get` observations. */
  asyncGetObservations: count,
  /** `engine.jobs.list` observations. */
  asyncListObservations: count,
});
export type OperationCountsV1 = z.infer<typeof operationCountsV1Schema>;

/** The facts of one case: protocol facts, states, numeric usage, counts and fingerprints only. */
export const caseEvidenceV1Schema = z.strictObject({
  /** Fingerprint of the manifest case (its canonical JSON). */
  caseFingerprint: fingerprintSchema,
  protocolFamily: protocolFamilySchema,
  executionMode: z.enum(['sync', 'stream-capable', 'async-job']),
  taskKind: z.string().regex(/^[a-z-]{1,32}$/),
  /** Whether the task streamed. */
  streamed: z.boolean(),
  outcome: z.enum(CASE_OUTCOMES_V1),
  /** The terminal of a sync or stream execution. */
  terminal: z
    .strictObject({
      status: z.enum(['completed', 'failed', 'cancelled']),
      finishReason: z.enum(FINISH_REASONS_V1).optional(),
      failureCode: z.enum(PROVIDER_FAILURE_CODES_V3).optional(),
    })
    .optional(),
  /** The async job facts. */
  job: z
    .strictObject({
      acceptance: z.enum(['accepted', 'not-accepted', 'unknown']),
      /** Fingerprint of the provider job id (never the id). */
      jobIdFingerprint: fingerprintSchema.optional(),
      /** Fingerprint of the task's idempotency key, when it had one. */
      idempotencyKeyFingerprint: fingerprintSchema.optional(),
      /** The submission window: just before the start was sent, and just after its answer arrived (UTC). */
      submittedAfter: utcTimestampSchema,
      submittedBefore: utcTimestampSchema,
      /** `engine.jobs.get` calls made. */
      polls: count,
      /** The last observed normalized state. */
      finalState: z.enum(ASYNC_JOB_STATES_V2).optional(),
      /** The normalized failure of a rejected start or a failed job. */
      failureCode: z.enum(PROVIDER_FAILURE_CODES_V3).optional(),
      /** Whether the job was found on the list page read after success. */
      listed: z.boolean().optional(),
    })
    .optional(),
  /** Numeric usage as the engine validated it. */
  usage: usageV1Schema.optional(),
  /** Result sizes. */
  counts: z.strictObject({
    streamEvents: count.optional(),
    textCharacters: count.optional(),
    toolCalls: count.optional(),
    vectors: count.optional(),
    dimensions: count.optional(),
    images: count.optional(),
    rankedItems: count.optional(),
    media: count.optional(),
  }),
  operations: operationCountsV1Schema,
  /** A bounded error code when the case ended in an error (engine code, transport reason, certification code). */
  error: z.strictObject({ kind: z.enum(['engine', 'transport', 'certification']), code: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }).optional(),
  /** Wall time of the case in milliseconds. */
  durationMs: count,
});
export type CaseEvidenceV1 = z.infer<typeof caseEvidenceV1Schema>;

/** One evidence file: the facts of one run (or one recovery). */
export const certificationEvidenceV1Schema = z.strictObject({
  evidenceVersion: z.literal(CERTIFICATION_EVIDENCE_VERSION_V1),
  apiVersion: z.literal(PROTOCOL_ENGINE_API_VERSION),
  /** `run` for `certify --run`, `recovery` for a recovered async shard. */
  source: z.enum(['run', 'recovery']),
  /** True when the provider was a simulator. Simulated evidence never certifies. */
  simulated: z.boolean(),
  /** `completed` when every case ran; `incomplete` evidence is never success. */
  runStatus: z.enum(['completed', 'incomplete']),
  stopReason: z.enum(RUN_STOP_REASONS_V1).optional(),
  manifestFingerprint: fingerprintSchema,
  /** The engine's registered families at run time. */
  registeredFamilies: z.array(protocolFamilySchema),
  /** The families the manifest had to cover (the shard's, or every registered one). */
  requiredFamilies: z.array(protocolFamilySchema),
  totals: operationCountsV1Schema.extend({ httpRequests: count }),
  durationMs: count,
  cases: z.array(caseEvidenceV1Schema),
});
export type CertificationEvidenceV1 = z.infer<typeof certificationEvidenceV1Schema>;

/**
 * Writes an evidence file with mode 0600 (created exclusively: an existing file is never overwritten).
 * @throws {CertificationError} `OUTPUT_EXISTS` when the file exists
 */
export async function writeEvidenceFile(path: string, evidence: CertificationEvidenceV1): Promise<void> {
  const checked = certificationEvidenceV1Schema.parse(evidence);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') throw new CertificationError('OUTPUT_EXISTS', 'the evidence file already exists');
    throw error;
  }
  try {
    await handle.chmod(0o600);
    await handle.writeFile(`${JSON.stringify(checked, null, 2)}\n`, 'utf8');
  } finally {
    await handle.close();
  }
  await chmod(path, 0o600);
}
