/**
 * `npx --yes pnpm@12.4.2 gateway [args]`: runs the built CLI (dist/cli.js) in this very process, building the
 * gateway and its workspace dependencies first when a source file is newer than the build. No child process runs
 * the server, so a signal sent to the command reaches the server itself (no orphan survives its parent).
 * Build output goes to stderr: stdout is the CLI's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const gatewayDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(gatewayDirectory, '..', '..');
const distCli = join(gatewayDirectory, 'dist', 'cli.js');

/**
 * The workspace packages the gateway's dist is built from: its `workspace:*` dependencies, transitively, then
 * itself (each package after the packages it depends on).
 */
function workspacePackages(name, seen = new Set(), ordered = []) {
  if (seen.has(name)) return ordered;
  seen.add(name);
  const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
  for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
    if (String(range).startsWith('workspace:') && dependency.startsWith('@tokenforge/')) workspacePackages(dependency.slice('@tokenforge/'.length), seen, ordered);
  }
  ordered.push(name);
  return ordered;
}

function newestMtime(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    // Tests and their fixtures are not part of a build.
    if (/\.test\.ts$|^test-support$|^__fixtures__$/.test(entry)) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function oldestDistMtime(name) {
  try {
    const dist = join(root, 'packages', name, 'dist');
    return Math.min(...readdirSync(dist).map((entry) => statSync(join(dist, entry)).mtimeMs));
  } catch {
    return 0;
  }
}

/** The packages whose build is missing or older than a file it is built from. */
export function stalePackages() {
  return workspacePackages('gateway').filter((name) => {
    const directory = join(root, 'packages', name);
    const built = oldestDistMtime(name);
    // The gateway's build also builds the operator console into dist/console (tsup's onSuccess).
    const extra = name === 'gateway' ? [newestMtime(join(root, 'packages', 'console', 'src'))] : [];
    const sources = Math.max(newestMtime(join(directory, 'src')), ...extra, ...['package.json', 'tsconfig.json', 'tsup.config.ts'].map((file) => newestMtime(join(directory, file))));
    return built === 0 || sources > built;
  });
}

// Each stale package's own build (tsup, as its `build` script), dependencies first: no pnpm or turbo needed, so
// this works the same under `npx --yes pnpm@12.4.2 gateway` and as `node packages/gateway/scripts/run-built-cli.mjs`.
const stale = stalePackages();
if (stale.length > 0) process.stderr.write(`tokenforge-gateway: building ${stale.join(', ')} (changed since the last build)\n`);
for (const name of stale) {
  const built = spawnSync(join(root, 'node_modules', '.bin', 'tsup'), ['--silent'], { cwd: join(root, 'packages', name), stdio: ['ignore', 2, 2] });
  if (built.status !== 0) {
    process.stderr.write(`tokenforge-gateway: the build of ${name} failed (output above)\n`);
    process.exit(built.status ?? 1);
  }
}

/** `pid`'s parent pid and start time from /proc, or undefined when it no longer runs (Linux only). */
function processFacts(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((part) => part.length > 0);
    return { ppid: Number(fields[1]), started: fields[19], command };
  } catch {
    return undefined;
  }
}

/** A process that only wraps the command: `sh -c ...`, npm exec / npx, pnpm. */
function isWrapper(command) {
  const [program = '', ...rest] = command;
  if (/(^|\/)(sh|bash|dash)$/.test(program) && rest[0] === '-c') return true;
  return command.slice(0, 3).some((part) => /(^|\/)(pnpm|npx|npm)(\.c?js)?$|npm exec|npx-cli\.js|npm-cli\.js|pnpm\.c?js$/.test(part));
}

/**
 * The package-manager processes between the command the operator ran and this process. `npm exec` passes SIGTERM
 * to its shell only, and pnpm passes it to nobody: when one of these wrappers goes away (or is re-parented because
 * its parent went away), this process stops the server as if it had received SIGTERM itself.
 */
function watchWrappers() {
  if (!existsSync('/proc/self/stat')) return;
  const chain = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1; depth += 1) {
    const facts = processFacts(pid);
    if (facts === undefined || !isWrapper(facts.command)) break;
    chain.push({ pid, ...facts });
    pid = facts.ppid;
  }
  if (chain.length === 0) return;
  const timer = setInterval(() => {
    const gone = chain.some((wrapper, index) => {
      const now = processFacts(wrapper.pid);
      // The outermost wrapper's own parent is the operator's shell: only its existence counts.
      return now === undefined || now.started !== wrapper.started || (index < chain.length - 1 && now.ppid !== wrapper.ppid);
    });
    if (!gone) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 200);
  timer.unref();
}

watchWrappers();
await import(pathToFileURL(distCli).href);
