import type { ProtocolFamily } from '@tokenforge/model-protocol';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCertificationError } from '../certification-error.js';
import { diagnoseAsyncJobs, formatDiagnosis } from '../diagnose/diagnose-async-jobs.js';
import type { CertificationEvidenceV1 } from '../evidence/certification-evidence-v1.js';
import { verifyCertificationEvidence } from '../evidence/verify-evidence.js';
import type { CertificationManifestV1 } from '../manifest/certification-manifest-v1.js';
import { withExactCaps } from '../manifest/manifest-template.js';
import { REAL_PROVIDER_CALLS_ACK, runCertification } from '../run/run-certification.js';
import { CANARY, startCertificationSimulator, type CertificationSimulator } from '../test-support/certification-simulator.js';
import { recoverAsyncShard } from './recover-async-shard.js';

let sim: CertificationSimulator;
let directory: string;

beforeAll(async () => {
  sim = await startCertificationSimulator();
  directory = await mkdtemp(join(tmpdir(), 'tf-recover-'));
});

afterAll(async () => {
  await sim.close();
  await rm(directory, { recursive: true, force: true });
});

/** A one-family shard whose job takes `ms` to finish (simulator scenario in the model name) and one poll at most. */
function slowShard(family: ProtocolFamily, ms: number): CertificationManifestV1 {
  const cases = sim.manifest.cases
    .filter((item) => item.target.capability.protocolFamily === family)
    .map((item) => ({ ...item, target: { ...item.target, providerModel: `job.${ms}.${ms}` }, async: { maxPolls: 1, pollIntervalMs: 0 } }));
  return withExactCaps({ ...sim.manifest, shard: { families: [family] }, cases });
}

const common = () => ({ env: sim.env, acknowledgement: REAL_PROVIDER_CALLS_ACK, network: sim.network, simulated: true });

async function exhaustedRun(family: ProtocolFamily, name: string): Promise<{ manifest: CertificationManifestV1; evidence: CertificationEvidenceV1; startedAt: string }> {
  const manifest = slowShard(family, 400);
  const startedAt = new Date(Date.now() - 1000).toISOString();
  const run = await runCertification({ ...common(), manifest, evidencePath: join(directory, `${name}-run.json`) });
  expect(run.evidence.cases.map((item) => item.outcome)).toEqual(['polling-exhausted']);
  expect(run.ok).toBe(false);
  return { manifest, evidence: run.evidence, startedAt };
}

async function waitForJobs(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

describe.each(['dashscope-tasks/v1', 'kling-video/v1'] as const)('polling exhaustion, diagnosis and recovery (%s)', (family) => {
  const name = family.split('/')[0] as string;

  it('recovers the accepted job without resubmitting and writes standard success evidence', async () => {
    const { manifest, evidence } = await exhaustedRun(family, name);
    expect(evidence.runStatus).toBe('completed');
    expect(evidence.cases[0]?.job).toMatchObject({ acceptance: 'accepted', polls: 1 });
    await waitForJobs();
    const before = sim.simulator.requests.length;
    const output: string[] = [];
    const outputPath = join(directory, `${name}-recovered.json`);
    const result = await recoverAsyncShard({ ...common(), manifest, failureEvidence: evidence, outputPath, log: (line) => output.push(line) });
    const during = sim.simulator.requests.slice(before);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((request) => request.method === 'GET')).toBe(true);
    expect(result.ok).toBe(true);
    expect(result.listCalls).toBe(1);
    expect(result.evidence).toMatchObject({ source: 'recovery', runStatus: 'completed', simulated: true, totals: { executionStarts: 0, asyncGetObservations: 0, asyncListObservations: 1 } });
    expect(result.evidence.cases[0]).toMatchObject({ outcome: 'succeeded', caseFingerprint: evidence.cases[0]?.caseFingerprint, job: { finalState: 'succeeded', listed: true, jobIdFingerprint: evidence.cases[0]?.job?.jobIdFingerprint } });
    expect((await stat(outputPath)).mode & 0o777).toBe(0o600);
    const text = `${output.join('\n')}${await readFile(outputPath, 'utf8')}`;
    for (const canary of Object.values(CANARY)) expect(text).not.toContain(canary);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}|job\.400/);

    // Simulated recovered evidence never certifies; the same facts from a real provider would.
    const verdict = verifyCertificationEvidence(manifest, [family], [{ label: '#1', content: result.evidence }]);
    expect(verdict.families[0]).toMatchObject({ certified: false, reason: 'simulated-only' });
    expect(verifyCertificationEvidence(manifest, [family], [{ label: '#1', content: { ...result.evidence, simulated: false } }]).ok).toBe(true);
  });

  it('diagnoses the accepted jobs with counts only', async () => {
    const createdAfter = new Date(Date.now() - 60_000).toISOString();
    const shard = slowShard(family, 400);
    const before = sim.simulator.requests.length;
    const rows = await diagnoseAsyncJobs({ ...common(), manifest: shard, createdAfter });
    expect(sim.simulator.requests.slice(before).every((request) => request.method === 'GET')).toBe(true);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.matches).toBeGreaterThanOrEqual(1);
    expect(rows[0]?.states.succeeded).toBeGreaterThanOrEqual(1);
    const text = formatDiagnosis(rows).join('\n');
    expect(text).toMatch(new RegExp(`^case 1 ${family}: \\d+ matching job\\(s\\)`));
    for (const canary of Object.values(CANARY)) expect(text).not.toContain(canary);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}|job\.400|localhost/);
  });
});

describe('recovery refusals', () => {
  let manifest: CertificationManifestV1;
  let evidence: CertificationEvidenceV1;

  beforeAll(async () => {
    ({ manifest, evidence } = await exhaustedRun('dashscope-tasks/v1', 'refusals'));
  });

  async function refused(overrides: Record<string, unknown>, file: string): Promise<string> {
    const before = sim.simulator.requests.length;
    const outputPath = join(directory, `${file}.json`);
    const error: unknown = await recoverAsyncShard({ ...common(), manifest, failureEvidence: evidence, outputPath, ...overrides }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isCertificationError(error)).toBe(true);
    expect(sim.simulator.requests.slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
    await expect(stat(outputPath)).rejects.toThrow();
    return (error as { code: string }).code;
  }

  it('refuses without the acknowledgement', async () => {
    expect(await refused({ acknowledgement: 'ok' }, 'ack')).toBe('ACK_MISMATCH');
  });

  it('refuses evidence of another manifest, malformed evidence and evidence without a polling-exhausted case', async () => {
    expect(await refused({ manifest: { ...manifest, caps: { ...manifest.caps, maxDurationMs: manifest.caps.maxDurationMs + 1 } } }, 'other-manifest')).toBe('EVIDENCE_MISMATCH');
    expect(await refused({ failureEvidence: { ...evidence, extra: true } }, 'malformed')).toBe('EVIDENCE_INVALID');
    const succeeded = { ...evidence, cases: evidence.cases.map((item) => ({ ...item, outcome: 'succeeded' })) };
    expect(await refused({ failureEvidence: succeeded }, 'no-exhausted')).toBe('RECOVERY_REFUSED');
  });

  it('refuses when no job in the window matches the evidence fingerprint', async () => {
    const other = { ...evidence, cases: evidence.cases.map((item) => ({ ...item, job: { ...item.job, jobIdFingerprint: 'sha256:0123456789abcdef' } })) };
    expect(await refused({ failureEvidence: other }, 'no-match')).toBe('RECOVERY_REFUSED');
  });

  it('refuses when the submission window holds no job', async () => {
    const old = {
      ...evidence,
      cases: evidence.cases.map((item) => ({ ...item, job: { ...item.job, submittedAfter: '2020-01-01T00:00:00.000Z', submittedBefore: '2020-01-01T00:00:01.000Z' } })),
    };
    expect(await refused({ failureEvidence: old }, 'old-window')).toBe('RECOVERY_REFUSED');
  });

  it('writes non-success evidence when the matching job is not succeeded', async () => {
    const { manifest: slow, evidence: slowEvidence } = await (async () => {
      const shard = slowShard('dashscope-tasks/v1', 60_000);
      const run = await runCertification({ ...common(), manifest: shard, evidencePath: join(directory, 'still-running-run.json') });
      return { manifest: shard, evidence: run.evidence };
    })();
    const result = await recoverAsyncShard({ ...common(), manifest: slow, failureEvidence: slowEvidence, outputPath: join(directory, 'still-running.json') });
    expect(result.ok).toBe(false);
    expect(result.evidence.cases[0]).toMatchObject({ outcome: 'polling-exhausted', job: { finalState: 'queued' } });
  });
});
