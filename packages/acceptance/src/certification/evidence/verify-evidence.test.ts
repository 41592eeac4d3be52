import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import { createCertificationManifestTemplate } from '../manifest/manifest-template.js';
import { registeredFamiliesOf } from '../manifest/registered-families.js';
import { syntheticEvidence } from '../test-support/synthetic-evidence.js';
import { formatVerification, verifyCertificationEvidence } from './verify-evidence.js';

const suite = createBuiltinTokenForgeProtocolSuiteV1();
const engine = createProtocolEngineV1({ registry: suite.registry });
const families = engine.protocolFamilies;
const manifest = createCertificationManifestTemplate(registeredFamiliesOf(engine, suite)).manifest;
const complete = syntheticEvidence(manifest, families);

function verify(...contents: unknown[]) {
  return verifyCertificationEvidence(manifest, families, contents.map((content, index) => ({ label: `#${index + 1}`, content })));
}

describe('verifyCertificationEvidence', () => {
  it('certifies every registered family from complete real evidence', () => {
    const result = verify(complete);
    expect(result.ok).toBe(true);
    expect(result.families.map((family) => family.certified)).toEqual(families.map(() => true));
    expect(formatVerification(result).at(-1)).toBe('9 of 9 registered families have real success evidence');
  });

  it('never certifies from simulated evidence', () => {
    const result = verify({ ...complete, simulated: true });
    expect(result.ok).toBe(false);
    expect(new Set(result.families.map((family) => family.reason))).toEqual(new Set(['simulated-only']));
    expect(result.documents[0]?.notes).toContain('simulated evidence never certifies');
  });

  it('never certifies from an incomplete run', () => {
    const result = verify({ ...complete, runStatus: 'incomplete', stopReason: 'duration-cap' });
    expect(result.ok).toBe(false);
    expect(new Set(result.families.map((family) => family.reason))).toEqual(new Set(['incomplete-only']));
  });

  it('names the families without success evidence', () => {
    const partial = { ...complete, cases: complete.cases.map((item) => (item.protocolFamily === 'kling-video/v1' ? { ...item, outcome: 'polling-exhausted' as const } : item)) };
    const missing = { ...complete, cases: complete.cases.filter((item) => item.protocolFamily !== 'dashscope-tasks/v1') };
    const result = verify(partial);
    expect(result.families.filter((family) => !family.certified)).toEqual([{ protocolFamily: 'kling-video/v1', certified: false, successCases: 0, reason: 'no-success' }]);
    expect(verify(missing).families.find((family) => family.protocolFamily === 'dashscope-tasks/v1')?.reason).toBe('no-evidence');
  });

  it('combines shards', () => {
    const half = Math.floor(complete.cases.length / 2);
    expect(verify({ ...complete, cases: complete.cases.slice(0, half) }, { ...complete, cases: complete.cases.slice(half) }).ok).toBe(true);
  });

  it('refuses evidence whose cases are not in this manifest, and malformed evidence', () => {
    const foreign = { ...complete, cases: complete.cases.map((item) => ({ ...item, caseFingerprint: 'sha256:0000000000000000' })) };
    const result = verify(foreign, { ...complete, extra: 'field' }, 'not evidence');
    expect(result.ok).toBe(false);
    expect(result.documents.map((document) => document.counts)).toEqual([false, false, false]);
    expect(result.documents[1]?.notes).toEqual(['not valid v1 evidence']);
  });
});
