import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tf-operator-errors-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Runs `tokenforge-gateway --config FILE` as the README does and returns how it ended (it must not start). */
function startCli(config: string, env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(`${ROOT}node_modules/.bin/tsx`, [CLI, '--config', config, '--port', '0', '--no-governance'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

async function catalogueFile(name: string, target: string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, ['version: 1', 'clientKeys: [{ id: main, env: OPERATOR_TEST_CLIENT_KEY }]', 'models:', '  - name: chat', '    taskKind: chat', '    targets:', `      - ${target}`, ''].join('\n'));
  return path;
}

const ENV = { OPERATOR_TEST_CLIENT_KEY: 'tfg-operator-test-key-0123', OPERATOR_TEST_UPSTREAM: 'sk-operator-test-upstream-000' };

describe('operator mistakes are refused at start with what to write instead', () => {
  it('a loopback or private upstream names network.allowLoopback / network.allowPrivate', async () => {
    const loopback = await startCli(await catalogueFile('loopback.yaml', '{ provider: local, family: openai-chat/v1, model: m, baseUrl: "http://127.0.0.1:11434/v1", credentials: { apiKeyEnv: OPERATOR_TEST_UPSTREAM } }'), ENV);
    expect(loopback.code).toBe(1);
    expect(loopback.stderr).toContain('models.0.targets.0.baseUrl');
    expect(loopback.stderr).toContain('network: { allowLoopback: true }');
    const named = await startCli(await catalogueFile('localhost.yaml', '{ provider: local, family: openai-chat/v1, model: m, baseUrl: "https://localhost:8443/v1", credentials: { apiKeyEnv: OPERATOR_TEST_UPSTREAM } }'), ENV);
    expect(named.stderr).toContain('network: { allowLoopback: true }');
    const privateNet = await startCli(await catalogueFile('private.yaml', '{ provider: lan, family: openai-chat/v1, model: m, baseUrl: "https://10.1.2.3/v1", credentials: { apiKeyEnv: OPERATOR_TEST_UPSTREAM } }'), ENV);
    expect(privateNet.code).toBe(1);
    expect(privateNet.stderr).toContain('network: { allowPrivate: true }');
  }, 90_000);

  it('a family without its version says what to write, never the raw pattern', async () => {
    const result = await startCli(await catalogueFile('family.yaml', '{ provider: openai, family: openai-chat, model: m, baseUrl: "https://api.openai.com/v1", credentials: { apiKeyEnv: OPERATOR_TEST_UPSTREAM } }'), ENV);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('models.0.targets.0.family');
    expect(result.stderr).toContain('write openai-chat/v1');
    expect(result.stderr).not.toMatch(/must match pattern|\^\[a-z\]/);
  }, 30_000);

  it('an inline apiKey points to apiKeyEnv and never echoes the key', async () => {
    const result = await startCli(await catalogueFile('inline.yaml', '{ provider: openai, family: openai-chat/v1, model: m, baseUrl: "https://api.openai.com/v1", credentials: { apiKey: sk-pasted-inline-secret-123 } }'), ENV);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('models.0.targets.0.credentials');
    expect(result.stderr).toContain('`apiKeyEnv: NAME`');
    expect(result.stderr).not.toContain('Invalid input');
    expect(result.stderr).not.toContain('sk-pasted-inline-secret-123');
  }, 30_000);

  it('a missing config file is named with how to get one, not a raw ENOENT', async () => {
    const result = await startCli(join(directory, 'no-such-catalogue.yaml'), ENV);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no-such-catalogue.yaml cannot be read');
    expect(result.stderr).toContain('examples/catalogue.example.yaml');
    expect(result.stderr).toContain('leave out --config');
    expect(result.stderr).not.toMatch(/ENOENT: no such file or directory, open/);
  }, 30_000);
});
