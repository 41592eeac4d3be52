import {
  ProviderTransportFailureV1,
  type ProviderTransport,
  type ProviderTransportFailureReasonV1,
  type ProviderTransportFailureStageV1,
} from '../v1/provider-transport.js';

/*
 * The process transport port, V4 revision: a host-supplied, request-bound transport that runs one local process
 * instead of sending one HTTP request. It is still a ProviderTransport (it has `send`, which refuses), so the engine
 * binds and passes it exactly like the HTTP one and never learns which kind it holds; only a family that declares it
 * runs processes (`agent-cli/v1`) looks for `run`.
 */

/** What a family asks the process transport to run. Never an executable, an environment or a folder: the host owns those. */
export interface ProviderProcessRunRequestV4 {
  /** The argument list, passed as is (never through a shell). */
  readonly args: readonly string[];
  /** Text written to the child's stdin, which is then closed. Absent: stdin is closed at once. */
  readonly stdin?: string;
  /**
   * Names of environment variables the family wants set to the run's per-target configuration folder (for
   * example `CLAUDE_CONFIG_DIR`, `CODEX_HOME`). `HOME` always points there.
   */
  readonly configFolderVariables?: readonly string[];
  /**
   * Files the run needs (for example a policy file that turns a CLI's tools off), by plain file name. The transport
   * writes them to a fresh private folder beside the working folder (never inside it, so the working folder starts
   * empty) and removes it afterwards; {@link PROVIDER_PROCESS_RUN_FILES_TOKEN_V4} inside an argument is replaced by
   * that folder's absolute path.
   */
  readonly files?: Readonly<Record<string, string>>;
  /** Kills the whole process group when aborted. */
  readonly signal: AbortSignal;
}

/** The built-in tools of a CLI a host allows: none at all, or read-only tools confined to the working folder. */
export type ProviderProcessBuiltInToolsV4 = 'none' | 'read-only';

/** The token an argument carries where the run's files folder path goes. */
export const PROVIDER_PROCESS_RUN_FILES_TOKEN_V4 = '{run-files}';

/** Why a run ended, as the transport saw it. */
export type ProviderProcessEndReasonV4 =
  /** The process exited by itself; `exitCode` says how. */
  | 'exited'
  /** The run's deadline passed; the process group was killed. */
  | 'deadline'
  /** The request's signal aborted; the process group was killed. */
  | 'aborted'
  /** Stdout exceeded the per-line or total byte bound; the process group was killed. */
  | 'output-too-large';

/** How a run ended. Known only after stdout has ended. */
export interface ProviderProcessExitV4 {
  /** Why it ended. */
  readonly reason: ProviderProcessEndReasonV4;
  /** The exit code, when the process exited by itself; `null` when it was killed by a signal. */
  readonly exitCode: number | null;
}

/** One started run. */
export interface ProviderProcessRunV4 {
  /**
   * The child's stdout bytes, in order, bounded by the host's line and total limits. Ending the iteration early
   * kills the process group.
   */
  readonly stdout: AsyncIterable<Uint8Array>;
  /** Settles once, after stdout ended and the process is gone. Never rejects. */
  readonly exit: Promise<ProviderProcessExitV4>;
}

/** A transport that runs processes. `send` always rejects before sending: it speaks no HTTP. */
export interface ProviderProcessTransportV4 extends ProviderTransport {
  /** Marks a process transport (recognized structurally by {@link isProviderProcessTransportV4}). */
  readonly transportKind: 'process/v4';
  /**
   * The program this transport runs, as the host's target names it (for `agent-cli/v1`: `claude-code`, `codex` or
   * `gemini-cli`). A process family picks its mapping by it and refuses a program it does not know; it is the
   * process twin of an HTTP target's base URL, a host fact, never a client's.
   */
  readonly program: string;
  /**
   * The CLI's own built-in tools the host allows this target, a host fact like `program`: `none` (absent means the
   * same: every built-in tool off) or `read-only` (tools that only read, confined to the run's working folder). A
   * family that cannot confine a CLI's tools that way refuses a `read-only` transport before running anything.
   */
  readonly builtInTools?: ProviderProcessBuiltInToolsV4;
  /**
   * Starts one run. Rejects with a {@link ProviderProcessFailureV4} when the process could not be started
   * (nothing was sent, so another target may be tried).
   */
  run(request: ProviderProcessRunRequestV4): Promise<ProviderProcessRunV4>;
}

/** Whether an error (or its engine error's `cause`) is a process transport whose runs and queue were full. Never throws. */
export function isProviderProcessRunsExhaustedV4(error: unknown): boolean {
  try {
    for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 3; depth += 1) {
      if ((current as { name?: unknown }).name === 'ProviderProcessFailureV4' && (current as { code?: unknown }).code === 'runs-exhausted') return true;
      current = (current as { cause?: unknown }).cause;
    }
  } catch {
    return false;
  }
  return false;
}

/** Recognizes a process transport structurally. Never throws. */
export function isProviderProcessTransportV4(value: unknown): value is ProviderProcessTransportV4 {
  try {
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as { transportKind?: unknown; program?: unknown; run?: unknown; send?: unknown };
    return candidate.transportKind === 'process/v4' && typeof candidate.program === 'string' && typeof candidate.run === 'function' && typeof candidate.send === 'function';
  } catch {
    return false;
  }
}

/**
 * Stable codes of process transport failures: `executable-missing` (not found or not executable), `spawn-failed`
 * (the OS refused to start it), `http-refused` (`send` on a process transport), `runs-exhausted` (the target's
 * concurrent runs and its queue are full: a host answers overloaded and may try its next target).
 */
export const PROVIDER_PROCESS_FAILURE_CODES_V4 = ['executable-missing', 'spawn-failed', 'http-refused', 'runs-exhausted'] as const;
export type ProviderProcessFailureCodeV4 = (typeof PROVIDER_PROCESS_FAILURE_CODES_V4)[number];

/**
 * A run that could not start. It is a {@link ProviderTransportFailureV1} (stage `before-send`), so every host and
 * the engine already classify it; `code` says which process rule failed.
 */
export class ProviderProcessFailureV4 extends ProviderTransportFailureV1 {
  /** The stable code. */
  readonly code: ProviderProcessFailureCodeV4;

  constructor(code: ProviderProcessFailureCodeV4, options?: { cause?: unknown; stage?: ProviderTransportFailureStageV1; reason?: ProviderTransportFailureReasonV1 }) {
    super(options?.stage ?? 'before-send', options?.reason ?? (code === 'http-refused' ? 'policy-refused' : code === 'runs-exhausted' ? 'timeout' : 'connect-failed'), options);
    this.name = 'ProviderProcessFailureV4';
    this.code = code;
    this.message = `provider process failed before-send: ${code}`;
  }
}
