import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import type { CertificationManifestV1, ManifestCaseV1 } from './certification-manifest-v1.js';
import { createCertificationManifestTemplate, withExactCaps } from './manifest-template.js';
import { registeredFamiliesOf } from './registered-families.js';
import { caseFingerprintOf, manifestFingerprintOf, validateCertificationManifest } from './validate-manifest.js';
import { worstCaseRequests } from './worst-case-requests.js';

const suite = createBuiltinTokenForgeProtocolSuiteV1();
const engine = createProtocolEngineV1({ registry: suite.registry });
const registered = registeredFamiliesOf(engine, suite);
const template = createCertificationManifestTemplate(registered).manifest;

function codesOf(manifest: unknown): string[] {
  return validateCertificationManifest(manifest, registered).problems.map((problem) => problem.code);
}

function editCase(family: string, edit: (item: ManifestCaseV1) => ManifestCaseV1): CertificationManifestV1 {
  return { ...template, cases: template.cases.map((item) => (item.target.capability.protocolFamily === family ? edit(item) : item)) };
}

describe('validateCertificationManifest', () => {
  it('accepts the template', () => {
    expect(codesOf(template)).toEqual([]);
  });

  it('reports schema problems with their path', () => {
    const result = validateCertificationManifest({ ...template, manifestVersion: 'v0' }, registered);
    expect(result.ok).toBe(false);
    expect(result.problems[0]).toMatchObject({ code: 'MANIFEST_SCHEMA_INVALID', where: 'manifest.manifestVersion' });
  });

  it.each([
    ['http origin', 'http://api.example.com'],
    ['IP literal', 'https://10.0.0.1'],
    ['IPv6 literal', 'https://[::1]'],
    ['path', 'https://api.example.com/v1'],
    ['userinfo', 'https://user:pass@api.example.com'],
    ['query', 'https://api.example.com?x=1'],
  ])('refuses an origin with %s', (_name, origin) => {
    const manifest = editCase('openai-chat/v1', (item) => ({ ...item, connection: { ...item.connection, origin } }));
    expect(codesOf(manifest)).toContain('MANIFEST_SCHEMA_INVALID');
  });

  it('refuses a secret-looking value where an env variable name belongs', () => {
    const manifest = editCase('openai-chat/v1', (item) => ({ ...item, connection: { ...item.connection, credentials: { type: 'api-key', apiKeyEnv: 'sk-live-abc123' } } }));
    expect(codesOf(manifest)).toContain('MANIFEST_SCHEMA_INVALID');
  });

  it('requires a case for every registered family', () => {
    const manifest = { ...template, cases: template.cases.filter((item) => item.target.capability.protocolFamily !== 'kling-video/v1') };
    const result = validateCertificationManifest(withExactCaps(manifest), registered);
    expect(result.problems).toEqual([{ code: 'MANIFEST_COVERAGE_INCOMPLETE', where: 'manifest.cases', message: 'no case covers kling-video/v1' }]);
  });

  it('lets a shard cover only its families, and refuses cases outside it', () => {
    const shardCases = template.cases.filter((item) => item.target.capability.protocolFamily === 'kling-video/v1');
    expect(codesOf(withExactCaps({ ...template, shard: { families: ['kling-video/v1'] }, cases: shardCases }))).toEqual([]);
    expect(codesOf(withExactCaps({ ...template, shard: { families: ['kling-video/v1', 'dashscope-tasks/v1'] }, cases: shardCases }))).toEqual(['MANIFEST_COVERAGE_INCOMPLETE']);
    expect(codesOf({ ...template, shard: { families: ['kling-video/v1'] } })).toContain('MANIFEST_SHARD_MISMATCH');
  });

  it('refuses unregistered families and duplicate case ids', () => {
    const unknown = editCase('cohere-rerank/v1', (item) => ({ ...item, target: { ...item.target, capability: { ...item.target.capability, protocolFamily: 'mystery-rerank/v1' } } }));
    expect(codesOf(unknown)).toEqual(expect.arrayContaining(['MANIFEST_FAMILY_UNREGISTERED', 'MANIFEST_COVERAGE_INCOMPLETE']));
    const first = template.cases[0] as ManifestCaseV1;
    expect(codesOf(withExactCaps({ ...template, cases: [...template.cases, first] }))).toContain('MANIFEST_CASE_ID_DUPLICATE');
  });

  it('checks execution mode, task kind, async bounds, job operations and credential shape against the family', () => {
    expect(codesOf(editCase('kling-video/v1', (item) => ({ ...item, target: { ...item.target, capability: { ...item.target.capability, executionMode: 'sync' } } })))).toEqual(
      expect.arrayContaining(['MANIFEST_EXECUTION_MODE_MISMATCH', 'MANIFEST_ASYNC_BOUNDS_UNEXPECTED']),
    );
    const { async: _bounds, ...withoutBounds } = template.cases.find((item) => item.async !== undefined) as ManifestCaseV1;
    expect(codesOf({ ...template, cases: template.cases.map((item) => (item.caseId === withoutBounds.caseId ? withoutBounds : item)) })).toContain('MANIFEST_ASYNC_BOUNDS_MISSING');
    expect(codesOf(editCase('cohere-rerank/v1', (item) => ({ ...item, task: { kind: 'embedding', inputs: ['x'] } })))).toContain('MANIFEST_TASK_UNSUPPORTED');
    expect(codesOf(editCase('kling-video/v1', (item) => ({ ...item, connection: { ...item.connection, credentials: { type: 'api-key', apiKeyEnv: 'KLING_KEY' } } })))).toEqual(['MANIFEST_CREDENTIALS_MISMATCH']);
    const noList = registered.map((family) => (family.protocolFamily === 'kling-video/v1' ? { ...family, jobOperations: ['get'] } : family));
    expect(validateCertificationManifest(template, noList).problems.map((problem) => problem.code)).toEqual(['MANIFEST_JOB_OPERATION_UNSUPPORTED']);
  });

  it('refuses one connection reference bound to two different connections', () => {
    const manifest = editCase('openai-chat/v1', (item) => (item.caseId.endsWith('stream') ? { ...item, connection: { ...item.connection, origin: 'https://other.example.com' } } : item));
    expect(codesOf(manifest)).toEqual(['MANIFEST_CONNECTION_CONFLICT']);
  });

  it('refuses a request cap below the exact worst case and accepts it at the worst case', () => {
    const worst = worstCaseRequests(template);
    const asyncCases = template.cases.filter((item) => item.async !== undefined);
    expect(worst).toEqual({
      executionStarts: template.cases.length,
      asyncGetObservations: asyncCases.reduce((sum, item) => sum + (item.async?.maxPolls ?? 0), 0),
      asyncListObservations: asyncCases.filter((item) => item.async?.listAfterSuccess === true).length,
      total: template.cases.length + asyncCases.reduce((sum, item) => sum + (item.async?.maxPolls ?? 0) + (item.async?.listAfterSuccess === true ? 1 : 0), 0),
    });
    expect(template.caps.maxRequests).toBe(worst.total);
    expect(codesOf({ ...template, caps: { ...template.caps, maxRequests: worst.total - 1 } })).toEqual(['MANIFEST_REQUEST_CAP_EXCEEDED']);
  });

  it('refuses a duration cap below the polling bounds', () => {
    expect(codesOf({ ...template, caps: { ...template.caps, maxDurationMs: 60_000 } })).toEqual(['MANIFEST_DURATION_CAP_EXCEEDED']);
  });

  it('fingerprints ignore key order and change with content', () => {
    const reordered = JSON.parse(JSON.stringify(template, Object.keys(template).reverse())) as CertificationManifestV1;
    expect(manifestFingerprintOf({ ...reordered, ...template })).toBe(manifestFingerprintOf(template));
    const first = template.cases[0] as ManifestCaseV1;
    expect(caseFingerprintOf({ ...first, caseId: `${first.caseId}-x` })).not.toBe(caseFingerprintOf(first));
  });
});
