import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCertificationError } from '../certification-error.js';
import { createSimulatorCertificate } from '@tokenforge/provider-simulator';
import { certificationEvidenceV1Schema, type CertificationEvidenceV1 } from '../evidence/certification-evidence-v1.js';
import { CANARY, startCertificationSimulator, type CertificationSimulator } from '../test-support/certification-simulator.js';
import { abortableSleep, REAL_PROVIDER_CALLS_ACK, runCertification } from './run-certification.js';

let sim: CertificationSimulator;
let directory: string;

beforeAll(async () => {
  sim = await startCertificationSimulator();
  directory = await mkdtemp(join(tmpdir(), 'tf-certify-'));
});

afterAll(async () => {
  await sim.close();
  await rm(directory, { recursive: true, force: true });
});

/** Every string an evidence file may hold: enums, family ids, fingerprints, timestamps, engine codes. */
const ALLOWED_STRING = /^(?:sha256:[0-9a-f]{16}|[a-z0-9-]+(?:\/v[0-9]+)?|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z|PROTOCOL_ENGINE_[A-Z_]+|[A-Z_]+|tokenforge-[a-z-]+\/v1)$/;

function stringsOf(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, found);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, found);
  return found;
}

describe('runCertification against the TLS simulator', () => {
  let evidence: CertificationEvidenceV1;
  let evidenceText: string;
  let output: string[];
  let evidencePath: string;

  beforeAll(async () => {
    output = [];
    evidencePath = join(directory, 'full', 'evidence.json');
    const result = await runCertification({
      manifest: sim.manifest,
      env: sim.env,
      acknowledgement: REAL_PROVIDER_CALLS_ACK,
      evidencePath,
      network: sim.network,
      simulated: true,
      log: (line) => output.push(line),
    });
    expect(result.ok).toBe(true);
    evidence = result.evidence;
    evidenceText = await readFile(evidencePath, 'utf8');
  });

  it('runs a case for every registered family and every case succeeds', () => {
    expect(new Set(evidence.cases.map((item) => item.protocolFamily))).toEqual(new Set(sim.registeredFamilies));
    expect(evidence.cases.map((item) => item.outcome)).toEqual(sim.manifest.cases.map(() => 'succeeded'));
    expect(evidence.runStatus).toBe('completed');
    expect(evidence.simulated).toBe(true);
  });

  it('counts execution starts and async observations separately, within the cap', () => {
    const asyncCases = sim.manifest.cases.filter((item) => item.async !== undefined).length;
    expect(evidence.totals.executionStarts).toBe(sim.manifest.cases.length);
    expect(evidence.totals.asyncListObservations).toBe(asyncCases);
    expect(evidence.totals.asyncGetObservations).toBeGreaterThanOrEqual(asyncCases);
    expect(evidence.totals.executionStarts + evidence.totals.asyncGetObservations + evidence.totals.asyncListObservations).toBeLessThanOrEqual(sim.manifest.caps.maxRequests);
    expect(evidence.totals.httpRequests).toBe(sim.simulator.requests.length);
    const async = evidence.cases.filter((item) => item.job !== undefined);
    expect(async.map((item) => [item.job?.acceptance, item.job?.finalState, item.job?.listed])).toEqual(async.map(() => ['accepted', 'succeeded', true]));
    expect(async.every((item) => /^sha256:[0-9a-f]{16}$/.test(item.job?.jobIdFingerprint ?? ''))).toBe(true);
  });

  it('never cancels a job', () => {
    expect(sim.simulator.requests.filter((request) => request.method === 'DELETE' || request.path.includes('cancel'))).toEqual([]);
  });

  it('writes schema-valid evidence of mode 0600 holding only bounded strings', async () => {
    expect((await stat(evidencePath)).mode & 0o777).toBe(0o600);
    const parsed = certificationEvidenceV1Schema.parse(JSON.parse(evidenceText));
    const strings = stringsOf(parsed);
    expect(strings.filter((value) => !ALLOWED_STRING.test(value))).toEqual([]);
    expect(evidence.cases.some((item) => (item.usage?.inputTokens ?? 0) > 0)).toBe(true);
  });

  it('never writes canaries, keys, request ids or job ids into output or evidence', async () => {
    const everything = `${output.join('\n')}\n${evidenceText}`;
    for (const canary of Object.values(CANARY)) expect(everything).not.toContain(canary);
    for (const secret of sim.env.values()) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/sim0001|sim-kling|req_sim|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(everything).not.toMatch(/localhost|127\.0\.0\.1/);
  });

  it('shows progress per case and a final table', () => {
    expect(output.filter((line) => /^(ok {2}|FAIL) \[\s*\d+\/\d+\]/.test(line))).toHaveLength(sim.manifest.cases.length);
    expect(output.join('\n')).toMatch(/execution starts: \d+; async get observations: \d+; async list observations: \d+/);
    expect(output.join('\n')).toContain('SIMULATED');
  });
});

describe('runCertification refusals', () => {
  const base = () => ({ manifest: sim.manifest, env: sim.env, network: sim.network, simulated: true, acknowledgement: REAL_PROVIDER_CALLS_ACK as string | undefined });

  async function refusal(overrides: Record<string, unknown>, name: string): Promise<string> {
    const before = sim.simulator.requests.length;
    const path = join(directory, `${name}.json`);
    const error: unknown = await runCertification({ ...base(), evidencePath: path, ...overrides }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isCertificationError(error)).toBe(true);
    expect(sim.simulator.requests.length).toBe(before);
    await expect(stat(path)).rejects.toThrow();
    return (error as { code: string }).code;
  }

  it('refuses a missing acknowledgement and a wrong phrase', async () => {
    expect(await refusal({ acknowledgement: undefined }, 'no-ack')).toBe('ACK_MISSING');
    expect(await refusal({ acknowledgement: 'i_authorize_real_provider_calls' }, 'bad-ack')).toBe('ACK_MISMATCH');
  });

  it('refuses a missing env variable', async () => {
    const env = new Map(sim.env);
    env.delete('COHERE_API_KEY');
    expect(await refusal({ env }, 'no-env')).toBe('ENV_VARIABLE_MISSING');
  });

  it('refuses incomplete family coverage and a request cap below the worst case', async () => {
    const incomplete = { ...sim.manifest, cases: sim.manifest.cases.filter((item) => item.target.capability.protocolFamily !== 'cohere-rerank/v1') };
    expect(await refusal({ manifest: incomplete }, 'incomplete')).toBe('MANIFEST_INVALID');
    const capped = { ...sim.manifest, caps: { ...sim.manifest.caps, maxRequests: sim.manifest.caps.maxRequests - 1 } };
    expect(await refusal({ manifest: capped }, 'capped')).toBe('MANIFEST_INVALID');
  });

  it('refuses provider hosts that resolve to private, loopback or cloud-metadata addresses', async () => {
    const strict = { ...sim.network, allowedAddressCategories: [] };
    expect(await refusal({ network: strict }, 'loopback')).toBe('ADDRESS_REFUSED');
    for (const address of ['10.1.2.3', '192.168.4.5', '169.254.169.254', '::ffff:10.0.0.1']) {
      const network = { ...sim.network, resolveHostname: async () => [address] };
      expect(await refusal({ network }, `private-${address.replace(/[:.]/g, '-')}`)).toBe('ADDRESS_REFUSED');
    }
  });

  it('refuses the run when a resolver answer mixes a public and a private address', async () => {
    const network = { ...sim.network, resolveHostname: async () => ['127.0.0.1', '10.0.0.9'] };
    expect(await refusal({ network }, 'mixed')).toBe('ADDRESS_REFUSED');
  });
});

describe('runCertification stops on a redirect', () => {
  it('refuses a cross-origin redirect and writes incomplete, non-success evidence', async () => {
    const certificate = await createSimulatorCertificate();
    let hits = 0;
    const server = createServer({ cert: certificate.cert, key: certificate.key }, (_request, response) => {
      hits += 1;
      response.writeHead(302, { location: 'https://elsewhere.example.com/v1/steal' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const manifest = { ...sim.manifest, cases: sim.manifest.cases.map((item) => ({ ...item, connection: { ...item.connection, origin: `https://localhost:${port}` } })) };
      const output: string[] = [];
      const result = await runCertification({
        manifest,
        env: sim.env,
        acknowledgement: REAL_PROVIDER_CALLS_ACK,
        evidencePath: join(directory, 'redirect.json'),
        network: { ...sim.network, trustedCertificates: certificate.cert },
        simulated: true,
        log: (line) => output.push(line),
      });
      expect(result.ok).toBe(false);
      expect(result.evidence).toMatchObject({ runStatus: 'incomplete', stopReason: 'network-policy' });
      expect(result.evidence.cases[0]).toMatchObject({ outcome: expect.stringMatching(/^(failed|error)$/), error: { kind: 'transport', code: 'redirect-refused' } });
      expect(result.evidence.cases.slice(1).map((item) => item.outcome)).toEqual(manifest.cases.slice(1).map(() => 'not-run'));
      expect(hits).toBe(1);
      expect(output.join('\n')).not.toContain('elsewhere');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('runCertification stops at the duration cap', () => {
  it('aborts polling when the cap passes and writes incomplete evidence, never cancelling the job', async () => {
    const cases = sim.manifest.cases
      .filter((item) => item.target.capability.protocolFamily === 'dashscope-tasks/v1')
      .map((item) => ({ ...item, target: { ...item.target, providerModel: 'job.60000.60000' }, async: { maxPolls: 5, pollIntervalMs: 100 } }));
    const manifest = { ...sim.manifest, shard: { families: ['dashscope-tasks/v1'] }, caps: { maxRequests: 6, maxDurationMs: 1000 }, cases };
    const before = sim.simulator.requests.length;
    const result = await runCertification({
      manifest,
      env: sim.env,
      acknowledgement: REAL_PROVIDER_CALLS_ACK,
      evidencePath: join(directory, 'duration.json'),
      network: sim.network,
      simulated: true,
      sleep: (_ms, signal) => abortableSleep(400, signal),
    });
    expect(result.ok).toBe(false);
    expect(result.evidence).toMatchObject({ runStatus: 'incomplete', stopReason: 'duration-cap' });
    expect(result.evidence.cases[0]?.job?.acceptance).toBe('accepted');
    expect(result.evidence.cases[0]?.job?.polls).toBeLessThan(5);
    expect(sim.simulator.requests.slice(before).filter((request) => request.method === 'DELETE' || request.path.includes('cancel'))).toEqual([]);
  });
});
