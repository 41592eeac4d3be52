import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredExports } from './test-support/declared-exports.js';
import { readTarball, tarballProblems, type PackedTarball } from './test-support/inspect-tarball.js';
import { listFiles, publishablePackages, repositoryRoot, type PublishablePackage } from './test-support/repository.js';
import { pnpmCommand, runCommandOrThrow } from './test-support/run-command.js';

/**
 * The pack gate: what a registry user would download. Each publishable package is packed with pnpm (which
 * applies publishConfig and rewrites workspace ranges), the tarballs are inspected, then installed together
 * with npm into an empty folder, imported from plain Node ESM and type-checked from a plain TypeScript file.
 */

const packageDirectory = (name: PublishablePackage): string => join(repositoryRoot, 'packages', name);
const workspaceVersions = Object.fromEntries(
  publishablePackages.map((name) => [
    `@tokenforge/${name}`,
    (JSON.parse(readFileSync(join(packageDirectory(name), 'package.json'), 'utf8')) as { version: string }).version,
  ]),
);
/** Node-only packages: the others run on any JavaScript runtime, so their bundles import no builtin. */
const nodeOnlyPackages: readonly PublishablePackage[] = ['http-transport', 'process-transport', 'provider-simulator', 'gateway'];

let workRoot: string;
const tarballs = new Map<PublishablePackage, string>();
const packed = new Map<PublishablePackage, PackedTarball>();
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
    const tarball = join(packDestination, `tokenforge-${name}-${workspaceVersions[`@tokenforge/${name}`]}.tgz`);
    tarballs.set(name, tarball);
    packed.set(name, await readTarball(tarball, workRoot));
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
}, 60_000);

describe('the tarball inspection', () => {
  it('names every planted defect of a leaky package', async () => {
    const folder = join(workRoot, 'planted');
    const files: Record<string, string> = {
      'package/package.json': JSON.stringify({
        name: '@tokenforge/leaky',
        version: '0.1.0',
        exports: {
          '.': { '@tokenforge/source': './src/index.ts', import: './dist/index.js' },
          './internal': './dist/internal.js',
        },
        dependencies: { '@tokenforge/model-protocol': 'workspace:*', '@tokenforge/protocol-engine': '0.0.1', zod: '4.6.7' },
      }),
      'package/dist/index.js': "import { readFile } from 'node:fs';\nimport { chunk } from './chunk-x.js';\nimport 'lodash/get.js';\nimport { z } from 'zod';\n",
      'package/dist/index.d.ts': "export type { Engine } from '@tokenforge/http-transport';\n",
      'package/dist/index.test.js': '',
      'package/src/index.ts': '',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      writeFileSync(join(folder, file), text);
    }
    const tarball = join(workRoot, 'leaky.tgz');
    await runCommandOrThrow('tar', ['-czf', tarball, 'package'], { cwd: folder });
    const problems = tarballProblems(await readTarball(tarball, workRoot), { nodeOnly: false, workspaceVersions });
    expect(problems).toEqual([
      'ships package/dist/index.test.js',
      'ships package/src/index.ts',
      'lacks package/LICENSE',
      'manifest keeps the @tokenforge/source condition',
      'manifest keeps a workspace: range',
      `exports is ${JSON.stringify({ '.': { '@tokenforge/source': './src/index.ts', import: './dist/index.js' }, './internal': './dist/internal.js' })}, not the root entry alone`,
      'depends on @tokenforge/model-protocol@workspace:*, not the workspace version 0.1.0',
      'depends on @tokenforge/protocol-engine@0.0.1, not the workspace version 0.1.0',
      'dist/index.js imports the node builtin node:fs',
      'dist/index.js imports ./chunk-x.js, outside the tarball',
      'dist/index.js imports lodash, not a dependency',
      'dist/index.d.ts imports @tokenforge/http-transport, not a dependency',
    ]);
    expect(tarballProblems(await readTarball(tarball, workRoot), { nodeOnly: true, workspaceVersions })).not.toContain(
      'dist/index.js imports the node builtin node:fs',
    );
  });
});

describe.each(publishablePackages)('the packed @tokenforge/%s', (name) => {
  it('holds only package.json, license, readmes and the bundled entry; no source condition, no workspace range; imports only its dependencies', () => {
    const tarball = packed.get(name);
    expect(tarball?.entries).toEqual(expect.arrayContaining(['package/package.json', 'package/dist/index.js']));
    expect(tarballProblems(tarball ?? { entries: [], manifestText: '', entryFiles: new Map() }, {
      nodeOnly: nodeOnlyPackages.includes(name),
      workspaceVersions,
      dataFolders: name === 'provider-simulator' ? ['fixtures'] : name === 'gateway' ? ['dist/console'] : [],
      extraEntries: name === 'gateway' ? ['dist/cli.js'] : [],
    })).toEqual([]);
  });
});

describe('the tarballs installed together into an empty folder', () => {
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
