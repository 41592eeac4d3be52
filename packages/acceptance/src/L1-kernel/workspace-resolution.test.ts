import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from './test-support/repository.js';
import { runCommand } from './test-support/run-command.js';

/**
 * How a script in the workspace reaches the packages, with nothing to know: `tsx` with no flag reads the sources
 * (tsconfig `paths`, so a fresh install needs no build), plain `node` reads the built `dist/` through `exports`.
 * Neither may need a custom condition, a loader flag or NODE_OPTIONS.
 */

const packageNames = readdirSync(join(repositoryRoot, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(repositoryRoot, 'packages', entry.name, 'package.json')))
  // Packages that export something to import (the operator console is a web page with no exports).
  .filter((entry) => (JSON.parse(readFileSync(join(repositoryRoot, 'packages', entry.name, 'package.json'), 'utf8')) as { exports?: unknown }).exports !== undefined)
  .map((entry) => entry.name)
  .sort();
const tsx = join(repositoryRoot, 'node_modules', '.bin', 'tsx');
/** The environment of a fresh shell: no NODE_OPTIONS a test runner or a developer may have set. */
const plainEnvironment = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_OPTIONS'));

// A probe inside the workspace (where a user's own script would live), removed afterwards.
const probeDirectory = mkdtempSync(join(repositoryRoot, '.workspace-probe-'));
afterAll(() => rmSync(probeDirectory, { recursive: true, force: true }));

function probeSource(): string {
  return [
    ...packageNames.map((name, index) => `import * as package${index} from '@tokenforge/${name}';`),
    'const resolved: Record<string, [string, number]> = {};',
    ...packageNames.map(
      (name, index) =>
        `resolved[${JSON.stringify(name)}] = [import.meta.resolve('@tokenforge/${name}'), Object.keys(package${index}).length];`,
    ),
    'console.log(JSON.stringify(resolved));',
  ].join('\n');
}

function resolvedPaths(stdout: string): Record<string, string> {
  const resolved = JSON.parse(stdout) as Record<string, [string, number]>;
  for (const [name, [, exportCount]] of Object.entries(resolved)) expect(exportCount, name).toBeGreaterThan(0);
  return Object.fromEntries(Object.entries(resolved).map(([name, [url]]) => [name, fileURLToPath(url)]));
}

describe('a workspace script importing every @tokenforge package', () => {
  it('finds the packages to check', () => {
    expect(packageNames).toEqual(expect.arrayContaining(['model-protocol', 'protocol-engine', 'provider-adapters', 'http-transport', 'acceptance']));
  });

  it('runs with `tsx` and no flag, against each package\'s TypeScript source (no build needed)', async () => {
    writeFileSync(join(probeDirectory, 'probe.ts'), `${probeSource()}\n`);
    const run = await runCommand(tsx, [join(probeDirectory, 'probe.ts')], { cwd: repositoryRoot, env: plainEnvironment });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(resolvedPaths(run.stdout)).toEqual(
      Object.fromEntries(packageNames.map((name) => [name, join(repositoryRoot, 'packages', name, 'src', 'index.ts')])),
    );
  });

  it('runs with plain `node` after the build, through each package\'s exports to its dist', async () => {
    for (const name of packageNames) {
      expect(existsSync(join(repositoryRoot, 'packages', name, 'dist', 'index.js')), `packages/${name}/dist: run the build first`).toBe(true);
    }
    writeFileSync(join(probeDirectory, 'probe.mjs'), `${probeSource().replace(': Record<string, [string, number]>', '')}\n`);
    const run = await runCommand(process.execPath, [join(probeDirectory, 'probe.mjs')], { cwd: repositoryRoot, env: plainEnvironment });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(resolvedPaths(run.stdout)).toEqual(
      Object.fromEntries(packageNames.map((name) => [name, join(repositoryRoot, 'packages', name, 'dist', 'index.js')])),
    );
  });

  it('examples/plain-node.mjs (the README\'s plain-Node example) runs with `node` and no flag', async () => {
    const run = await runCommand(process.execPath, ['examples/plain-node.mjs'], { cwd: repositoryRoot, env: plainEnvironment });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`@tokenforge/protocol-engine -> ${join(repositoryRoot, 'packages', 'protocol-engine', 'dist', 'index.js')}`);
    expect(run.stdout).toContain('answer: Hello from plain Node. (finish stop, 10 tokens)');
  });

  it('needs no custom condition anywhere: no manifest, config or script names one', () => {
    const files = ['package.json', 'tsconfig.base.json', 'vitest.config.ts', '.dependency-cruiser.cjs', 'turbo.json'];
    files.push(...packageNames.map((name) => `packages/${name}/package.json`));
    for (const file of files) {
      const text = readFileSync(join(repositoryRoot, file), 'utf8');
      expect(text, file).not.toMatch(/--conditions|customConditions|@tokenforge\/source/);
    }
  });
});
