import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../L1-kernel/test-support/repository.js';
import { runCommand } from '../L1-kernel/test-support/run-command.js';

/**
 * The README's "Point your SDK here" section, run as written: the gateway started by the README's command (the
 * root `gateway` script, on a free port instead of 8787 so parallel runs cannot collide), its printed URL and
 * client key, and the README's own code block, extracted from the README, saved in the repository root and run
 * with plain `node`.
 */

const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');

/** The text of the section under `## <title>`, to the next `## ` heading. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`README has no section "${title}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** The fenced blocks of a section, by info string. */
function fencedBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1] ?? '');
}

const sdkSection = section('Point your SDK here');
const probeDirectory = mkdtempSync(join(repositoryRoot, '.workspace-probe-'));
let gateway: ChildProcess | undefined;

afterAll(() => {
  gateway?.kill('SIGTERM');
  rmSync(probeDirectory, { recursive: true, force: true });
});

/** Starts the root `gateway` script the way pnpm runs it and resolves with the URL and key it prints. */
function startGatewayScript(): Promise<{ url: string; clientKey: string }> {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [command = '', ...scriptArguments] = (manifest.scripts.gateway ?? '').split(' ');
  return new Promise((resolve, reject) => {
    const executable = command === 'node' ? process.execPath : join(repositoryRoot, 'node_modules', '.bin', command);
    const child = spawn(executable, [...scriptArguments, '--port', '0'], {
      cwd: repositoryRoot,
      // The README's command with its default governance, in a data directory of this test's own.
      env: { ...process.env, TOKENFORGE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tokenforge-readme-')) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    gateway = child;
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      const clientKey = /client key: (\S+)/.exec(stdout)?.[1];
      if (url !== undefined && clientKey !== undefined) resolve({ url, clientKey });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the gateway exited ${code} before printing its URL and key:\n${stdout}`)));
  });
}

describe('README: point your SDK here', () => {
  it('starts the gateway with the README command, the root gateway script', () => {
    expect(fencedBlocks(sdkSection, 'bash')).toEqual(['npx --yes pnpm@12.4.2 gateway\n']);
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.gateway).toMatch(/^node (?:--[\w-]+(?:=\S+)? )*packages\/gateway\/scripts\/run-built-cli\.mjs$/);
  });

  it('has a five-line example with the openai SDK, which the workspace installs at the root', () => {
    const [example = ''] = fencedBlocks(sdkSection, 'js');
    expect(example.trimEnd().split('\n')).toHaveLength(5);
    expect(example).toContain("from 'openai'");
    expect(sdkSection).toContain('TOKENFORGE_KEY=<client key> node sdk-example.mjs');
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(manifest.devDependencies.openai).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('runs that exact block with node against the gateway and prints the answer', { timeout: 90_000 }, async () => {
    const { url, clientKey } = await startGatewayScript();
    const [example = ''] = fencedBlocks(sdkSection, 'js');
    writeFileSync(join(probeDirectory, 'sdk-example.mjs'), example);
    const { TOKENFORGE_URL: _url, TOKENFORGE_KEY: _key, NODE_OPTIONS: _options, ...environment } = process.env;
    const run = await runCommand(process.execPath, ['sdk-example.mjs'], {
      cwd: probeDirectory,
      env: { ...environment, TOKENFORGE_URL: url, TOKENFORGE_KEY: clientKey },
    });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('Hello from the simulator.\n');

    // And the key matters: the same block with another key is refused by the gateway.
    const refused = await runCommand(process.execPath, ['sdk-example.mjs'], {
      cwd: probeDirectory,
      env: { ...environment, TOKENFORGE_URL: url, TOKENFORGE_KEY: 'not-the-printed-key' },
    });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/\b401\b/);
  });
});
