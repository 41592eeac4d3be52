import type { ProviderProcessBuiltInToolsV4 } from '@tokenforge/model-protocol';

/** How one target's process transport runs its CLI. Host configuration: never from a client. */
export interface ProcessTransportOptions {
  /** The program the executable is, as the target names it (`claude-code`, `codex`, `gemini-cli`): the family's mapping key. */
  readonly program: string;
  /** The executable: an absolute path, or a name looked up on the child's `PATH`. Never run through a shell. */
  readonly executable: string;
  /**
   * The CLI's built-in tools this target allows (default `none`: all off). `read-only`: tools that only read,
   * confined to the run's fresh working folder; the family builds each CLI's flags for it and refuses a CLI it cannot
   * confine. Handed to the family as the transport's `builtInTools`.
   */
  readonly builtInTools?: ProviderProcessBuiltInToolsV4;
  /**
   * The CLI's own configuration folder for this target (its sign-in, settings). The child's `HOME` and every
   * variable the family names in `configFolderVariables` point here; never the gateway's own home. Created (mode
   * 0700) when missing.
   */
  readonly configFolder: string;
  /**
   * Variables the target names, with their values, set in the child's environment (for example the CLI's base URL
   * or its own key variable). Nothing else of the gateway's environment reaches the child except `allowEnvironment`.
   */
  readonly environment?: Readonly<Record<string, string>>;
  /** Names copied from the gateway's environment when set. Default {@link DEFAULT_ALLOWED_ENVIRONMENT}. */
  readonly allowEnvironment?: readonly string[];
  /** Folder under which each run's fresh, empty working folder is made (and removed afterwards). Default the OS temp folder. */
  readonly workRoot?: string;
  /** Runs of this target at once (default 1: CLI runs are expensive). */
  readonly maxConcurrentRuns?: number;
  /**
   * Runs that may wait for a free slot, in arrival order (default 0). One more is refused at once with
   * `ProviderProcessFailureV4` `runs-exhausted` (before anything was sent), which a host answers as overloaded.
   */
  readonly maxQueuedRuns?: number;
  /** Wall-clock bound of one run in milliseconds, from spawn to exit; the process group is killed when it passes. */
  readonly deadlineMs: number;
  /** Longest stdout line in bytes (without its newline); a longer line kills the run. Default 1 MiB. */
  readonly maxLineBytes?: number;
  /** Most stdout bytes of one run; more kills the run. Default 16 MiB. */
  readonly maxStdoutBytes?: number;
  /** Most stderr bytes kept for the operator log; the rest is counted and dropped. Default 16 KiB. */
  readonly maxStderrBytes?: number;
  /**
   * Called once per run after the child is gone, with what it wrote on stderr (bounded) and how it ended: for the
   * operator log only, never a client. Must not throw.
   */
  readonly onRunEnd?: (report: ProcessRunReport) => void;
}

/** What the operator log gets about one run. */
export interface ProcessRunReport {
  /** The child's process id. */
  readonly pid: number;
  /** Why the run ended. */
  readonly reason: 'exited' | 'deadline' | 'aborted' | 'output-too-large';
  /** The exit code, or `null` when killed. */
  readonly exitCode: number | null;
  /** The kept stderr text (at most `maxStderrBytes`). */
  readonly stderr: string;
  /** Stderr bytes dropped beyond the bound. */
  readonly stderrDroppedBytes: number;
  /** Stdout bytes read. */
  readonly stdoutBytes: number;
  /** Milliseconds from spawn to exit. */
  readonly durationMs: number;
}

/** The gateway variables a child may see (values copied only when set): locale, time zone and `PATH`. */
export const DEFAULT_ALLOWED_ENVIRONMENT: readonly string[] = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'];
