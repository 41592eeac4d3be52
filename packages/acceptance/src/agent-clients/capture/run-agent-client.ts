/**
 * Installing the pinned CLIs (through tools/agent-clients/install-agent-clients.mjs) and running one of them once,
 * in its own HOME and an empty scratch folder, with a time limit.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentClientRun, type AgentClient, type AgentClientScenario } from './agent-client-runs.js';
import type { RecorderToolChoice } from '../recorder/recorder-answers.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** One installed CLI, as the installer's manifest lists it. */
export interface InstalledAgentClient {
  readonly package: string;
  readonly version?: string;
  readonly bin: string | null;
  readonly reason?: string;
}

/** The installer's manifest. */
export interface InstalledAgentClients {
  readonly cacheDir: string;
  readonly clients: Record<AgentClient, InstalledAgentClient>;
}

/** Installs the CLIs or reuses the cached install (progress on stderr). */
export function installAgentClients(): InstalledAgentClients {
  const run = spawnSync(process.execPath, [join(repositoryRoot, 'tools/agent-clients/install-agent-clients.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (run.status !== 0) throw new Error('installing the agent clients failed');
  return JSON.parse(run.stdout) as InstalledAgentClients;
}

/** What one run left behind. */
export interface AgentClientRunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
  /** The run's folder (HOME in `home/`, working directory in `scratch/`, outputs beside them). */
  readonly folder: string;
  /** The tools a recorder should call in this scenario. */
  readonly toolPreferences: readonly RecorderToolChoice[];
}

/** Extra folders for PATH: the ripgrep Codex ships, which opencode and Gemini CLI look for. */
function helperPath(installed: InstalledAgentClients): string[] {
  const codex = installed.clients.codex.bin;
  if (codex === null) return [];
  const vendor = join(installed.cacheDir, 'node_modules', '@openai', `codex-${process.platform}-${process.arch}`, 'vendor');
  const triple = process.arch === 'arm64' ? 'aarch64-unknown-linux-musl' : 'x86_64-unknown-linux-musl';
  return [join(vendor, triple, 'codex-path')];
}

/** Runs `client` once in `scenario` against `baseUrl`; `before` runs after the folders exist, before the CLI starts. */
export async function runAgentClient(input: {
  readonly installed: InstalledAgentClients;
  readonly client: AgentClient;
  readonly scenario: AgentClientScenario;
  readonly baseUrl: string;
  readonly folder: string;
  readonly model?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Codex only: its Responses WebSocket transport on (`supports_websockets = true`). */
  readonly websockets?: boolean;
  readonly timeoutMs?: number;
  readonly before?: (toolPreferences: readonly RecorderToolChoice[]) => void;
}): Promise<AgentClientRunResult> {
  const bin = input.installed.clients[input.client].bin;
  if (bin === null) throw new Error(`${input.client} is not installed on this platform`);
  const home = join(input.folder, 'home');
  const scratch = join(input.folder, 'scratch');
  mkdirSync(home, { recursive: true });
  mkdirSync(scratch, { recursive: true });
  const run = agentClientRun(input.client, input.scenario, { baseUrl: input.baseUrl, home, scratch, ...(input.model === undefined ? {} : { model: input.model }), ...(input.headers === undefined ? {} : { headers: input.headers }), ...(input.websockets === undefined ? {} : { websockets: input.websockets }) });
  for (const [file, text] of Object.entries(run.homeFiles)) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), text);
  }
  input.before?.(run.toolPreferences);
  const path = [...helperPath(input.installed), process.env.PATH ?? '/usr/bin:/bin'].join(':');
  const started = Date.now();
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolvePromise) => {
    const child = spawn(bin, run.args, { cwd: scratch, env: { PATH: path, ...run.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), input.timeoutMs ?? 240_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
  writeFileSync(join(input.folder, 'stdout.txt'), result.stdout);
  writeFileSync(join(input.folder, 'stderr.txt'), result.stderr);
  return { ...result, seconds: Math.round((Date.now() - started) / 100) / 10, folder: input.folder, toolPreferences: run.toolPreferences };
}
