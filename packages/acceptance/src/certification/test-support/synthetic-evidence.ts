import { PROTOCOL_ENGINE_API_VERSION } from '@tokenforge/protocol-engine';
import { CERTIFICATION_EVIDENCE_VERSION_V1, type CaseEvidenceV1, type CertificationEvidenceV1 } from '../evidence/certification-evidence-v1.js';
import type { CertificationManifestV1 } from '../manifest/certification-manifest-v1.js';
import { caseFingerprintOf, manifestFingerprintOf } from '../manifest/validate-manifest.js';

/** Evidence of a completed real run in which every case of `manifest` succeeded (tests edit it from there). */
export function syntheticEvidence(manifest: CertificationManifestV1, registeredFamilies: readonly string[]): CertificationEvidenceV1 {
  const cases: CaseEvidenceV1[] = manifest.cases.map((item) => ({
    caseFingerprint: caseFingerprintOf(item),
    protocolFamily: item.target.capability.protocolFamily,
    executionMode: item.target.capability.executionMode,
    taskKind: item.task.kind,
    streamed: item.task.kind === 'chat' && item.task.stream,
    outcome: 'succeeded',
    counts: {},
    operations: { executionStarts: 1, asyncGetObservations: 0, asyncListObservations: 0 },
    durationMs: 10,
  }));
  return {
    evidenceVersion: CERTIFICATION_EVIDENCE_VERSION_V1,
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    source: 'run',
    simulated: false,
    runStatus: 'completed',
    manifestFingerprint: manifestFingerprintOf(manifest),
    registeredFamilies: [...registeredFamilies] as CertificationEvidenceV1['registeredFamilies'],
    requiredFamilies: [...registeredFamilies] as CertificationEvidenceV1['requiredFamilies'],
    totals: { executionStarts: cases.length, asyncGetObservations: 0, asyncListObservations: 0, httpRequests: cases.length },
    durationMs: 100,
    cases,
  };
}
