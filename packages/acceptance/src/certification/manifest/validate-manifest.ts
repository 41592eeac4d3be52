import { canonicalJson, fingerprint, type Fingerprint } from '../evidence/fingerprint.js';
import { certificationManifestV1Schema, type CertificationManifestV1, type ManifestCaseV1 } from './certification-manifest-v1.js';
import type { RegisteredFamilyV1 } from './registered-families.js';
import { worstCasePollingMs, worstCaseRequests, type WorstCaseRequestsV1 } from './worst-case-requests.js';

/** Stable codes of manifest problems. */
export const MANIFEST_PROBLEM_CODES_V1 = [
  'MANIFEST_JSON_INVALID',
  'MANIFEST_SCHEMA_INVALID',
  'MANIFEST_CASE_ID_DUPLICATE',
  'MANIFEST_FAMILY_UNREGISTERED',
  'MANIFEST_COVERAGE_INCOMPLETE',
  'MANIFEST_SHARD_MISMATCH',
  'MANIFEST_EXECUTION_MODE_MISMATCH',
  'MANIFEST_TASK_UNSUPPORTED',
  'MANIFEST_ASYNC_BOUNDS_MISSING',
  'MANIFEST_ASYNC_BOUNDS_UNEXPECTED',
  'MANIFEST_JOB_OPERATION_UNSUPPORTED',
  'MANIFEST_CREDENTIALS_MISMATCH',
  'MANIFEST_CONNECTION_CONFLICT',
  'MANIFEST_REQUEST_CAP_EXCEEDED',
  'MANIFEST_DURATION_CAP_EXCEEDED',
] as const;
export type ManifestProblemCodeV1 = (typeof MANIFEST_PROBLEM_CODES_V1)[number];

/** One thing wrong with a manifest. Messages name rules and positions, never secrets, prompts or model names. */
export interface ManifestProblemV1 {
  readonly code: ManifestProblemCodeV1;
  /** Where: a JSON path such as `cases[3].async`, or `manifest`. */
  readonly where: string;
  readonly message: string;
}

/** What offline validation found. */
export interface ManifestValidationV1 {
  /** True when there is no problem. */
  readonly ok: boolean;
  readonly problems: readonly ManifestProblemV1[];
  /** The parsed manifest, when the schema accepted it (even if other problems remain). */
  readonly manifest?: CertificationManifestV1;
  /** Fingerprint of the canonical manifest, when the schema accepted it. */
  readonly manifestFingerprint?: Fingerprint;
  /** The exact worst-case engine operations, when the schema accepted it. */
  readonly worstCase?: WorstCaseRequestsV1;
  /** Families this manifest must cover: the shard's, or every registered family. */
  readonly requiredFamilies: readonly string[];
}

/** Fingerprint of a parsed manifest (canonical JSON, so key order does not matter). */
export function manifestFingerprintOf(manifest: CertificationManifestV1): Fingerprint {
  return fingerprint('manifest', canonicalJson(manifest));
}

/** Fingerprint of one case (its canonical JSON, the case id included). */
export function caseFingerprintOf(manifestCase: ManifestCaseV1): Fingerprint {
  return fingerprint('case', canonicalJson(manifestCase));
}

function schemaPath(path: readonly PropertyKey[]): string {
  let text = 'manifest';
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return text;
}

function checkCase(manifestCase: ManifestCaseV1, where: string, family: RegisteredFamilyV1, problems: ManifestProblemV1[]): void {
  const capability = manifestCase.target.capability;
  const task = manifestCase.task;
  const push = (code: ManifestProblemCodeV1, at: string, message: string): void => void problems.push({ code, where: `${where}${at}`, message });
  const asyncTarget = capability.executionMode === 'async-job';
  if ((family.execution === 'async') !== asyncTarget) {
    push('MANIFEST_EXECUTION_MODE_MISMATCH', '.target.capability.executionMode', `the family runs ${family.execution === 'async' ? 'async jobs (async-job)' : 'sync or stream executions (sync or stream-capable)'}`);
  }
  if (!capability.taskKinds.includes(task.kind)) push('MANIFEST_TASK_UNSUPPORTED', '.task.kind', 'the target capability does not list the task kind');
  if (task.kind === 'chat' && task.stream && capability.executionMode !== 'stream-capable') {
    push('MANIFEST_TASK_UNSUPPORTED', '.task.stream', 'a streamed task needs a stream-capable target');
  }
  if (task.kind === 'embedding' && capability.embedding === undefined) push('MANIFEST_TASK_UNSUPPORTED', '.target.capability.embedding', 'an embedding target declares its embedding space');
  if (task.kind === 'image-edit') push('MANIFEST_TASK_UNSUPPORTED', '.task.kind', 'image edits need prepared media, which a manifest cannot carry');
  if (asyncTarget && manifestCase.async === undefined) push('MANIFEST_ASYNC_BOUNDS_MISSING', '.async', 'an async-job case needs polling bounds');
  if (!asyncTarget && manifestCase.async !== undefined) push('MANIFEST_ASYNC_BOUNDS_UNEXPECTED', '.async', 'only async-job cases take polling bounds');
  if (asyncTarget && family.execution === 'async') {
    if (!family.jobOperations.includes('get')) push('MANIFEST_JOB_OPERATION_UNSUPPORTED', '.async', 'the family declares no get operation to poll with');
    if (manifestCase.async?.listAfterSuccess === true && !family.jobOperations.includes('list')) {
      push('MANIFEST_JOB_OPERATION_UNSUPPORTED', '.async.listAfterSuccess', 'the family declares no list operation');
    }
  }
  const wantsAccessKey = family.authScheme === 'hs256-jwt';
  if (wantsAccessKey !== (manifestCase.connection.credentials.type === 'access-key')) {
    push('MANIFEST_CREDENTIALS_MISMATCH', '.connection.credentials.type', `the family's auth scheme takes ${wantsAccessKey ? 'access-key' : 'api-key'} credentials`);
  }
}

/**
 * Validates a manifest offline: the schema, unique case ids, every case's family registered and its target, task,
 * bounds and credentials consistent with the family, coverage of every registered family (or of the shard's
 * families), one connection per connection reference, and the request and duration caps against the exact worst case.
 */
export function validateCertificationManifest(input: unknown, registered: readonly RegisteredFamilyV1[]): ManifestValidationV1 {
  const registeredNames = registered.map((family) => family.protocolFamily as string);
  const parsed = certificationManifestV1Schema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 50).map((issue) => ({ code: 'MANIFEST_SCHEMA_INVALID' as const, where: schemaPath(issue.path), message: issue.message }));
    return { ok: false, problems, requiredFamilies: registeredNames };
  }
  const manifest = parsed.data;
  const problems: ManifestProblemV1[] = [];
  const requiredFamilies = manifest.shard?.families ?? registeredNames;

  const seenIds = new Set<string>();
  const connections = new Map<string, string>();
  manifest.cases.forEach((manifestCase, index) => {
    const where = `cases[${index}]`;
    if (seenIds.has(manifestCase.caseId)) problems.push({ code: 'MANIFEST_CASE_ID_DUPLICATE', where: `${where}.caseId`, message: 'case ids must be unique' });
    seenIds.add(manifestCase.caseId);
    const family = registered.find((candidate) => candidate.protocolFamily === manifestCase.target.capability.protocolFamily);
    if (family === undefined) {
      problems.push({ code: 'MANIFEST_FAMILY_UNREGISTERED', where: `${where}.target.capability.protocolFamily`, message: 'the engine does not register this family' });
    } else {
      checkCase(manifestCase, where, family, problems);
    }
    if (manifest.shard !== undefined && !manifest.shard.families.includes(manifestCase.target.capability.protocolFamily)) {
      problems.push({ code: 'MANIFEST_SHARD_MISMATCH', where: `${where}.target.capability.protocolFamily`, message: 'the case lies outside the shard families' });
    }
    const connection = canonicalJson(manifestCase.connection);
    const known = connections.get(manifestCase.target.connectionRef);
    if (known !== undefined && known !== connection) {
      problems.push({ code: 'MANIFEST_CONNECTION_CONFLICT', where: `${where}.connection`, message: 'another case names the same connectionRef with a different connection' });
    }
    connections.set(manifestCase.target.connectionRef, connection);
  });

  manifest.shard?.families.forEach((family, index) => {
    if (!registeredNames.includes(family)) problems.push({ code: 'MANIFEST_FAMILY_UNREGISTERED', where: `manifest.shard.families[${index}]`, message: 'the engine does not register this family' });
  });
  const covered = new Set(manifest.cases.map((manifestCase) => manifestCase.target.capability.protocolFamily as string));
  for (const family of requiredFamilies) {
    if (!covered.has(family)) problems.push({ code: 'MANIFEST_COVERAGE_INCOMPLETE', where: 'manifest.cases', message: `no case covers ${family}` });
  }

  const worstCase = worstCaseRequests(manifest);
  if (worstCase.total > manifest.caps.maxRequests) {
    problems.push({
      code: 'MANIFEST_REQUEST_CAP_EXCEEDED',
      where: 'manifest.caps.maxRequests',
      message: `the cases can make ${worstCase.total} requests (${worstCase.executionStarts} starts, ${worstCase.asyncGetObservations} gets, ${worstCase.asyncListObservations} lists), above the cap of ${manifest.caps.maxRequests}`,
    });
  }
  const pollingMs = worstCasePollingMs(manifest);
  if (pollingMs > manifest.caps.maxDurationMs) {
    problems.push({ code: 'MANIFEST_DURATION_CAP_EXCEEDED', where: 'manifest.caps.maxDurationMs', message: `polling at its bounds waits ${pollingMs} ms, above the cap of ${manifest.caps.maxDurationMs} ms` });
  }
  return { ok: problems.length === 0, problems, manifest, manifestFingerprint: manifestFingerprintOf(manifest), worstCase, requiredFamilies };
}
