import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url));
const SIMULATOR = fileURLToPath(new URL('./simulator-process.ts', import.meta.url));

/** The OpenAI key every simulator process of these tests accepts. */
export const PROCESS_SIMULATOR_KEY = 'sk-sim-process-0123456789';
/** The client key of {@link processCatalogue}. */
export const PROCESS_CLIENT_KEY = 'tfg-process-client-key-0123456789';

const children = new Set<ChildProcess>();

/** Kills every process these helpers started that still runs (an afterAll). */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
}

function node(script: string, args: readonly string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** A simulator process. */
export interface SimulatorProcess {
  readonly openAiBaseUrl: string;
  readonly child: ChildProcess;
}

/** A simulator process on `port` (default: a free one). */
export async function startSimulatorProcess(port = 0): Promise<SimulatorProcess> {
  const child = node(SIMULATOR, [], { SIMULATOR_OPENAI_KEY: PROCESS_SIMULATOR_KEY, SIMULATOR_PORT: String(port) });
  child.stderr?.resume();
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', () => reject(new Error('the simulator process exited')));
  });
  return { openAiBaseUrl: (JSON.parse(line) as { openAiBaseUrl: string }).openAiBaseUrl, child };
}

/** A gateway CLI process: its URLs and its operator log (stderr JSON lines). */
export interface GatewayProcess {
  readonly url: string;
  readonly metricsUrl: string | undefined;
  /** What it printed on stdout at start. */
  readonly stdout: string;
  readonly child: ChildProcess;
  /** Every stderr JSON line so far. */
  readonly logLines: Record<string, unknown>[];
  /** Waits for the next log line that `predicate` accepts (including ones already written after `from`). */
  logLine(predicate: (line: Record<string, unknown>) => boolean, from?: number, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function startGatewayProcess(args: readonly string[], env: Record<string, string> = {}): Promise<GatewayProcess> {
  // These processes test routing, reload and telemetry: governance (on by default from the CLI) stays off unless a
  // test names a data directory, so parallel test files never share one.
  const governance = args.includes('--data-dir') ? [] : ['--no-governance'];
  const child = node(CLI, ['--port', '0', ...governance, ...args], env);
  const logLines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
    try {
      logLines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      logLines.push({ text: line });
    }
    for (const waiter of waiters) waiter();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stdout = '';
  const urls = await new Promise<{ url: string; metricsUrl: string | undefined }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${stdout} ${JSON.stringify(logLines)}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url === undefined || !stdout.includes('operator log:')) return;
      clearTimeout(timer);
      resolve({ url, metricsUrl: /metrics: (http:\/\/\S+)\/metrics/.exec(stdout)?.[1] });
    });
    void exited.then(() => reject(new Error(`the gateway exited: ${stdout} ${JSON.stringify(logLines)}`)));
  });
  return {
    ...urls,
    stdout,
    child,
    logLines,
    logLine: (predicate, from = 0, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = logLines.slice(from).find(predicate);
          if (found === undefined) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such log line in ${JSON.stringify(logLines.slice(from))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A fresh folder for catalogue and secret files. */
export function scratchFolder(): string {
  return mkdtempSync(join(tmpdir(), 'tokenforge-gateway-test-'));
}

/** An OpenAI-chat target on a simulator process. */
export function processTarget(simulator: SimulatorProcess | string, model = 'gpt-4.1-mini', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: 'simulator',
    family: 'openai-chat/v1',
    model,
    baseUrl: typeof simulator === 'string' ? simulator : simulator.openAiBaseUrl,
    credentials: { apiKeyEnv: 'PROCESS_SIMULATOR_KEY' },
    network: { allowLoopback: true },
    ...extra,
  };
}

/** Writes a catalogue file (JSON) with the client key `PROCESS_CLIENT_KEY` and `models`; returns its path. */
export function writeProcessCatalogue(folder: string, models: readonly Record<string, unknown>[], extra: Record<string, unknown> = {}, name = 'catalogue.json'): string {
  const path = join(folder, name);
  writeFileSync(path, JSON.stringify({ version: 1, clientKeys: [{ id: 'main', env: 'PROCESS_CLIENT_KEY' }], models, ...extra }, null, 2));
  return path;
}

/** The environment the catalogues of these tests read. */
export const PROCESS_ENV: Record<string, string> = { PROCESS_SIMULATOR_KEY, PROCESS_CLIENT_KEY };

/** A non-streamed OpenAI chat completion through the gateway. */
export function chatThrough(url: string, model: string, key = PROCESS_CLIENT_KEY, stream = false): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream }),
  });
}
