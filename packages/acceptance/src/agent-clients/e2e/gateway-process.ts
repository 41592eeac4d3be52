/**
 * Starts the gateway as its own process (`packages/gateway/src/cli.ts --config <file>`), as a user runs it, with a
 * catalogue written for the run; resolves with its URL once it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** A gateway process. */
export interface GatewayProcess {
  readonly url: string;
  /** Everything the gateway wrote on stderr (its operator log). */
  readonly log: () => string;
  close(): Promise<void>;
}

/** Writes `catalogue` beside `folder`/catalogue.json and starts the gateway on an ephemeral port. */
export async function startGatewayProcess(input: { readonly folder: string; readonly catalogue: unknown; readonly env: Record<string, string> }): Promise<GatewayProcess> {
  const config = join(input.folder, 'catalogue.json');
  writeFileSync(config, `${JSON.stringify(input.catalogue, null, 2)}\n`);
  const tsx = join(repositoryRoot, 'node_modules', '.bin', 'tsx');
  const child: ChildProcess = spawn(tsx, [join(repositoryRoot, 'packages/gateway/src/cli.ts'), '--config', config, '--port', '0', '--no-governance'], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? input.folder, ...input.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = await new Promise<string>((resolvePromise, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${stderr.slice(0, 500)}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match !== null) {
        clearTimeout(timer);
        resolvePromise(match[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited with ${code}: ${stderr.slice(0, 500)}`));
    });
  });
  return {
    url,
    log: () => stderr,
    close: () =>
      new Promise<void>((resolvePromise) => {
        if (child.exitCode !== null) return resolvePromise();
        child.once('exit', () => resolvePromise());
        child.kill('SIGTERM');
      }),
  };
}
