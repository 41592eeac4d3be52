/**
 * The peer gateways of `npx --yes pnpm@12.4.2 bench:gateway`, installed on demand from tools/bench/gateway-peers (its own
 * package.json and npm lockfile) into ~/.cache/tokenforge/gateway-peers/<lockfile hash>, never by the workspace
 * install. `npm ci --ignore-scripts` installs exactly the locked tree (Portkey's postinstall only runs
 * patch-package, which has no patches in the published package).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SPEC_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..', 'gateway-peers');

/** The peers' npm package names. */
export const PORTKEY_PACKAGE = '@portkey-ai/gateway';
export const CCR_PACKAGE = '@musistudio/claude-code-router';

/** Where the locked peers are (installed when missing); returns the folder holding `node_modules`. */
export function ensureGatewayPeers(log: (line: string) => void = console.log): string {
  const lock = readFileSync(join(SPEC_FOLDER, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).update(readFileSync(join(SPEC_FOLDER, 'package.json'))).digest('hex').slice(0, 16);
  const folder = join(process.env.TOKENFORGE_CACHE_DIR ?? join(homedir(), '.cache', 'tokenforge'), 'gateway-peers', hash);
  const marker = join(folder, '.installed');
  if (existsSync(marker)) return folder;
  mkdirSync(folder, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(SPEC_FOLDER, file), join(folder, file));
  log(`installing the gateway peers into ${folder} (npm ci, once per lockfile)`);
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: 'inherit' });
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return folder;
}

/** The installed version of `name` under `folder`. */
export function installedVersion(folder: string, name: string): string {
  return (JSON.parse(readFileSync(join(folder, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Writes claude-code-router's config (under `<home>/.claude-code-router/`) routing every request to the upstream. */
export function writeCcrConfig(home: string, port: number, upstreamPort: number, apiKey: string): void {
  const folder = join(home, '.claude-code-router');
  mkdirSync(folder, { recursive: true });
  const config = {
    LOG: false,
    HOST: '127.0.0.1',
    PORT: port,
    APIKEY: apiKey,
    Providers: [{ name: 'bench', api_base_url: `http://127.0.0.1:${upstreamPort}/v1/chat/completions`, api_key: 'bench-upstream-key', models: ['bench-model'] }],
    Router: { default: 'bench,bench-model' },
  };
  writeFileSync(join(folder, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
}
