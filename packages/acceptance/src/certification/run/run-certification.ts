import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, PROTOCOL_ENGINE_API_VERSION, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { CertificationError } from '../certification-error.js';
import {
  CERTIFICATION_EVIDENCE_VERSION_V1,
  writeEvidenceFile,
  type CaseEvidenceV1,
  type CertificationEvidenceV1,
  type OperationCountsV1,
  type RunStopReasonV1,
} from '../evidence/certification-evidence-v1.js';
import type { CertificationManifestV1 } from '../manifest/certification-manifest-v1.js';
import { registeredFamiliesOf } from '../manifest/registered-families.js';
import { caseFingerprintOf, validateCertificationManifest, type ManifestValidationV1 } from '../manifest/validate-manifest.js';
import {
  allowedHostnamesOf,
  allowlistResolver,
  CertificationTransports,
  countingTransport,
  credentialsOf,
  isPolicyFailure,
  preflightAddresses,
  systemResolver,
  type CertificationNetworkOverridesV1,
  type TransportTally,
} from './certification-network.js';
import { formatCaseLine, formatRunTable } from './format-run-report.js';
import { isStopSignal, RunStop, runCase, type CaseRunResult } from './run-case.js';

/** The exact acknowledgement every command that calls providers requires. */
export const REAL_PROVIDER_CALLS_ACK = 'I_AUTHORIZE_REAL_PROVIDER_CALLS';

/** Checks the acknowledgement phrase. @throws {CertificationError} `ACK_MISSING` or `ACK_MISMATCH` */
export function requireAcknowledgement(acknowledgement: string | undefined): void {
  if (acknowledgement === undefined || acknowledgement === '') throw new CertificationError('ACK_MISSING', `real provider calls need --ack-real-provider-calls ${REAL_PROVIDER_CALLS_ACK}`);
  if (acknowledgement !== REAL_PROVIDER_CALLS_ACK) throw new CertificationError('ACK_MISMATCH', 'the acknowledgement phrase is not the exact one required');
}

/** Shared options of the commands that call providers. */
export interface ProviderCallOptionsV1 {
  /** Values of the env file (only the variables the manifest names are read). */
  readonly env: ReadonlyMap<string, string>;
  /** Must be exactly {@link REAL_PROVIDER_CALLS_ACK}. */
  readonly acknowledgement: string | undefined;
  /** The suite to build the engine from (default: the builtin suite). */
  readonly suite?: TokenForgeProtocolSuiteV1;
  /** Network overrides for tests (library only; the CLIs never pass them). */
  readonly network?: CertificationNetworkOverridesV1;
  /** Marks the evidence as produced against a simulator (library only; the CLIs never set it). */
  readonly simulated?: boolean;
  /** Receives progress lines (never prompts, keys, ids, provider or model names). */
  readonly log?: (line: string) => void;
  /** Clock in epoch milliseconds. */
  readonly now?: () => number;
  /** Waits between polls; must reject when the signal aborts. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Options of {@link runCertification}. */
export interface RunCertificationOptionsV1 extends ProviderCallOptionsV1 {
  /** The manifest document (parsed JSON). */
  readonly manifest: unknown;
  /** Where the evidence file goes (created with mode 0600; never overwritten). */
  readonly evidencePath: string;
}

/** What a run produced. */
export interface RunCertificationResultV1 {
  /** True when the run completed and every case succeeded. */
  readonly ok: boolean;
  readonly evidence: CertificationEvidenceV1;
  readonly evidencePath: string;
}

/** The default sleep: a timer that rejects when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The engine, suite and validated manifest of a provider-calling command. @throws {CertificationError} `MANIFEST_INVALID` */
export function prepareManifest(manifest: unknown, suite: TokenForgeProtocolSuiteV1 | undefined): {
  readonly engine: ProtocolEngineV1;
  readonly suite: TokenForgeProtocolSuiteV1;
  readonly validation: ManifestValidationV1 & { readonly manifest: CertificationManifestV1 };
} {
  const chosen = suite ?? createBuiltinTokenForgeProtocolSuiteV1();
  const engine = createProtocolEngineV1({ registry: chosen.registry });
  const validation = validateCertificationManifest(manifest, registeredFamiliesOf(engine, chosen));
  if (!validation.ok || validation.manifest === undefined) {
    const first = validation.problems[0];
    throw new CertificationError('MANIFEST_INVALID', `the manifest has ${validation.problems.length} problem(s)${first === undefined ? '' : `, first ${first.code} at ${first.where}`}`);
  }
  return { engine, suite: chosen, validation: validation as ManifestValidationV1 & { readonly manifest: CertificationManifestV1 } };
}

/**
 * Runs every case of a manifest against real providers through the public engine API and writes evidence.
 *
 * Refused before any provider call (a {@link CertificationError}): a missing or wrong acknowledgement, an invalid
 * manifest (schema, family coverage, request or duration caps), a missing env variable, a provider host that resolves
 * to a non-public address. During the run: requests only to the manifest's origins, no redirects, async jobs polled
 * within their bounds and never cancelled, a stop at the request or duration cap. The evidence file is written
 * whenever a provider call may have happened; a run that stopped early is `incomplete` (never success).
 */
export async function runCertification(options: RunCertificationOptionsV1): Promise<RunCertificationResultV1> {
  requireAcknowledgement(options.acknowledgement);
  const { engine, suite, validation } = prepareManifest(options.manifest, options.suite);
  const manifest = validation.manifest;
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const credentials = manifest.cases.map((manifestCase, index) => credentialsOf(manifestCase, options.env, `case ${index + 1}`));
  const allowed = options.network?.allowedAddressCategories ?? [];
  const resolver = allowlistResolver(allowedHostnamesOf(manifest), options.network?.resolveHostname ?? systemResolver);

  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(new Error('duration cap')), manifest.caps.maxDurationMs);
  const startedAt = now();
  const totals: OperationCountsV1 = { executionStarts: 0, asyncGetObservations: 0, asyncListObservations: 0 };
  const tally: TransportTally = { httpRequests: 0, lastFailure: undefined };
  const transports = new CertificationTransports(resolver, options.network ?? {});
  const cases: CaseEvidenceV1[] = [];
  let stopReason: RunStopReasonV1 | undefined;
  try {
    await preflightAddresses(allowedHostnamesOf(manifest), resolver, allowed, controller.signal);
    log(`certifying ${manifest.cases.length} case(s) over ${validation.requiredFamilies.length} famil${validation.requiredFamilies.length === 1 ? 'y' : 'ies'}; request cap ${manifest.caps.maxRequests}`);
    const beforeOperation = (): void => {
      if (totals.executionStarts + totals.asyncGetObservations + totals.asyncListObservations >= manifest.caps.maxRequests) throw new RunStop('request-cap');
    };
    for (const [index, manifestCase] of manifest.cases.entries()) {
      const family = manifestCase.target.capability.protocolFamily;
      const base = {
        caseFingerprint: caseFingerprintOf(manifestCase),
        protocolFamily: family,
        executionMode: manifestCase.target.capability.executionMode,
        taskKind: manifestCase.task.kind,
        streamed: manifestCase.task.kind === 'chat' && manifestCase.task.stream,
      };
      if (stopReason !== undefined) {
        cases.push({ ...base, outcome: 'not-run', counts: {}, operations: { executionStarts: 0, asyncGetObservations: 0, asyncListObservations: 0 }, durationMs: 0 });
        continue;
      }
      const operations: OperationCountsV1 = { executionStarts: 0, asyncGetObservations: 0, asyncListObservations: 0 };
      const caseStarted = now();
      const caseCredentials = credentials[index];
      if (caseCredentials === undefined) throw new CertificationError('ENV_VARIABLE_MISSING', `case ${index + 1}: no credentials`);
      const transport = countingTransport(transports.transportFor(manifestCase, caseCredentials, suite.transportMetadataFor(family)), tally);
      const binding = createProtocolEngineTargetBindingV1({ target: manifestCase.target, bindTransport: () => transport });
      let result: CaseRunResult;
      try {
        result = await runCase(manifestCase, { engine, binding, signal: controller.signal, tally, now, sleep, beforeOperation: () => beforeOperation() }, operations);
      } catch (error) {
        if (!isStopSignal(error)) throw error;
        stopReason = error.reason;
        result = { outcome: 'error', counts: {}, error: { kind: 'certification', code: 'REQUEST_CAP_REACHED' } };
      }
      totals.executionStarts += operations.executionStarts;
      totals.asyncGetObservations += operations.asyncGetObservations;
      totals.asyncListObservations += operations.asyncListObservations;
      if (stopReason === undefined && controller.signal.aborted) stopReason = 'duration-cap';
      if (stopReason === undefined && result.error?.kind === 'transport' && isPolicyFailure(result.error.code)) stopReason = 'network-policy';
      const evidence: CaseEvidenceV1 = { ...base, ...result, operations, durationMs: Math.max(0, Math.round(now() - caseStarted)) };
      cases.push(evidence);
      log(formatCaseLine(index, manifest.cases.length, evidence));
    }
  } catch (error) {
    // Nothing reached a provider yet (a refusal): no evidence, the caller sees the error.
    if (cases.length === 0 && totals.executionStarts === 0 && tally.httpRequests === 0) throw error;
    stopReason = 'internal-error';
  } finally {
    clearTimeout(deadline);
    await transports.close();
  }

  const evidence: CertificationEvidenceV1 = {
    evidenceVersion: CERTIFICATION_EVIDENCE_VERSION_V1,
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    source: 'run',
    simulated: options.simulated === true,
    runStatus: stopReason === undefined ? 'completed' : 'incomplete',
    ...(stopReason === undefined ? {} : { stopReason }),
    manifestFingerprint: validation.manifestFingerprint as CertificationEvidenceV1['manifestFingerprint'],
    registeredFamilies: [...engine.protocolFamilies],
    requiredFamilies: [...validation.requiredFamilies] as CertificationEvidenceV1['requiredFamilies'],
    totals: { ...totals, httpRequests: tally.httpRequests },
    durationMs: Math.max(0, Math.round(now() - startedAt)),
    cases,
  };
  await writeEvidenceFile(options.evidencePath, evidence);
  for (const line of formatRunTable(evidence)) log(line);
  const ok = evidence.runStatus === 'completed' && cases.every((item) => item.outcome === 'succeeded');
  return { ok, evidence, evidencePath: options.evidencePath };
}
