import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ProviderProcessFailureV4,
  type ProviderProcessEndReasonV4,
  type ProviderProcessExitV4,
  type ProviderProcessRunRequestV4,
  type ProviderProcessRunV4,
} from '@tokenforge/model-protocol';
import { buildChildEnvironment } from './build-child-environment.js';
import { killProcessGroup } from './kill-process-group.js';
import type { ProcessTransportOptions } from './process-transport-options.js';
import { resolveExecutable } from './resolve-executable.js';

const NEWLINE = 0x0a;

/**
 * Starts one run: a fresh empty working folder, the minimal environment, the executable spawned without a shell as
 * the leader of its own process group. Resolves once the process is running; rejects with a
 * {@link ProviderProcessFailureV4} when it cannot start.
 */
export async function runProcess(options: ProcessTransportOptions, request: ProviderProcessRunRequestV4): Promise<ProviderProcessRunV4> {
  if (request.signal.aborted) throw new ProviderProcessFailureV4('spawn-failed', { reason: 'aborted' });
  const environment = buildChildEnvironment(options, request.configFolderVariables ?? []);
  const executable = await resolveExecutable(options.executable, environment.PATH);
  if (executable === undefined) throw new ProviderProcessFailureV4('executable-missing');
  await mkdir(options.configFolder, { recursive: true, mode: 0o700 });
  const workFolder = await mkdtemp(join(options.workRoot ?? tmpdir(), 'tokenforge-run-'));
  const started = Date.now();
  const child = spawn(executable, [...request.args], {
    cwd: workFolder,
    env: environment,
    detached: true,
    shell: false,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  } catch (error) {
    await rm(workFolder, { recursive: true, force: true });
    const code = (error as { code?: unknown }).code === 'ENOENT' ? 'executable-missing' : 'spawn-failed';
    throw new ProviderProcessFailureV4(code, { cause: error });
  }
  const pid = child.pid as number;
  let endReason: ProviderProcessEndReasonV4 = 'exited';
  const stop = (reason: ProviderProcessEndReasonV4): void => {
    if (endReason === 'exited') endReason = reason;
    killProcessGroup(pid);
  };
  const deadline = setTimeout(() => stop('deadline'), options.deadlineMs);
  const onAbort = (): void => stop('aborted');
  request.signal.addEventListener('abort', onAbort, { once: true });

  const maxStderr = options.maxStderrBytes ?? 16 * 1024;
  const stderrChunks: Buffer[] = [];
  let stderrKept = 0;
  let stderrDropped = 0;
  child.stderr.on('data', (chunk: Buffer) => {
    const room = maxStderr - stderrKept;
    if (room > 0) stderrChunks.push(chunk.subarray(0, room));
    stderrKept += Math.min(room > 0 ? room : 0, chunk.length);
    stderrDropped += Math.max(0, chunk.length - Math.max(room, 0));
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(request.stdin ?? '');

  let stdoutBytes = 0;
  const exit = new Promise<ProviderProcessExitV4>((resolve) => {
    child.once('close', (exitCode: number | null) => {
      clearTimeout(deadline);
      request.signal.removeEventListener('abort', onAbort);
      // Whatever the CLI left running in its group goes with it.
      killProcessGroup(pid);
      const result: ProviderProcessExitV4 = { reason: endReason, exitCode: endReason === 'exited' ? exitCode : null };
      void rm(workFolder, { recursive: true, force: true }).then(
        () => undefined,
        () => undefined,
      ).then(() => {
        try {
          options.onRunEnd?.({
            pid,
            reason: result.reason,
            exitCode: result.exitCode,
            stderr: Buffer.concat(stderrChunks).toString('utf8'),
            stderrDroppedBytes: stderrDropped,
            stdoutBytes,
            durationMs: Date.now() - started,
          });
        } catch {
          // the operator log must not break a run
        }
        resolve(result);
      });
    });
  });

  const maxLine = options.maxLineBytes ?? 1024 * 1024;
  const maxTotal = options.maxStdoutBytes ?? 16 * 1024 * 1024;
  async function* readStdout(): AsyncGenerator<Uint8Array> {
    let lineBytes = 0;
    let finished = false;
    try {
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        stdoutBytes += chunk.length;
        let overLong = false;
        let from = 0;
        for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, from)) {
          if (lineBytes + (at - from) > maxLine) overLong = true;
          lineBytes = 0;
          from = at + 1;
        }
        lineBytes += chunk.length - from;
        if (overLong || lineBytes > maxLine || stdoutBytes > maxTotal) {
          stop('output-too-large');
          break;
        }
        yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
      }
      finished = true;
    } finally {
      if (!finished && endReason === 'exited') stop('aborted');
      if (!finished) child.stdout.destroy();
    }
  }
  return { stdout: readStdout(), exit };
}
