import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinModules } from 'node:module';
import { declaredExports } from './test-support/declared-exports.js';
import { collectModuleSpecifiers, packageNameOf } from './test-support/module-specifiers.js';
import { listFiles, publishablePackages, repositoryRoot, type PublishablePackage } from './test-support/repository.js';
import { pnpmCommand, runCommandOrThrow } from './test-support/run-command.js';

/**
 * The pack gate: what a registry user would download. Each publishable package is packed with pnpm (which
 * applies publishConfig and rewrites workspace ranges), the tarballs are inspected, then installed together
 * with npm into an empty folder and imported from plain Node ESM and type-checked from a plain TypeScript file.
 */

const packageDirectory = (name: PublishablePackage): string => join(repositoryRoot, 'packages', name);
const version = (name: PublishablePackage): string =>
  (JSON.parse(readFileSync(join(packageDirectory(name), 'package.json'), 'utf8')) as { version: string }).version;

/** Inside a tarball: the manifest, readmes, the license and the bundled root entry with its types. Nothing else. */
const allowedTarballEntry = /^package\/(?:package\.json|LICENSE|README(?:\.[a-zA-Z-]+)?\.md|dist\/index\.js|dist\/index\.d\.ts)$/;

let workRoot: string;
const tarballs = new Map<PublishablePackage, string>();
const entries = new Map<PublishablePackage, string[]>();
const packedManifests = new Map<PublishablePackage, string>();
const packedEntryFiles = new Map<PublishablePackage, Map<string, string>>();
const builtEntryFiles = ['dist/index.js', 'dist/index.d.ts'];
/** Node-only packages: the others run on any JavaScript runtime, so their bundles import no builtin. */
const nodeOnlyPackages: readonly PublishablePackage[] = ['http-transport'];
let consumer: string;

/** The newest modification time among the files a build reads. */
function newestBuildInput(name: PublishablePackage): number {
  const directory = packageDirectory(name);
  const inputs = [
    ...listFiles(join(directory, 'src')).map((file) => join(directory, 'src', file)),
    ...['package.json', 'tsconfig.json', 'tsup.config.ts'].map((file) => join(directory, file)),
  ];
  return Math.max(...inputs.filter((file) => existsSync(file)).map((file) => statSync(file).mtimeMs));
}

/** Builds a package unless its dist is newer than all its inputs (`pnpm check` builds before the tests run). */
async function ensureBuilt(name: PublishablePackage): Promise<void> {
  const outputs = ['dist/index.js', 'dist/index.d.ts'].map((file) => join(packageDirectory(name), file));
  const fresh = outputs.every((file) => existsSync(file) && statSync(file).mtimeMs >= newestBuildInput(name));
  if (!fresh) await runCommandOrThrow(...pnpmCommand(['run', 'build']), { cwd: packageDirectory(name) });
}

beforeAll(async () => {
  workRoot = realpathSync(mkdtempSync(join(tmpdir(), 'tokenforge-pack-')));
  for (const name of publishablePackages) await ensureBuilt(name);

  const packDestination = join(workRoot, 'tarballs');
  await Promise.all(
    publishablePackages.map((name) =>
      runCommandOrThrow(...pnpmCommand(['pack', '--pack-destination', packDestination]), { cwd: packageDirectory(name) }),
    ),
  );
  for (const name of publishablePackages) {
    const tarball = join(packDestination, `tokenforge-${name}-${version(name)}.tgz`);
    tarballs.set(name, tarball);
    const listing = await runCommandOrThrow('tar', ['-tzf', tarball], { cwd: workRoot });
    entries.set(name, listing.stdout.split('\n').filter((line) => line !== '').sort());
    const manifest = await runCommandOrThrow('tar', ['-xzOf', tarball, 'package/package.json'], { cwd: workRoot });
    packedManifests.set(name, manifest.stdout);
    const files = new Map<string, string>();
    for (const file of builtEntryFiles) {
      if (!(entries.get(name) ?? []).includes(`package/${file}`)) continue;
      files.set(file, (await runCommandOrThrow('tar', ['-xzOf', tarball, `package/${file}`], { cwd: workRoot })).stdout);
    }
    packedEntryFiles.set(name, files);
  }

  consumer = join(workRoot, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`);
  await runCommandOrThrow(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', ...publishablePackages.map((name) => tarballs.get(name) ?? '')],
    { cwd: consumer },
  );
}, 180_000);

afterAll(() => {
  if (workRoot !== undefined) rmSync(workRoot, { recursive: true, force: true });
});

describe.each(publishablePackages)('the packed @tokenforge/%s', (name) => {
  it('holds only package.json, license, readmes and dist/index.js with dist/index.d.ts', () => {
    const packed = entries.get(name) ?? [];
    expect(packed.filter((entry) => !allowedTarballEntry.test(entry))).toEqual([]);
    expect(packed).toEqual(
      expect.arrayContaining(['package/package.json', 'package/LICENSE', 'package/dist/index.js', 'package/dist/index.d.ts']),
    );
  });

  it('has a manifest without the source condition or workspace ranges', () => {
    const text = packedManifests.get(name) ?? '';
    expect(text).not.toContain('@tokenforge/source');
    expect(text).not.toContain('workspace:');
    const manifest = JSON.parse(text) as {
      exports: unknown;
      dependencies?: Record<string, string>;
    };
    expect(manifest.exports).toEqual({ '.': { types: './dist/index.d.ts', import: './dist/index.js' } });
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@tokenforge/')) {
        expect(range).toBe(version(dependency.slice('@tokenforge/'.length) as PublishablePackage));
      }
    }
  });

  it('imports, at run time and in its types, only the packages it declares as dependencies', () => {
    const dependencies = Object.keys((JSON.parse(packedManifests.get(name) ?? '{}') as { dependencies?: object }).dependencies ?? {});
    for (const file of builtEntryFiles) {
      const specifiers = collectModuleSpecifiers(file, packedEntryFiles.get(name)?.get(file) ?? '');
      const isBuiltin = (specifier: string): boolean =>
        specifier.startsWith('node:') || builtinModules.includes(packageNameOf(specifier));
      const isRelative = (specifier: string): boolean => specifier.startsWith('.') || specifier.startsWith('/');
      expect(specifiers.filter(isRelative), `${file} reaches for files outside the tarball`).toEqual([]);
      if (!nodeOnlyPackages.includes(name)) expect(specifiers.filter(isBuiltin), `${file} imports node builtins`).toEqual([]);
      const imported = specifiers.filter((specifier) => !isRelative(specifier) && !isBuiltin(specifier)).map(packageNameOf);
      expect(imported.filter((packageName) => !dependencies.includes(packageName)), `${file} imports undeclared packages`).toEqual(
        [],
      );
    }
  });
});

describe('the four tarballs installed together into an empty folder', () => {
  it('import from a plain Node ESM script, each root exposing exactly its declared runtime exports', async () => {
    const script = [
      'const names = {};',
      ...publishablePackages.map(
        (name) => `names[${JSON.stringify(name)}] = Object.keys(await import('@tokenforge/${name}')).sort();`,
      ),
      'process.stdout.write(JSON.stringify(names));',
    ].join('\n');
    writeFileSync(join(consumer, 'import-roots.mjs'), `${script}\n`);
    const result = await runCommandOrThrow(process.execPath, ['import-roots.mjs'], { cwd: consumer });
    const runtimeNames = JSON.parse(result.stdout) as Record<string, string[]>;
    for (const name of publishablePackages) {
      const declaredValues = [...declaredExports(name).exports.entries()]
        .filter(([, kind]) => kind === 'value')
        .map(([exportName]) => exportName)
        .sort();
      expect(runtimeNames[name], `runtime exports of the packed @tokenforge/${name}`).toEqual(declaredValues);
    }
  });

  it('resolve every declared export, values and types, from a plain TypeScript consumer (nodenext)', async () => {
    const lines: string[] = [];
    for (const name of publishablePackages) {
      const declared = [...declaredExports(name).exports.entries()];
      if (declared.length === 0) continue;
      const alias = (exportName: string): string => `${name.replace(/-/g, '_')}_${exportName}`;
      const specifiers = declared.map(([exportName, kind]) => `${kind === 'type' ? 'type ' : ''}${exportName} as ${alias(exportName)}`);
      lines.push(`import { ${specifiers.join(', ')} } from '@tokenforge/${name}';`);
      const values = declared.filter(([, kind]) => kind === 'value').map(([exportName]) => alias(exportName));
      // Importing a missing name fails (TS2305); using a type-only name as a value fails too.
      lines.push(`export const ${name.replace(/-/g, '_')}_values = [${values.join(', ')}];`);
    }
    writeFileSync(join(consumer, 'consumer.mts'), `${lines.join('\n')}\n`);
    const compilerOptions = {
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      types: [],
    };
    writeFileSync(join(consumer, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, files: ['consumer.mts'] })}\n`);
    const typescriptCompiler = join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    await runCommandOrThrow(process.execPath, [typescriptCompiler, '-p', 'tsconfig.json'], { cwd: consumer });
    expect(readdirSync(join(consumer, 'node_modules', '@tokenforge')).sort()).toEqual([...publishablePackages].sort());
  }, 120_000);
});
