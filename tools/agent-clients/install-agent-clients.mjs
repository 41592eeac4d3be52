#!/usr/bin/env node
// Installs the pinned coding-agent CLIs (package.json + package-lock.json beside this file) with `npm ci` into a
// cache folder outside the clone, keyed by the lockfile's hash, and prints where each CLI's executable is.
// Install scripts are not run: the launchers of Claude Code and opencode are placeholders that a postinstall
// step would overwrite, so this script resolves each platform package's native binary itself.
//
//   node tools/agent-clients/install-agent-clients.mjs            install or reuse, print the manifest as JSON
//   node tools/agent-clients/install-agent-clients.mjs --verify   also run `<cli> --version` for each
//
// TOKENFORGE_AGENT_CLIENTS_CACHE overrides the cache root (default `${XDG_CACHE_HOME:-~/.cache}/tokenforge/agent-clients`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const MANIFEST_FILE = 'agent-clients.json';

/** The cache root: `TOKENFORGE_AGENT_CLIENTS_CACHE`, else the XDG cache directory. */
export function cacheRoot(env = process.env) {
  if (env.TOKENFORGE_AGENT_CLIENTS_CACHE) return env.TOKENFORGE_AGENT_CLIENTS_CACHE;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'tokenforge', 'agent-clients');
}

/** The cache key: platform, architecture and the first 16 hex digits of the lockfile's SHA-256. */
export function cacheKey(lockfileText, platform = process.platform, arch = process.arch) {
  const hash = createHash('sha256').update(lockfileText).digest('hex').slice(0, 16);
  return `${platform}-${arch}-${hash}`;
}

function readVersion(packageDir) {
  const file = join(packageDir, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
}

function cpuHasAvx2() {
  try {
    return /\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Finds each CLI's executable in an installed `node_modules` tree. A CLI whose platform package is absent is
 * reported with `bin: null` and the reason, never guessed.
 */
export function resolveAgentClients(nodeModules, platform = process.platform, arch = process.arch, avx2 = cpuHasAvx2()) {
  const exe = platform === 'win32' ? '.exe' : '';
  const first = (candidates) => candidates.find((candidate) => existsSync(candidate.bin));
  const clients = {};

  const claudePackages = [`${platform}-${arch}`, `${platform}-${arch}-musl`].map((suffix) => ({
    bin: join(nodeModules, '@anthropic-ai', `claude-code-${suffix}`, `claude${exe}`),
  }));
  clients.claude = {
    package: '@anthropic-ai/claude-code',
    version: readVersion(join(nodeModules, '@anthropic-ai', 'claude-code')),
    ...(first(claudePackages) ?? { bin: null, reason: `no @anthropic-ai/claude-code-${platform}-${arch} package installed` }),
  };

  // Codex's launcher is plain Node and finds its own platform binary (and the bundled ripgrep).
  const codexLauncher = join(nodeModules, '@openai', 'codex', 'bin', 'codex.js');
  clients.codex = {
    package: '@openai/codex',
    version: readVersion(join(nodeModules, '@openai', 'codex')),
    ...(existsSync(codexLauncher) ? { bin: codexLauncher } : { bin: null, reason: 'no @openai/codex launcher' }),
  };

  const geminiBundle = join(nodeModules, '@google', 'gemini-cli', 'bundle', 'gemini.js');
  clients.gemini = {
    package: '@google/gemini-cli',
    version: readVersion(join(nodeModules, '@google', 'gemini-cli')),
    ...(existsSync(geminiBundle) ? { bin: geminiBundle } : { bin: null, reason: 'no @google/gemini-cli bundle' }),
  };

  // opencode ships a baseline build for CPUs without AVX2; its own postinstall makes the same choice.
  const os = platform === 'win32' ? 'windows' : platform;
  const opencodeNames = avx2 ? [`opencode-${os}-${arch}`, `opencode-${os}-${arch}-baseline`] : [`opencode-${os}-${arch}-baseline`, `opencode-${os}-${arch}`];
  const opencode = first(opencodeNames.map((name) => ({ bin: join(nodeModules, name, 'bin', `opencode${exe}`), dir: join(nodeModules, name) })));
  clients.opencode = opencode
    ? { package: 'opencode-ai', version: readVersion(opencode.dir), bin: opencode.bin }
    : { package: 'opencode-ai', version: undefined, bin: null, reason: `no opencode-${os}-${arch} package in the lockfile for this platform` };

  return clients;
}

function directorySize(path) {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += directorySize(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/** Installs into `<cacheRoot>/<key>` unless a complete install is already there; returns the manifest. */
export function installAgentClients({ root = cacheRoot(), log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const lockfile = readFileSync(join(here, 'package-lock.json'), 'utf8');
  const target = join(root, cacheKey(lockfile));
  const manifestPath = join(target, MANIFEST_FILE);
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    log(`agent clients: reusing ${target}`);
    return { ...manifest, reused: true };
  }
  mkdirSync(root, { recursive: true });
  const staging = `${target}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  copyFileSync(join(here, 'package.json'), join(staging, 'package.json'));
  copyFileSync(join(here, 'package-lock.json'), join(staging, 'package-lock.json'));
  log(`agent clients: npm ci into ${staging}`);
  const started = Date.now();
  const result = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], {
    cwd: staging,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm ci failed with status ${result.status ?? result.signal}`);
  }
  const installSeconds = Math.round((Date.now() - started) / 100) / 10;
  // Resolved in the staging folder, recorded with the final folder's paths (the tree is the same after the rename).
  const resolved = resolveAgentClients(join(staging, 'node_modules'));
  const manifest = {
    cacheDir: target,
    installedAt: new Date().toISOString(),
    installSeconds,
    sizeBytes: directorySize(staging),
    clients: Object.fromEntries(Object.entries(resolved).map(([name, client]) => [name, { ...client, bin: client.bin === null ? null : client.bin.replace(staging, target) }])),
  };
  writeFileSync(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  try {
    renameSync(staging, target);
  } catch (error) {
    // Another process finished first: keep its folder.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(manifestPath)) throw error;
    return { ...JSON.parse(readFileSync(manifestPath, 'utf8')), reused: true };
  }
  log(`agent clients: installed in ${installSeconds} s, ${(manifest.sizeBytes / 1e9).toFixed(2)} GB`);
  return { ...manifest, reused: false };
}

function verify(manifest) {
  let failed = false;
  for (const [name, client] of Object.entries(manifest.clients)) {
    if (client.bin === null) {
      process.stderr.write(`${name}: unavailable (${client.reason})\n`);
      continue;
    }
    const run = spawnSync(client.bin, ['--version'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: join(manifest.cacheDir, '.verify-home') } });
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n')[0];
    process.stderr.write(`${name}: ${run.status === 0 ? output : `failed (${run.status ?? run.signal ?? run.error?.message})`}\n`);
    if (run.status !== 0) failed = true;
  }
  return !failed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = installAgentClients();
  process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
  if (process.argv.includes('--verify') && !verify(manifest)) process.exit(1);
}
