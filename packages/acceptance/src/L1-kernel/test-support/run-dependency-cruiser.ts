import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { listFiles, repositoryRoot } from './repository.js';
import { runCommand, runCommandOrThrow, type CommandResult } from './run-command.js';

/** One rule violation, with npm targets shortened to their package name. */
export interface ReportedViolation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

export interface CruiseReport {
  readonly violations: readonly ReportedViolation[];
  /** Paths of every module in the graph, relative to the cruised directory. */
  readonly modules: readonly string[];
}

interface CruiseJson {
  readonly modules: readonly { readonly source: string }[];
  readonly summary: {
    readonly violations: readonly { readonly from: string; readonly to: string; readonly rule: { readonly name: string } }[];
  };
}

const configFile = join(repositoryRoot, '.dependency-cruiser.cjs');
const cliEntry = join(repositoryRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** `node_modules/.pnpm/zod@4.6.7/node_modules/zod/index.d.cts` -> `zod` (scoped names kept whole). */
function shortenTarget(target: string): string {
  const marker = target.lastIndexOf('node_modules/');
  if (marker === -1) return target;
  const segments = target.slice(marker + 'node_modules/'.length).split('/');
  const [first = '', second = ''] = segments;
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** Runs the real CLI with the real configuration, exactly like `pnpm lint:deps:run`, from `cwd`. */
export function runDependencyCruiserCli(cwd: string, extraArguments: readonly string[] = []): Promise<CommandResult> {
  return runCommand(process.execPath, [cliEntry, 'packages', '--config', configFile, ...extraArguments], { cwd });
}

/**
 * One Node process that cruises several workspaces in turn with dependency-cruiser's JS API and the real
 * configuration (what the CLI does, without paying its start-up once per fixture). It changes directory
 * before each cruise because dependency-cruiser reads some paths relative to the working directory.
 */
const cruiseManyScript = `
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
const [configFile, ...directories] = process.argv.slice(1);
const results = [];
for (const directory of directories) {
  process.chdir(directory);
  const options = await extractDepcruiseOptions(configFile);
  const tsConfig = extractTSConfig(options.tsConfig.fileName);
  const { output } = await cruise(['packages'], { ...options, outputType: 'json' }, {}, { tsConfig });
  results.push(JSON.parse(output));
}
process.stdout.write(JSON.stringify(results));
`;

/** Cruises `<directory>/packages` for each directory and returns each graph and its violations. */
export async function runDependencyCruiser(directories: readonly string[]): Promise<CruiseReport[]> {
  const { stdout } = await runCommandOrThrow(
    process.execPath,
    ['--input-type=module', '-e', cruiseManyScript, configFile, ...directories],
    { cwd: repositoryRoot },
  );
  return (JSON.parse(stdout) as CruiseJson[]).map(toReport);
}

function toReport(result: CruiseJson): CruiseReport {
  return {
    modules: result.modules.map((module) => module.source),
    violations: result.summary.violations
      .map((violation) => ({ rule: violation.rule.name, from: violation.from, to: shortenTarget(violation.to) }))
      .sort((a, b) => `${a.rule} ${a.from} ${a.to}`.localeCompare(`${b.rule} ${b.from} ${b.to}`)),
  };
}

/** Copies a violation fixture (a miniature `packages/<name>/src/...` workspace) into `workspace`, linking dependencies. */
function materializeFixture(fixtureDirectory: string, workspace: string): void {
  cpSync(fixtureDirectory, workspace, { recursive: true });
  // The repository's `paths` map each `@tokenforge/*` name to `./packages/<name>/src/index.ts` beside this copy.
  cpSync(join(repositoryRoot, 'tsconfig.base.json'), join(workspace, 'tsconfig.base.json'));
  restoreFixtureTestNames(workspace);
  const packagesDirectory = join(workspace, 'packages');
  for (const folder of readdirSync(packagesDirectory)) {
    const manifest = JSON.parse(readFileSync(join(packagesDirectory, folder, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      const target = name.startsWith('@tokenforge/')
        ? join(packagesDirectory, name.slice('@tokenforge/'.length))
        : findInstalledPackage(name);
      const link = join(packagesDirectory, folder, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(target, link, 'dir');
    }
  }
}

/**
 * Copies violation fixtures into a temporary folder (one sub-folder each) and links each fixture package's
 * declared dependencies into its `node_modules` the way pnpm does (`@tokenforge/*` to the fixture's own
 * packages, npm packages to the installed copies), runs `use` on the copies, then removes them.
 */
export async function withFixtureWorkspaces<T>(
  fixtureDirectories: readonly string[],
  use: (workspaces: string[]) => Promise<T>,
): Promise<T> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tokenforge-depcruise-')));
  try {
    const workspaces = fixtureDirectories.map((fixtureDirectory, index) => {
      const workspace = join(root, String(index));
      materializeFixture(fixtureDirectory, workspace);
      return workspace;
    });
    return await use(workspaces);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}


/** Where an npm package is installed in this workspace (pnpm links it into the root or a package). */
function findInstalledPackage(name: string): string {
  const candidates = [
    join(repositoryRoot, 'node_modules', name),
    ...readdirSync(join(repositoryRoot, 'packages')).map((folder) => join(repositoryRoot, 'packages', folder, 'node_modules', name)),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) throw new Error(`fixture dependency ${name} is not installed in the workspace`);
  return realpathSync(found);
}

/**
 * Fixture test files are stored as `<name>.test-fixture.ts` so the acceptance vitest project (which collects
 * every `<name>.test.ts` under `src`) does not run them; a materialized copy gets its `.test.ts` name back.
 */
export function restoreFixtureTestNames(directory: string): void {
  for (const file of listFiles(directory)) {
    if (file.endsWith('.test-fixture.ts')) {
      renameSync(join(directory, file), join(directory, file.replace(/\.test-fixture\.ts$/, '.test.ts')));
    }
  }
}
