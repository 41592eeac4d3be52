import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../../cli.ts', import.meta.url));

/** One gateway CLI process (`tokenforge-gateway --config ...`), as an operator runs it. */
export interface GatewayProcess {
  readonly url: string;
  readonly pid: number;
  /** The last lines it wrote on stderr (the operator log), for a failing test's message. */
  stderrTail(): string;
  /** Whether the process still runs. */
  alive(): boolean;
  /** SIGKILL: no drain, no settlement written, nothing closed. Resolves when the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (drain, settle, close), then SIGKILL after `graceMs`. Resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts the CLI in its own single node process (`node --import tsx`, so a SIGKILL reaches the gateway itself, not a
 * wrapper) and resolves with its URL once it listens.
 */
export async function startGatewayProcess(options: {
  readonly configPath: string;
  readonly env: NodeJS.ProcessEnv;
  readonly startTimeoutMs?: number;
  /** Extra node options before the script (`--cpu-prof`, which `NODE_OPTIONS` does not accept). */
  readonly nodeArguments?: readonly string[];
}): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArguments ?? []), '--import', 'tsx', CLI, '--config', options.configPath, '--port', '0'], {
    cwd: ROOT,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not listen within ${options.startTimeoutMs ?? 90_000} ms: ${stderr}`)), options.startTimeoutMs ?? 90_000);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const match = /^tokenforge gateway listening on (http:\/\/\S+)$/.exec(line);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited (${String(code)}) before it listened: ${stderr}`));
    });
  });
  child.stdout?.resume();
  const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    url,
    pid: child.pid as number,
    stderrTail: () => stderr,
    alive: () => !gone(),
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 15_000) {
      if (gone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
