import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, cacheKey, cacheRoot, installAgentClients, resolveAgentClients } from './install-agent-clients.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function scratch(): string {
  const folder = mkdtempSync(join(tmpdir(), 'agent-clients-'));
  folders.push(folder);
  return folder;
}
function touch(path: string, text = ''): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe('agent-clients installer', () => {
  it('keys the cache by platform, architecture and the lockfile hash, under the XDG cache directory', () => {
    expect(cacheKey('a', 'linux', 'x64')).toMatch(/^linux-x64-[0-9a-f]{16}$/);
    expect(cacheKey('a', 'linux', 'x64')).not.toBe(cacheKey('b', 'linux', 'x64'));
    expect(cacheKey('a', 'linux', 'x64')).not.toBe(cacheKey('a', 'darwin', 'arm64'));
    expect(cacheRoot({ XDG_CACHE_HOME: '/c' })).toBe('/c/tokenforge/agent-clients');
    expect(cacheRoot({ XDG_CACHE_HOME: '/c', TOKENFORGE_AGENT_CLIENTS_CACHE: '/d' })).toBe('/d');
  });

  it('resolves the native binaries the postinstall steps would link, and says which are missing', () => {
    const modules = scratch();
    touch(join(modules, '@anthropic-ai/claude-code/package.json'), '{"version":"9.9.9"}');
    touch(join(modules, '@anthropic-ai/claude-code-linux-x64-musl/claude'));
    touch(join(modules, '@openai/codex/bin/codex.js'));
    touch(join(modules, 'opencode-linux-x64/bin/opencode'));
    touch(join(modules, 'opencode-linux-x64/package.json'), '{"version":"1.0.0"}');
    touch(join(modules, 'opencode-linux-x64-baseline/bin/opencode'));
    const clients = resolveAgentClients(modules, 'linux', 'x64', false);
    expect(clients.claude).toMatchObject({ version: '9.9.9', bin: join(modules, '@anthropic-ai/claude-code-linux-x64-musl/claude') });
    expect(clients.codex.bin).toBe(join(modules, '@openai/codex/bin/codex.js'));
    expect(clients.gemini.bin).toBeNull();
    expect(clients.opencode.bin).toBe(join(modules, 'opencode-linux-x64-baseline/bin/opencode'));
    expect(resolveAgentClients(modules, 'linux', 'x64', true).opencode).toMatchObject({ version: '1.0.0', bin: join(modules, 'opencode-linux-x64/bin/opencode') });
    expect(resolveAgentClients(modules, 'darwin', 'arm64', true).opencode.bin).toBeNull();
  });

  it('reuses a complete install without running npm', () => {
    const root = scratch();
    const key = cacheKey(readFileSync(join(here, 'package-lock.json'), 'utf8'));
    touch(join(root, key, MANIFEST_FILE), JSON.stringify({ cacheDir: join(root, key), clients: {} }));
    const manifest = installAgentClients({ root, log: () => undefined });
    expect(manifest).toMatchObject({ cacheDir: join(root, key), reused: true });
  });

  it('pins exact versions, locks them, and stays out of the pnpm workspace', () => {
    const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const lock = JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    const pins = { ...manifest.dependencies, ...manifest.optionalDependencies };
    expect(Object.keys(pins).sort()).toEqual(['@anthropic-ai/claude-code', '@google/gemini-cli', '@openai/codex', 'opencode-linux-x64', 'opencode-linux-x64-baseline']);
    for (const [name, version] of Object.entries(pins)) {
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(lock.packages[`node_modules/${name}`]?.version).toBe(version);
    }
    const workspace = readFileSync(join(here, '../../pnpm-workspace.yaml'), 'utf8');
    expect(workspace).toMatch(/packages:\n  - packages\/\*\n/);
    expect(workspace).not.toContain('tools');
  });
});
