import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PROVIDER_PROCESS_RUN_FILES_TOKEN_V4,
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
 * Starts one run: a fresh empty working folder (and a private files folder beside it), the minimal environment, the executable spawned without a shell as
 * the leader of its own process group. Resolves once the process is running; rejects with a
 * {@link ProviderProcessFailureV4} when it cannot start.
 */
export async function runProcess(options: ProcessTransportOptions, request: ProviderProcessRunRequestV4): Promise<ProviderProcessRunV4> {
  if (request.signal.aborted) throw new ProviderProcessFailureV4('spawn-failed', { reason: 'aborted' });
  const environment = buildChildEnvironment(options, request.configFolderVariables ?? []);
  const executable = await resolveExecutable(options.executable, environment.PATH);
  if (executable === undefined) throw new ProviderProcessFailureV4('executable-missing');
  await mkdir(options.configFolder, { recursive: true, mode: 0o700 });
  const runFolder = await mkdtemp(join(options.workRoot ?? tmpdir(), 'tokenforge-run-'));
  const workFolder = join(runFolder, 'work');
  const filesFolder = join(runFolder, 'files');
  await mkdir(workFolder, { mode: 0o700 });
  await mkdir(filesFolder, { mode: 0o700 });
  for (const [name, content] of Object.entries(request.files ?? {})) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name)) {
      await rm(runFolder, { recursive: true, force: true });
      throw new ProviderProcessFailureV4('spawn-failed', { reason: 'policy-refused' });
    }
    await writeFile(join(filesFolder, name), content, { mode: 0o600 });
  }
  const args = request.args.map((argument) => argument.split(PROVIDER_PROCESS_RUN_FILES_TOKEN_V4).join(filesFolder));
  const started = Date.now();
  const child = spawn(executable, args, {
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
    await rm(runFolder, { recursive: true, force: true });
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
      void rm(runFolder, { recursive: true, force: true }).then(
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
  /*
   * Stdout is handed on in whole lines: the bytes after the last newline wait for the rest of their line. When the
   * child ends by itself its trailing partial line is still handed on (it said it); when the run was killed
   * (deadline, abort, bounds) the partial line is dropped, because the kill cut it.
   */
  async function* readStdout(): AsyncGenerator<Uint8Array> {
    let lineBytes = 0;
    let tail: Buffer = Buffer.alloc(0);
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
        if (from === 0) {
          tail = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
          continue;
        }
        const lines = tail.length === 0 ? chunk.subarray(0, from) : Buffer.concat([tail, chunk.subarray(0, from)]);
        tail = chunk.subarray(from);
        yield new Uint8Array(lines.buffer, lines.byteOffset, lines.length);
      }
      finished = true;
      if (endReason === 'exited' && tail.length > 0) yield new Uint8Array(tail.buffer, tail.byteOffset, tail.length);
    } finally {
      if (!finished && endReason === 'exited') stop('aborted');
      if (!finished) child.stdout.destroy();
    }
  }
  return { stdout: readStdout(), exit };
}
