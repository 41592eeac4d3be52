/**
 * Installs this app the way a registry user would, outside the monorepo, and runs it:
 *   1. `npx --yes pnpm@12.4.2 pack` each package the app needs (pnpm rewrites the `workspace:*` ranges to versions; those
 *      dependencies install only together with their own tarballs, so every one is packed);
 *   2. copies `package.json` and `main.mjs` into a fresh folder in the system temp directory (outside the
 *      repository, so no parent `node_modules` can stand in for a missing dependency);
 *   3. `npm install` of the tarballs there (`--prefer-offline`: npm packages come from the local cache when cached);
 *   4. `node main.mjs`, then removes the folder (`--keep` leaves it and prints where it is).
 *
 * Run after the build: `npx --yes pnpm@12.4.2 build && npx --yes pnpm@12.4.2 example:external-app`.
 * Exits with the app's status; only Node built-ins here.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
/** What the app imports, and what those import (every workspace dependency needs its own tarball). */
const packages = ['model-protocol', 'protocol-engine', 'provider-adapters', 'http-transport', 'process-transport', 'provider-simulator', 'gateway'];
const keep = process.argv.includes('--keep');

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`\`${command} ${args.join(' ')}\` exited ${code}:\n${output.trim().split('\n').slice(-20).join('\n')}`)),
    );
  });
}

/** pnpm when it is on PATH (inside a pnpm script it is), otherwise the pinned one through npx. */
function pnpm() {
  if (spawnSync('pnpm', ['--version'], { stdio: 'ignore' }).status === 0) return ['pnpm', []];
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return ['npx', ['--yes', packageManager]];
}

for (const name of packages) {
  if (!existsSync(join(root, 'packages', name, 'dist', 'index.js'))) {
    console.error(`packages/${name} is not built: run \`npx --yes pnpm@12.4.2 build\` first`);
    process.exit(2);
  }
}

const work = realpathSync(mkdtempSync(join(tmpdir(), 'tokenforge-external-app-')));
let status = 1;
try {
  const tarballs = join(work, 'tarballs');
  const [pnpmCommand, pnpmPrefix] = pnpm();
  await Promise.all(
    packages.map((name) => run(pnpmCommand, [...pnpmPrefix, 'pack', '--pack-destination', tarballs], join(root, 'packages', name))),
  );
  const files = packages.map((name) => {
    const { version } = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
    return join(tarballs, `tokenforge-${name}-${version}.tgz`);
  });

  const app = join(work, 'app');
  mkdirSync(app);
  for (const file of ['package.json', 'main.mjs']) copyFileSync(join(here, file), join(app, file));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...files], app);
  console.log(`installed ${packages.length} tarballs into ${app}`);

  const child = spawnSync(process.execPath, ['main.mjs'], { cwd: app, stdio: 'inherit' });
  status = child.status ?? 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(status);
