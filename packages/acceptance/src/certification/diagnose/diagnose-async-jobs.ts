import { ASYNC_JOB_STATES_V2, utcTimestampSchema, type AsyncJobStateV2 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1 } from '@tokenforge/protocol-engine';
import { CertificationError } from '../certification-error.js';
import { registeredFamiliesOf } from '../manifest/registered-families.js';
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
import { errorFacts } from '../run/run-case.js';
import { prepareManifest, requireAcknowledgement, type ProviderCallOptionsV1 } from '../run/run-certification.js';

/** Jobs read per diagnosis: one page of this size per async case. */
export const DIAGNOSIS_PAGE_SIZE = 100;

/** Options of {@link diagnoseAsyncJobs}. */
export interface DiagnoseAsyncJobsOptionsV1 extends Omit<ProviderCallOptionsV1, 'simulated' | 'sleep' | 'now'> {
  /** The manifest document (parsed JSON); its async cases whose family declares `list` are diagnosed. */
  readonly manifest: unknown;
  /** Only jobs created at or after this instant (UTC ISO). */
  readonly createdAfter: string;
}

/** What one list call showed: counts only. */
export interface AsyncDiagnosisRowV1 {
  readonly protocolFamily: string;
  /** Position of the case in the manifest (1-based). */
  readonly caseNumber: number;
  /** Jobs on the page inside the window. */
  readonly matches: number;
  /** The provider's total (or a lower bound, see `totalKind`). */
  readonly total?: number;
  readonly totalKind?: 'exact' | 'lower-bound';
  readonly states: Readonly<Record<AsyncJobStateV2, number>>;
  /** Normalized failure codes of failed jobs, with counts. */
  readonly failureCodes: Readonly<Record<string, number>>;
  /** When the list call failed: a bounded engine code or transport reason. */
  readonly error?: { readonly kind: string; readonly code: string };
}

/**
 * A read-only diagnosis of accepted async work: one `engine.jobs.list` page per async case (families that declare
 * list), filtered to jobs created after `createdAfter`. Never starts, gets or cancels a job. Reports counts only: no
 * job ids, models, URLs, messages or bodies. A diagnosis never satisfies certification.
 */
export async function diagnoseAsyncJobs(options: DiagnoseAsyncJobsOptionsV1): Promise<readonly AsyncDiagnosisRowV1[]> {
  requireAcknowledgement(options.acknowledgement);
  if (!utcTimestampSchema.safeParse(options.createdAfter).success) throw new CertificationError('USAGE_INVALID', '--created-after must be a UTC timestamp such as 2026-08-18T03:00:00.000Z');
  const { engine, suite, validation } = prepareManifest(options.manifest, options.suite);
  const registered = registeredFamiliesOf(engine, suite);
  const manifest = validation.manifest;
  const targets = manifest.cases
    .map((manifestCase, index) => ({ manifestCase, caseNumber: index + 1 }))
    .filter(({ manifestCase }) => manifestCase.async !== undefined && registered.find((family) => family.protocolFamily === manifestCase.target.capability.protocolFamily)?.jobOperations.includes('list') === true);
  if (targets.length === 0) throw new CertificationError('USAGE_INVALID', 'the manifest has no async case whose family declares list');
  const credentials = targets.map(({ manifestCase, caseNumber }) => credentialsOf(manifestCase, options.env, `case ${caseNumber}`));
  const resolver = allowlistResolver(allowedHostnamesOf(manifest), options.network?.resolveHostname ?? systemResolver);
  const signal = new AbortController().signal;
  await preflightAddresses(allowedHostnamesOf(manifest), resolver, options.network?.allowedAddressCategories ?? [], signal);
  const transports = new CertificationTransports(resolver, options.network ?? {});
  const rows: AsyncDiagnosisRowV1[] = [];
  try {
    for (const [index, { manifestCase, caseNumber }] of targets.entries()) {
      const family = manifestCase.target.capability.protocolFamily;
      const tally: TransportTally = { httpRequests: 0, lastFailure: undefined };
      const transport = countingTransport(transports.transportFor(manifestCase, credentials[index] as NonNullable<(typeof credentials)[number]>, suite.transportMetadataFor(family)), tally);
      const binding = createProtocolEngineTargetBindingV1({ target: manifestCase.target, bindTransport: () => transport });
      const states = Object.fromEntries(ASYNC_JOB_STATES_V2.map((state) => [state, 0])) as Record<AsyncJobStateV2, number>;
      const failureCodes: Record<string, number> = {};
      try {
        const page = await engine.jobs.list({ binding, pageNum: 1, pageSize: DIAGNOSIS_PAGE_SIZE, createdAfter: options.createdAfter, signal });
        for (const item of page.items) {
          states[item.state] += 1;
          if (item.failure !== undefined) failureCodes[item.failure.code] = (failureCodes[item.failure.code] ?? 0) + 1;
        }
        rows.push({ protocolFamily: family, caseNumber, matches: page.items.length, total: page.total, ...(page.totalKind === undefined ? {} : { totalKind: page.totalKind }), states, failureCodes });
      } catch (error) {
        rows.push({ protocolFamily: family, caseNumber, matches: 0, states, failureCodes, error: errorFacts(error, tally) });
      }
    }
  } finally {
    await transports.close();
  }
  return rows;
}

/** Report lines of a diagnosis. */
export function formatDiagnosis(rows: readonly AsyncDiagnosisRowV1[]): string[] {
  const lines = rows.map((row) => {
    const states = ASYNC_JOB_STATES_V2.map((state) => `${state} ${row.states[state]}`).join(', ');
    const codes = Object.entries(row.failureCodes).map(([code, count]) => `${code} x${count}`).join(', ') || '-';
    const total = row.total === undefined ? '' : ` (total ${row.totalKind === 'lower-bound' ? '>= ' : ''}${row.total})`;
    if (row.error !== undefined) return `case ${row.caseNumber} ${row.protocolFamily}: list failed: ${row.error.kind} ${row.error.code}`;
    return `case ${row.caseNumber} ${row.protocolFamily}: ${row.matches} matching job(s)${total}; ${states}; failure codes: ${codes}`;
  });
  lines.push('diagnosis only: this never satisfies certification');
  return lines;
}
