import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticEvidence } from '../test-support/synthetic-evidence.js';
import { certificationExampleFiles } from '../manifest/write-example-files.js';
import type { CertificationManifestV1 } from '../manifest/certification-manifest-v1.js';
import { certifyCommand } from './certify-command.js';
import { diagnoseCommand } from './diagnose-command.js';
import { recoverCommand } from './recover-command.js';

const repositoryRoot = new URL('../../../../../', import.meta.url).pathname;
const example = join(repositoryRoot, 'examples/certification/protocol-engine-real.example.json');
const ACK = 'I_AUTHORIZE_REAL_PROVIDER_CALLS';
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tf-certify-cli-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await certifyCommand(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { status, out: out.join('\n'), err: err.join('\n') };
}

async function file(name: string, content: string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, content);
  return path;
}

describe('certify:protocol-engine-real (offline)', () => {
  it('validates the example manifest offline and exits 0', async () => {
    const result = await run('--manifest', example);
    expect(result.status).toBe(0);
    expect(result.out).toMatch(/manifest valid \(sha256:[0-9a-f]{16}\)/);
    expect(result.out).toContain('13 case(s) covering 9 registered families');
    expect(result.out).toMatch(/= 135 request\(s\), cap 135/);
  });

  it('reports every problem and exits 1', async () => {
    const manifest = JSON.parse(await readFile(example, 'utf8')) as CertificationManifestV1;
    const broken = { ...manifest, caps: { ...manifest.caps, maxRequests: 10 }, cases: manifest.cases.filter((item) => !item.caseId.startsWith('kling')) };
    const result = await run('--manifest', await file('broken.json', JSON.stringify(broken)));
    expect(result.status).toBe(1);
    expect(result.out).toContain('MANIFEST_COVERAGE_INCOMPLETE');
    expect(result.out).toContain('MANIFEST_REQUEST_CAP_EXCEEDED');
  });

  it('refuses unreadable and non-JSON manifests with exit 2', async () => {
    expect(await run('--manifest', join(directory, 'absent.json'))).toMatchObject({ status: 2, err: 'refused [MANIFEST_UNREADABLE]: the manifest file cannot be read' });
    expect((await run('--manifest', await file('text.json', 'sk-secret-not-json'))).err).toBe('refused [MANIFEST_UNREADABLE]: the manifest file is not JSON');
  });

  it('has no option that relaxes the network policy', async () => {
    for (const flag of ['--allow-loopback', '--allowed-address-categories', '--trusted-certificates', '--resolver', '--simulated', '--insecure']) {
      expect((await run('--manifest', example, flag, 'loopback')).err).toContain('USAGE_INVALID');
    }
  });

  it('writes a template whose request cap is the exact worst case and refuses to overwrite', async () => {
    const path = join(directory, 'template.json');
    const result = await run('--write-template', path);
    expect(result).toMatchObject({ status: 0, out: 'template written: 13 case(s), request cap 135 (exact worst case)' });
    const { $schema: _schema, ...expected } = JSON.parse(certificationExampleFiles().example) as Record<string, unknown>;
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(expected);
    expect((await run('--manifest', path)).status).toBe(0);
    expect((await run('--write-template', path)).err).toContain('OUTPUT_EXISTS');
  });
});

describe('certify:protocol-engine-real --run refusals (before any network)', () => {
  it('refuses a missing acknowledgement, a wrong phrase and a missing env file', async () => {
    const env = await file('one.env', 'OPENAI_API_KEY=x\n');
    expect((await run('--manifest', example, '--run', '--env-file', env)).err).toMatch(/^refused \[ACK_MISSING\]/);
    expect((await run('--manifest', example, '--run', '--env-file', env, '--ack-real-provider-calls', 'yes')).err).toBe(
      'refused [ACK_MISMATCH]: the acknowledgement phrase is not the exact one required',
    );
    expect((await run('--manifest', example, '--run', '--ack-real-provider-calls', ACK)).err).toBe('refused [ENV_FILE_MISSING]: --run needs --env-file');
  });

  it('refuses a missing env variable, naming the variable but never a value', async () => {
    const env = await file('partial.env', ['# keys', 'OPENAI_API_KEY="sk-canary-openai"', "export ANTHROPIC_API_KEY='sk-canary-anthropic'", 'GEMINI_API_KEY=g-canary'].join('\n'));
    const evidence = join(directory, 'never.json');
    const result = await run('--manifest', example, '--run', '--env-file', env, '--ack-real-provider-calls', ACK, '--evidence', evidence);
    expect(result.status).toBe(2);
    expect(result.err).toMatch(/^refused \[ENV_VARIABLE_MISSING\]: case \d+: the env file does not set COHERE_API_KEY$/);
    expect(`${result.out}${result.err}`).not.toContain('canary');
    await expect(stat(evidence)).rejects.toThrow();
  });

  it('refuses an invalid manifest before reading secrets', async () => {
    const manifest = JSON.parse(await readFile(example, 'utf8')) as CertificationManifestV1;
    const path = await file('capped.json', JSON.stringify({ ...manifest, caps: { ...manifest.caps, maxRequests: 1 } }));
    const result = await run('--manifest', path, '--run', '--env-file', await file('empty.env', ''), '--ack-real-provider-calls', ACK);
    expect(result.err).toMatch(/^refused \[MANIFEST_INVALID\]: the manifest has 1 problem\(s\), first MANIFEST_REQUEST_CAP_EXCEEDED/);
  });
});

describe('certify:protocol-engine-real --verify', () => {
  it('says per family whether real success evidence exists', async () => {
    const manifest = JSON.parse(await readFile(example, 'utf8')) as CertificationManifestV1;
    const evidence = syntheticEvidence(manifest, [...new Set(manifest.cases.map((item) => item.target.capability.protocolFamily))].sort());
    const real = await file('real.json', JSON.stringify(evidence));
    const simulated = await file('simulated.json', JSON.stringify({ ...evidence, simulated: true }));
    const ok = await run('--manifest', example, '--verify', real);
    expect(ok.status).toBe(0);
    expect(ok.out).toContain('9 of 9 registered families have real success evidence');
    const refused = await run('--manifest', example, '--verify', simulated);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('NOT certified kling-video/v1');
    expect(refused.out).toContain('simulated-only');
    expect((await run('--manifest', example, '--verify', simulated, real)).status).toBe(0);
  });
});

describe('diagnose and recover commands', () => {
  async function call(command: typeof diagnoseCommand, ...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const status = await command(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { status, out: out.join('\n'), err: err.join('\n') };
  }

  it('print their usage', async () => {
    expect((await call(diagnoseCommand, '--help')).out).toContain('diagnose:protocol-engine-real-async');
    expect((await call(recoverCommand, '--help')).out).toContain('recover:protocol-engine-real-shard');
  });

  it('refuse without the exact acknowledgement or an env file, before reading any file', async () => {
    const absent = join(directory, 'absent.json');
    expect((await call(diagnoseCommand, '--manifest', absent, '--created-after', '2026-01-01T00:00:00Z', '--env-file', absent)).err).toMatch(/^refused \[ACK_MISSING\]/);
    expect((await call(diagnoseCommand, '--manifest', absent, '--created-after', '2026-01-01T00:00:00Z', '--ack-real-provider-calls', ACK)).err).toMatch(/^refused \[ENV_FILE_MISSING\]/);
    const recover = ['--manifest', absent, '--failure-evidence', absent, '--output', join(directory, 'out.json')];
    expect((await call(recoverCommand, ...recover, '--env-file', absent, '--ack-real-provider-calls', 'I_AUTHORIZE')).err).toMatch(/^refused \[ACK_MISMATCH\]/);
    expect((await call(recoverCommand, ...recover, '--ack-real-provider-calls', ACK)).err).toMatch(/^refused \[ENV_FILE_MISSING\]/);
    expect((await call(recoverCommand, '--manifest', absent)).status).toBe(2);
  });
});

describe('the CLI entry script', () => {
  it('runs under tsx with no flag (the pnpm script line)', () => {
    const result = spawnSync(join(repositoryRoot, 'node_modules', '.bin', 'tsx'), ['packages/acceptance/src/certification/cli/certify-cli.ts', '--manifest', example], {
      cwd: repositoryRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('manifest valid');
  });

  it('with no manifest (as the README Tools table gives it) says how to make one, exit 2', () => {
    const result = spawnSync(join(repositoryRoot, 'node_modules', '.bin', 'tsx'), ['packages/acceptance/src/certification/cli/certify-cli.ts'], {
      cwd: repositoryRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--manifest is required');
    expect(result.stderr).toContain('npx --yes pnpm@12.4.2 certify:protocol-engine-real --write-template suite.json');
    expect(result.stderr).toContain('--manifest suite.json');
  });
});
