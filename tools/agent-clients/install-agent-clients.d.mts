/** Types of install-agent-clients.mjs (a plain Node script with no dependencies). */
export interface AgentClientEntry {
  readonly package: string;
  readonly version: string | undefined;
  /** Absolute path of the executable, or null when this platform has none in the lockfile. */
  readonly bin: string | null;
  readonly reason?: string;
}
export interface AgentClientsManifest {
  readonly cacheDir: string;
  readonly installedAt: string;
  readonly installSeconds: number;
  readonly sizeBytes: number;
  readonly clients: Record<'claude' | 'codex' | 'gemini' | 'opencode', AgentClientEntry>;
  readonly reused: boolean;
}
export const MANIFEST_FILE: string;
export function cacheRoot(env?: Record<string, string | undefined>): string;
export function cacheKey(lockfileText: string, platform?: string, arch?: string): string;
export function resolveAgentClients(nodeModules: string, platform?: string, arch?: string, avx2?: boolean): AgentClientsManifest['clients'];
export function installAgentClients(options?: { root?: string; log?: (line: string) => void }): AgentClientsManifest;
