// Runs one package's tests through the root vitest configuration, so `npx --yes pnpm@12.4.2 --filter <pkg> test -- <file>`
// works with paths relative to the package.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [project, ...rest] = process.argv.slice(2);
if (!project) {
  console.error('usage: run-package-tests.mjs <package folder name> [vitest args and package-relative filters]');
  process.exit(2);
}
const args = rest
  .filter((arg) => arg !== '--')
  .map((arg) => (arg.startsWith('-') ? arg : join('packages', project, arg)));
const vitest = join(root, 'node_modules', '.bin', 'vitest');
const result = spawnSync(vitest, ['run', '--project', project, ...args], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
