import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredExports } from './test-support/declared-exports.js';
import { lowestNodeVersion } from './test-support/lowest-node-version.js';
import { publishablePackages, repositoryRoot, type PublishablePackage } from './test-support/repository.js';

interface Manifest {
  name?: string;
  version?: string;
  private?: boolean;
  license?: string;
  type?: string;
  sideEffects?: unknown;
  types?: string;
  main?: string;
  module?: string;
  files?: string[];
  engines?: Record<string, string>;
  exports?: Record<string, Record<string, string>>;
  publishConfig?: { exports?: Record<string, Record<string, string>> };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bundleDependencies?: unknown;
  bundledDependencies?: unknown;
}

/** Runtime dependencies each publishable package may have (architecture.md, "who may import whom"). */
const allowedDependencies: Record<PublishablePackage, { readonly required: string[]; readonly optional: string[] }> = {
  'model-protocol': { required: ['zod'], optional: [] },
  'protocol-engine': { required: ['@tokenforge/model-protocol'], optional: [] },
  'provider-adapters': { required: [], optional: ['@tokenforge/model-protocol'] },
  'http-transport': { required: [], optional: ['@tokenforge/model-protocol', 'undici'] },
  'process-transport': { required: ['@tokenforge/model-protocol'], optional: [] },
  'provider-simulator': { required: [], optional: ['selfsigned'] },
  gateway: {
    required: ['@tokenforge/protocol-engine', '@tokenforge/provider-adapters', '@tokenforge/http-transport', 'hono', '@hono/node-server'],
    optional: ['@tokenforge/model-protocol', '@tokenforge/process-transport', '@tokenforge/provider-simulator', 'pino', 'yaml', 'zod', '@opentelemetry/api', '@opentelemetry/semantic-conventions', 'better-sqlite3', 'ioredis', 'pg', 'ws', 'prom-client', '@opentelemetry/sdk-node'],
  },
};

/** What `files` may name: the built root entry, its types, readmes and the license. Never sources, tests or fixtures. */
const allowedFilesEntry = /^(?:dist\/index\.js|dist\/index\.d\.ts|README(?:\.[a-zA-Z-]+)?\.md|LICENSE)$/;

/**
 * Other entries a package ships, by package: the simulator answers `recorded.<name>` scenarios from its own copies
 * of the recorded fixtures (each folder with its NOTICE.md); the gateway ships its bin and the built operator console.
 */
const allowedDataEntries: Partial<Record<PublishablePackage, readonly string[]>> = { 'provider-simulator': ['fixtures'], gateway: ['dist/cli.js', 'dist/console'] };

const updateHint = (name: string): string =>
  `The public exports of @tokenforge/${name} changed. If the change is intended, record it with:\n` +
  '  npx vitest run --project acceptance -u\n' +
  '(or `npx vitest run --project acceptance src/L1-kernel/public-surface -u` to touch no other snapshot)\n' +
  'and commit the updated file under packages/acceptance/src/L1-kernel/__snapshots__/exports/.';

function readManifest(name: PublishablePackage): Manifest {
  return JSON.parse(readFileSync(join(repositoryRoot, 'packages', name, 'package.json'), 'utf8')) as Manifest;
}

describe.each(publishablePackages)('package.json of @tokenforge/%s', (name) => {
  const manifest = readManifest(name);

  it('is a public, ESM-only, side-effect-free package with a license', () => {
    expect(manifest.name).toBe(`@tokenforge/${name}`);
    expect(manifest.private).not.toBe(true);
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+(?:-[\w.]+)?$/);
    expect(manifest.type).toBe('module');
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.license).toMatch(/^[A-Za-z0-9.-]+$/);
    expect(existsSync(join(repositoryRoot, 'packages', name, 'LICENSE'))).toBe(true);
  });

  it('exports only its built root, types first, the same map in the workspace and the tarball (no custom condition)', () => {
    expect(Object.keys(manifest.exports ?? {})).toEqual(['.']);
    expect(manifest.exports?.['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(Object.keys(manifest.exports?.['.'] ?? {})[0]).toBe('types');
    expect(manifest.publishConfig?.exports).toBeUndefined();
    for (const field of ['types', 'main', 'module'] as const) {
      if (manifest[field] !== undefined) expect(['./dist/index.d.ts', './dist/index.js']).toContain(manifest[field]);
    }
  });

  it('ships only the built entry, readmes and the license: no sources, tests or fixtures', () => {
    expect(manifest.files?.length ?? 0).toBeGreaterThan(0);
    for (const entry of manifest.files ?? []) {
      if (!(allowedDataEntries[name] ?? []).includes(entry)) expect(entry).toMatch(allowedFilesEntry);
    }
    expect(manifest.files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'LICENSE']));
  });

  it('runs on Node 20.19 or newer', () => {
    const range = manifest.engines?.node ?? '';
    const lowest = lowestNodeVersion(range);
    expect(lowest, `engines.node "${range}" is not a range this check understands`).toBeDefined();
    const [major, minor] = lowest ?? [0, 0];
    expect(major > 20 || (major === 20 && minor >= 19), `engines.node "${range}" admits a Node older than 20.19`).toBe(
      true,
    );
  });

  it('has only its allowed runtime dependencies, npm ones pinned exactly', () => {
    const { required, optional } = allowedDependencies[name];
    const dependencies = Object.keys(manifest.dependencies ?? {});
    expect(dependencies).toEqual(expect.arrayContaining(required));
    for (const dependency of dependencies) expect([...required, ...optional]).toContain(dependency);
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      expect(range).toMatch(dependency.startsWith('@tokenforge/') ? /^workspace:\*$/ : /^\d+\.\d+\.\d+$/);
    }
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.bundleDependencies ?? manifest.bundledDependencies).toBeUndefined();
  });
});

describe('reading engines.node', () => {
  it.each([
    ['>=20.19', [20, 19]],
    ['>=20.19.0', [20, 19]],
    ['^20.19.0 || >=22', [20, 19]],
    ['>=22 || ^20.18.0', [20, 18]],
    ['>=20.19 <23', [20, 19]],
    ['*', undefined],
    ['latest', undefined],
  ])('%s -> %j', (range, expected) => {
    expect(lowestNodeVersion(range)).toEqual(expected);
  });
});

describe.each(publishablePackages)('exports of the @tokenforge/%s root', (name) => {
  const declared = declaredExports(name);

  it('are named one by one in the root index (no export *)', () => {
    expect(declared.wildcardReExports).toEqual([]);
  });

  it('match the recorded snapshot (runtime values with their typeof, plus type-only names)', async () => {
    const runtime = (await import(`@tokenforge/${name}`)) as Record<string, unknown>;
    const surface = Object.fromEntries(
      [...declared.exports.entries()]
        .map(([exportName, kind]): [string, string] => [exportName, kind === 'type' ? 'type' : typeof runtime[exportName]])
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    try {
      await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot(`./__snapshots__/exports/${name}.json`);
    } catch (error) {
      if (error instanceof Error) error.message = `${updateHint(name)}\n\n${error.message}`;
      throw error;
    }
  });

  it('have exactly the runtime values the root index declares', async () => {
    const runtime = (await import(`@tokenforge/${name}`)) as Record<string, unknown>;
    const declaredValues = [...declared.exports.entries()]
      .filter(([, kind]) => kind === 'value')
      .map(([exportName]) => exportName)
      .sort();
    expect(Object.keys(runtime).sort()).toEqual(declaredValues);
  });
});
