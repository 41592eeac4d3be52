/**
 * How the acceptance tests point each pinned CLI at the provider simulator as its model endpoint: the variables
 * the target names (base URL, the CLI's own key variable, telemetry and updates off) and the files its own
 * configuration folder holds. The same facts an operator writes into an `agent-cli/v1` target.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentCliName } from '@tokenforge/provider-adapters';

/** The fake key the simulator accepts (never a real one). */
export const SIMULATOR_KEY = 'tf-fake-key-0000';

/** The installer manifest's CLI names, by the family's program names. */
const MANIFEST_NAMES: Record<AgentCliName, string> = { 'claude-code': 'claude', codex: 'codex', 'gemini-cli': 'gemini' };

/**
 * The pinned CLIs' executables from the agent-clients cache, or why they are not there. `cache` defaults to
 * `TOKENFORGE_AGENT_CLIENTS_CACHE`, else the installer's folder under the user's cache.
 */
export function findAgentCliExecutables(cache?: string): { readonly executables: Record<AgentCliName, string> } | { readonly missing: string } {
  const root = cache ?? process.env.TOKENFORGE_AGENT_CLIENTS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tokenforge', 'agent-clients');
  if (!existsSync(root)) return { missing: `no agent-clients cache at ${root} (run: npx --yes pnpm@12.4.2 install:agent-clients)` };
  for (const folder of readdirSync(root)) {
    const manifestFile = join(root, folder, 'agent-clients.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { clients: Record<string, { bin: string | null }> };
    const executables = {} as Record<AgentCliName, string>;
    let complete = true;
    for (const [program, name] of Object.entries(MANIFEST_NAMES) as [AgentCliName, string][]) {
      const bin = manifest.clients[name]?.bin;
      if (bin === null || bin === undefined || !existsSync(bin)) complete = false;
      else executables[program] = bin;
    }
    if (complete) return { executables };
  }
  return { missing: `the agent-clients cache at ${root} has no complete install (run: npx --yes pnpm@12.4.2 install:agent-clients)` };
}

/** The environment and configuration folder of one CLI pointed at `simulatorUrl`. */
export function simulatorTargetFor(program: AgentCliName, simulatorUrl: string, configFolder: string): Record<string, string> {
  mkdirSync(configFolder, { recursive: true });
  switch (program) {
    case 'claude-code':
      return {
        ANTHROPIC_BASE_URL: simulatorUrl,
        ANTHROPIC_API_KEY: SIMULATOR_KEY,
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      };
    case 'codex':
      writeFileSync(
        join(configFolder, 'config.toml'),
        [
          'model_provider = "simulator"',
          'check_for_update_on_startup = false',
          '[analytics]',
          'enabled = false',
          '[model_providers.simulator]',
          'name = "Simulator"',
          `base_url = "${simulatorUrl}/v1"`,
          'env_key = "SIMULATOR_API_KEY"',
          'wire_api = "responses"',
          'supports_websockets = false',
          'request_max_retries = 0',
          'stream_max_retries = 0',
          '',
        ].join('\n'),
      );
      return { SIMULATOR_API_KEY: SIMULATOR_KEY };
    case 'gemini-cli':
      mkdirSync(join(configFolder, '.gemini'), { recursive: true });
      writeFileSync(
        join(configFolder, '.gemini', 'settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }),
      );
      return { GOOGLE_GEMINI_BASE_URL: simulatorUrl, GEMINI_API_KEY: SIMULATOR_KEY };
    default: {
      const exhaustive: never = program;
      return exhaustive;
    }
  }
}
