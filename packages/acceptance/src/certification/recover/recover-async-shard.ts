import type { ProviderAsyncJobSnapshotV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, PROTOCOL_ENGINE_API_VERSION } from '@tokenforge/protocol-engine';
import { CertificationError } from '../certification-error.js';
import {
  CERTIFICATION_EVIDENCE_VERSION_V1,
  certificationEvidenceV1Schema,
  writeEvidenceFile,
  type CaseEvidenceV1,
  type CertificationEvidenceV1,
} from '../evidence/certification-evidence-v1.js';
import { registeredFamiliesOf } from '../manifest/registered-families.js';
import { caseFingerprintOf } from '../manifest/validate-manifest.js';
import {
  allowedHostnamesOf,
  allowlistResolver,
  CertificationTransports,
  countingTransport,
  credentialsOf,
  preflightAddresses,
  systemResolver,
  type TransportTally,
} from '../run/certification-network.js';
import { errorFacts, idempotencyKeyFingerprintOf, isoOf, jobIdFingerprintOf, SUBMISSION_WINDOW_SKEW_MS } from '../run/run-case.js';
import { prepareManifest, requireAcknowledgement, type ProviderCallOptionsV1 } from '../run/run-certification.js';

/** Jobs per list page during recovery. */
export const RECOVERY_PAGE_SIZE = 100;
/** Most list pages a recovery reads; a window needing more is refused. */
export const RECOVERY_MAX_PAGES = 20;

/** Options of {@link recoverAsyncShard}. */
export interface RecoverAsyncShardOptionsV1 extends Omit<ProviderCallOptionsV1, 'sleep'> {
  /** The manifest document (parsed JSON) the failed run used. */
  readonly manifest: unknown;
  /** The evidence document (parsed JSON) of the run that stopped at its polling bound. */
  readonly failureEvidence: unknown;
  /** Where the new evidence goes (mode 0600, never overwritten). */
  readonly outputPath: string;
}

/** What a recovery found. */
export interface RecoverAsyncShardResultV1 {
  /** True when the job succeeded and success evidence was written. */
  readonly ok: boolean;
  readonly evidence: CertificationEvidenceV1;
  /** List calls made (one, or the minimum pages the provider needs for the window). */
  readonly listCalls: number;
}

function refuse(message: string): never {
  throw new CertificationError('RECOVERY_REFUSED', message);
}

/** How many pages the window needs, from what the first page said; `undefined` while unknown. */
function pagesNeeded(page: { total: number; totalKind?: 'exact' | 'lower-bound'; pagesForWindow?: number }, pageNum: number, items: number): number | undefined {
  if (page.pagesForWindow !== undefined) return page.pagesForWindow;
  if (page.totalKind !== 'lower-bound') return Math.max(1, Math.ceil(page.total / RECOVERY_PAGE_SIZE));
  return items < RECOVERY_PAGE_SIZE ? pageNum : undefined;
}

/**
 * Recovers one accepted async case whose run stopped only because polling reached its bound, without resubmitting:
 * reads the provider's job list (one call, or the fewest pages the provider needs when it cannot filter the window),
 * requires exactly one job in the original submission window whose id fingerprint (and idempotency key fingerprint,
 * when both sides have one) matches the evidence, and writes standard success evidence only for a `succeeded`
 * snapshot; any other state is written as non-success evidence.
 */
export async function recoverAsyncShard(options: RecoverAsyncShardOptionsV1): Promise<RecoverAsyncShardResultV1> {
  requireAcknowledgement(options.acknowledgement);
  const { engine, suite, validation } = prepareManifest(options.manifest, options.suite);
  const manifest = validation.manifest;
  const parsed = certificationEvidenceV1Schema.safeParse(options.failureEvidence);
  if (!parsed.success) throw new CertificationError('EVIDENCE_INVALID', 'the failure evidence is not valid v1 evidence');
  const failure = parsed.data;
  if (failure.manifestFingerprint !== validation.manifestFingerprint) throw new CertificationError('EVIDENCE_MISMATCH', 'the failure evidence was produced from another manifest');
  const exhausted = failure.cases.filter((item) => item.outcome === 'polling-exhausted');
  if (exhausted.length !== 1) refuse(`the failure evidence holds ${exhausted.length} polling-exhausted cases; recovery takes exactly one`);
  const failed = exhausted[0] as CaseEvidenceV1;
  const caseIndex = manifest.cases.findIndex((item) => caseFingerprintOf(item) === failed.caseFingerprint);
  const manifestCase = manifest.cases[caseIndex];
  if (manifestCase === undefined || manifestCase.target.capability.protocolFamily !== failed.protocolFamily) {
    throw new CertificationError('EVIDENCE_MISMATCH', 'the polling-exhausted case is not a case of this manifest');
  }
  const job = failed.job;
  if (job === undefined || job.acceptance !== 'accepted' || job.jobIdFingerprint === undefined) refuse('the polling-exhausted case has no accepted job');
  const family = registeredFamiliesOf(engine, suite).find((candidate) => candidate.protocolFamily === failed.protocolFamily);
  if (family === undefined || !family.jobOperations.includes('list')) refuse('the family declares no list operation');

  const credentials = credentialsOf(manifestCase, options.env, `case ${caseIndex + 1}`);
  const resolver = allowlistResolver(allowedHostnamesOf(manifest), options.network?.resolveHostname ?? systemResolver);
  const signal = new AbortController().signal;
  const hostnames = new Set([new URL(manifestCase.connection.origin).hostname]);
  await preflightAddresses(hostnames, resolver, options.network?.allowedAddressCategories ?? [], signal);
  const now = options.now ?? Date.now;
  const started = now();
  const transports = new CertificationTransports(resolver, options.network ?? {});
  const tally: TransportTally = { httpRequests: 0, lastFailure: undefined };
  const window = {
    createdAfter: isoOf(Date.parse(job.submittedAfter) - SUBMISSION_WINDOW_SKEW_MS),
    createdBefore: isoOf(Date.parse(job.submittedBefore) + SUBMISSION_WINDOW_SKEW_MS),
  };
  const matches: ProviderAsyncJobSnapshotV2[] = [];
  let listCalls = 0;
  try {
    const transport = countingTransport(transports.transportFor(manifestCase, credentials, suite.transportMetadataFor(family.protocolFamily)), tally);
    const binding = createProtocolEngineTargetBindingV1({ target: manifestCase.target, bindTransport: () => transport });
    for (let pageNum = 1; ; pageNum += 1) {
      listCalls += 1;
      const page = await engine.jobs.list({ binding, pageNum, pageSize: RECOVERY_PAGE_SIZE, ...window, signal });
      for (const item of page.items) {
        if (jobIdFingerprintOf(item.providerJobId) !== job.jobIdFingerprint) continue;
        if (job.idempotencyKeyFingerprint !== undefined && item.idempotencyKey !== undefined && idempotencyKeyFingerprintOf(item.idempotencyKey) !== job.idempotencyKeyFingerprint) continue;
        matches.push(item);
      }
      const needed = pagesNeeded(page, pageNum, page.items.length);
      if (needed !== undefined && pageNum >= needed) break;
      if (pageNum >= RECOVERY_MAX_PAGES) refuse(`the submission window needs more than ${RECOVERY_MAX_PAGES} list pages`);
    }
  } catch (error) {
    if (error instanceof CertificationError) throw error;
    const facts = errorFacts(error, tally);
    throw new CertificationError('RECOVERY_REFUSED', `the job list could not be read (${facts.kind} ${facts.code})`);
  } finally {
    await transports.close();
  }
  if (matches.length !== 1) refuse(`expected exactly one matching job in the submission window, found ${matches.length}`);
  const snapshot = matches[0] as ProviderAsyncJobSnapshotV2;
  const succeeded = snapshot.state === 'succeeded';
  const outcome: CaseEvidenceV1['outcome'] = succeeded ? 'succeeded' : snapshot.state === 'failed' || snapshot.state === 'cancelled' ? 'failed' : 'polling-exhausted';
  const recovered: CaseEvidenceV1 = {
    caseFingerprint: failed.caseFingerprint,
    protocolFamily: failed.protocolFamily,
    executionMode: failed.executionMode,
    taskKind: failed.taskKind,
    streamed: failed.streamed,
    outcome,
    job: { ...job, finalState: snapshot.state, listed: true, ...(snapshot.failure === undefined ? {} : { failureCode: snapshot.failure.code }) },
    ...(snapshot.usage === undefined ? {} : { usage: { ...snapshot.usage } }),
    counts: snapshot.media === undefined ? {} : { media: snapshot.media.length },
    operations: { executionStarts: 0, asyncGetObservations: 0, asyncListObservations: listCalls },
    durationMs: Math.max(0, Math.round(now() - started)),
  };
  const evidence: CertificationEvidenceV1 = {
    evidenceVersion: CERTIFICATION_EVIDENCE_VERSION_V1,
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    source: 'recovery',
    simulated: failure.simulated || options.simulated === true,
    runStatus: 'completed',
    manifestFingerprint: failure.manifestFingerprint,
    registeredFamilies: [...engine.protocolFamilies],
    requiredFamilies: [failed.protocolFamily],
    totals: { executionStarts: 0, asyncGetObservations: 0, asyncListObservations: listCalls, httpRequests: tally.httpRequests },
    durationMs: recovered.durationMs,
    cases: [recovered],
  };
  await writeEvidenceFile(options.outputPath, evidence);
  options.log?.(`recovery of case ${caseIndex + 1} (${failed.protocolFamily}): job ${snapshot.state} after ${listCalls} list call(s); ${succeeded ? 'success' : 'non-success'} evidence written${evidence.simulated ? ' (SIMULATED)' : ''}`);
  return { ok: succeeded, evidence, listCalls };
}
