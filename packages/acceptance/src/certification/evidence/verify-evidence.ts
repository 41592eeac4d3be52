import { PROTOCOL_ENGINE_API_VERSION } from '@tokenforge/protocol-engine';
import type { CertificationManifestV1 } from '../manifest/certification-manifest-v1.js';
import { caseFingerprintOf } from '../manifest/validate-manifest.js';
import { certificationEvidenceV1Schema, type CertificationEvidenceV1 } from './certification-evidence-v1.js';

/** One evidence document to judge, with a label for the report (a file position, never its content). */
export interface EvidenceDocumentV1 {
  readonly label: string;
  readonly content: unknown;
}

/** The verdict on one evidence document. */
export interface EvidenceDocumentVerdictV1 {
  readonly label: string;
  /** True when the document can contribute success (valid, real, completed, same API, cases from this manifest). */
  readonly counts: boolean;
  /** Why it does not count (or notes), as stable phrases. */
  readonly notes: readonly string[];
}

/** The verdict on one registered family. */
export interface FamilyVerdictV1 {
  readonly protocolFamily: string;
  /** True when real success evidence exists for at least one manifest case of the family. */
  readonly certified: boolean;
  /** Succeeded cases of the family in counting documents. */
  readonly successCases: number;
  /** Why not, when not certified. */
  readonly reason?: 'no-manifest-case' | 'no-evidence' | 'no-success' | 'simulated-only' | 'incomplete-only';
}

/** What {@link verifyCertificationEvidence} concluded. */
export interface EvidenceVerificationV1 {
  /** True when every registered family is certified. */
  readonly ok: boolean;
  readonly families: readonly FamilyVerdictV1[];
  readonly documents: readonly EvidenceDocumentVerdictV1[];
}

/**
 * Judges evidence against a manifest and the engine's registered families. A family is certified when a valid,
 * non-simulated, completed evidence document of this API version holds a `succeeded` case whose fingerprint is a
 * manifest case of that family. Shards combine: several documents may together certify every family.
 */
export function verifyCertificationEvidence(
  manifest: CertificationManifestV1,
  registeredFamilies: readonly string[],
  documents: readonly EvidenceDocumentV1[],
): EvidenceVerificationV1 {
  const familyOfCase = new Map<string, string>();
  for (const manifestCase of manifest.cases) familyOfCase.set(caseFingerprintOf(manifestCase), manifestCase.target.capability.protocolFamily);

  const success = new Map<string, number>();
  const seen = new Map<string, Set<'simulated' | 'incomplete' | 'counted'>>();
  const verdicts: EvidenceDocumentVerdictV1[] = [];
  for (const document of documents) {
    const parsed = certificationEvidenceV1Schema.safeParse(document.content);
    if (!parsed.success) {
      verdicts.push({ label: document.label, counts: false, notes: ['not valid v1 evidence'] });
      continue;
    }
    const evidence: CertificationEvidenceV1 = parsed.data;
    const notes: string[] = [];
    if (evidence.simulated) notes.push('simulated evidence never certifies');
    if (evidence.runStatus !== 'completed') notes.push(`run incomplete${evidence.stopReason === undefined ? '' : ` (${evidence.stopReason})`}`);
    if (evidence.apiVersion !== PROTOCOL_ENGINE_API_VERSION) notes.push('another API version');
    const foreign = evidence.cases.filter((item) => familyOfCase.get(item.caseFingerprint) !== item.protocolFamily).length;
    if (foreign > 0) notes.push(`${foreign} case(s) not in this manifest`);
    const counts = notes.length === 0;
    const kind = evidence.simulated ? 'simulated' : evidence.runStatus !== 'completed' ? 'incomplete' : 'counted';
    for (const item of evidence.cases) {
      if (familyOfCase.get(item.caseFingerprint) !== item.protocolFamily) continue;
      let kinds = seen.get(item.protocolFamily);
      if (kinds === undefined) seen.set(item.protocolFamily, (kinds = new Set()));
      kinds.add(kind);
      if (counts && item.outcome === 'succeeded') success.set(item.protocolFamily, (success.get(item.protocolFamily) ?? 0) + 1);
    }
    verdicts.push({ label: document.label, counts, notes });
  }

  const manifestFamilies = new Set(familyOfCase.values());
  const families = registeredFamilies.map((protocolFamily): FamilyVerdictV1 => {
    const successCases = success.get(protocolFamily) ?? 0;
    if (successCases > 0) return { protocolFamily, certified: true, successCases };
    const kinds = seen.get(protocolFamily);
    const reason = !manifestFamilies.has(protocolFamily)
      ? 'no-manifest-case'
      : kinds === undefined
        ? 'no-evidence'
        : kinds.has('counted')
          ? 'no-success'
          : kinds.has('incomplete')
            ? 'incomplete-only'
            : 'simulated-only';
    return { protocolFamily, certified: false, successCases: 0, reason };
  });
  return { ok: families.every((family) => family.certified), families, documents: verdicts };
}

/** Report lines of a verification. */
export function formatVerification(verification: EvidenceVerificationV1): string[] {
  const lines = verification.documents.map((document) => `evidence ${document.label}: ${document.counts ? 'counts' : `does not count (${document.notes.join('; ')})`}`);
  lines.push('');
  for (const family of verification.families) {
    lines.push(`${family.certified ? 'certified    ' : 'NOT certified'} ${family.protocolFamily.padEnd(28)} ${family.certified ? `${family.successCases} real success case(s)` : (family.reason ?? '')}`);
  }
  const certified = verification.families.filter((family) => family.certified).length;
  lines.push('');
  lines.push(`${certified} of ${verification.families.length} registered families have real success evidence${verification.ok ? '' : ': certification incomplete'}`);
  return lines;
}
