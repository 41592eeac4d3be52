import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from './repository.js';

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command without a shell and collects its output. Never rejects on a non-zero exit. */
export function runCommand(
  command: string,
  commandArguments: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArguments, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        exitCode: code ?? -1,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
  });
}

/** Like {@link runCommand}, but a non-zero exit becomes an error carrying the end of the output. */
export async function runCommandOrThrow(
  command: string,
  commandArguments: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  const result = await runCommand(command, commandArguments, options);
  if (result.exitCode !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`\`${command} ${commandArguments.join(' ')}\` in ${options.cwd} exited ${result.exitCode}:\n${output}`);
  }
  return result;
}

let pnpmPrefix: readonly string[] | undefined;

/**
 * How to call pnpm from a test: `pnpm` when it is on PATH, otherwise through npx at the version the root
 * `packageManager` field pins (a fresh machine runs `npx --yes pnpm@<version> check`, which puts no pnpm on PATH).
 */
export function pnpmCommand(pnpmArguments: readonly string[]): [string, string[]] {
  if (pnpmPrefix === undefined) {
    const probe = spawnSync('pnpm', ['--version'], { stdio: 'ignore' });
    if (probe.status === 0) {
      pnpmPrefix = ['pnpm'];
    } else {
      const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { packageManager: string };
      pnpmPrefix = ['npx', '--yes', manifest.packageManager];
    }
  }
  const [command = 'pnpm', ...prefixArguments] = pnpmPrefix;
  return [command, [...prefixArguments, ...pnpmArguments]];
}
