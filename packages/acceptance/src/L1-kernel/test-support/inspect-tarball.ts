import { builtinModules } from 'node:module';
import { collectModuleSpecifiers, packageNameOf } from './module-specifiers.js';
import { runCommandOrThrow } from './run-command.js';

/** The bundled root entry and its types: the only code a tarball may hold. */
export const builtEntryFiles = ['dist/index.js', 'dist/index.d.ts'] as const;

/** Inside a tarball: the manifest, readmes, the license and the bundled root entry with its types. Nothing else. */
const allowedEntry = /^package\/(?:package\.json|LICENSE|README(?:\.[a-zA-Z-]+)?\.md|dist\/index\.js|dist\/index\.d\.ts)$/;
const requiredEntries = ['package/package.json', 'package/LICENSE', ...builtEntryFiles.map((file) => `package/${file}`)];

export interface PackedTarball {
  /** Every path in the tarball (`package/...`), sorted. */
  readonly entries: readonly string[];
  /** The packed `package/package.json`, as text. */
  readonly manifestText: string;
  /** The texts of {@link builtEntryFiles} that the tarball holds. */
  readonly entryFiles: ReadonlyMap<string, string>;
}

export async function readTarball(tarball: string, cwd: string): Promise<PackedTarball> {
  const listing = await runCommandOrThrow('tar', ['-tzf', tarball], { cwd });
  // Directory entries (`package/dist/`) carry no content; pnpm writes none, plain tar does.
  const entries = listing.stdout.split('\n').filter((line) => line !== '' && !line.endsWith('/')).sort();
  const extract = async (entry: string): Promise<string> => (await runCommandOrThrow('tar', ['-xzOf', tarball, entry], { cwd })).stdout;
  const entryFiles = new Map<string, string>();
  for (const file of builtEntryFiles) {
    if (entries.includes(`package/${file}`)) entryFiles.set(file, await extract(`package/${file}`));
  }
  return { entries, manifestText: entries.includes('package/package.json') ? await extract('package/package.json') : '', entryFiles };
}

export interface TarballExpectations {
  /** Whether the package may import node builtins (only Node-only packages may). */
  readonly nodeOnly: boolean;
  /** Versions of the workspace packages, by full name: a packed internal dependency must name exactly that version. */
  readonly workspaceVersions: Readonly<Record<string, string>>;
  /** Data folders the package reads at run time (the simulator's `fixtures`): files below them are allowed. */
  readonly dataFolders?: readonly string[];
  /** Further files the package ships (the gateway's bin `dist/cli.js`). */
  readonly extraEntries?: readonly string[];
}

/** Everything wrong with a packed package, as short sentences; empty when it is fit to publish. */
export function tarballProblems(packed: PackedTarball, expectations: TarballExpectations): string[] {
  const problems: string[] = [];
  const dataEntry = (entry: string): boolean =>
    (expectations.dataFolders ?? []).some((folder) => entry.startsWith(`package/${folder}/`)) || (expectations.extraEntries ?? []).some((file) => entry === `package/${file}`);
  for (const entry of packed.entries) if (!allowedEntry.test(entry) && !dataEntry(entry)) problems.push(`ships ${entry}`);
  for (const entry of requiredEntries) if (!packed.entries.includes(entry)) problems.push(`lacks ${entry}`);

  if (packed.manifestText.includes('@tokenforge/source')) problems.push('manifest keeps the @tokenforge/source condition');
  if (packed.manifestText.includes('workspace:')) problems.push('manifest keeps a workspace: range');
  let manifest: { exports?: unknown; dependencies?: Record<string, string> } = {};
  try {
    manifest = JSON.parse(packed.manifestText) as typeof manifest;
  } catch {
    problems.push('manifest is not JSON');
  }
  const rootOnly = { '.': { types: './dist/index.d.ts', import: './dist/index.js' } };
  if (JSON.stringify(manifest.exports) !== JSON.stringify(rootOnly)) {
    problems.push(`exports is ${JSON.stringify(manifest.exports)}, not the root entry alone`);
  }
  const dependencies = manifest.dependencies ?? {};
  for (const [dependency, range] of Object.entries(dependencies)) {
    const workspaceVersion = expectations.workspaceVersions[dependency];
    if (workspaceVersion !== undefined && range !== workspaceVersion) {
      problems.push(`depends on ${dependency}@${range}, not the workspace version ${workspaceVersion}`);
    }
  }

  for (const [file, text] of packed.entryFiles) {
    for (const specifier of collectModuleSpecifiers(file, text)) {
      const packageName = packageNameOf(specifier);
      if (specifier.startsWith('.') || specifier.startsWith('/')) problems.push(`${file} imports ${specifier}, outside the tarball`);
      else if (specifier.startsWith('node:') || builtinModules.includes(packageName)) {
        if (!expectations.nodeOnly) problems.push(`${file} imports the node builtin ${specifier}`);
      } else if (!(packageName in dependencies)) problems.push(`${file} imports ${packageName}, not a dependency`);
    }
  }
  return problems;
}
