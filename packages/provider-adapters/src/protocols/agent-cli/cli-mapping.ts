import type { ChatTaskV4, NormalizedProviderFailureV3, ProviderProcessBuiltInToolsV4 } from '@tokenforge/model-protocol';
import type { CliFrame } from './cli-frame.js';

/** What one CLI run is asked to do, as the mapping builds it. */
export interface CliRunPlan {
  /** The argument list (never a shell line). */
  readonly args: readonly string[];
  /** What goes on stdin, when the prompt travels there. */
  readonly stdin?: string;
  /** Files the run needs (a policy file), written by the transport beside the working folder. */
  readonly files?: Readonly<Record<string, string>>;
  /** Variables the CLI reads its configuration folder from (set by the transport to the target's folder). */
  readonly configFolderVariables: readonly string[];
}

/** One CLI's mapping: how a task becomes a run, and how each stdout document becomes frames. */
export interface CliMapping {
  /** The CLI this maps (the `cli` protocol option). */
  readonly cli: AgentCliName;
  /**
   * Whether the CLI can offer read-only tools confined to its working folder by its own flags. A mapping without
   * that never receives `read-only` in {@link CliMapping.plan}: the adapter refuses such a run first.
   */
  readonly confinesReadOnlyTools: boolean;
  /**
   * Builds the run: the CLI's non-interactive streaming flags, the model pinned, the rendered prompt, and its
   * built-in tools: every one off (`none`), or only its read-only tools, confined to the working folder (`read-only`).
   */
  plan(prompt: RenderedPrompt, model: string, tools: ProviderProcessBuiltInToolsV4): CliRunPlan;
  /** A fresh per-run decoder: maps one parsed stdout document to frames; throws `ProtocolViolationError` on an unknown kind. */
  createDecoder(): (document: unknown) => readonly CliFrame[];
  /** The failure a documented exit code means when the run ended without its terminal frame (Gemini CLI's 41: not signed in). */
  readonly exitFailure?: (exitCode: number) => NormalizedProviderFailureV3 | undefined;
  /** Non-JSON stdout lines the CLI is documented to print and that mean nothing (none for most). */
  readonly isKnownNoise?: (line: string) => boolean;
}

/** The conversation rendered for a CLI that takes one prompt. */
export interface RenderedPrompt {
  /** The system instructions, joined; absent when the task has none. */
  readonly system?: string;
  /** The prompt text: the last user turn, after a transcript of the earlier turns when there were any. */
  readonly text: string;
}

/** The CLIs this family maps. */
export const AGENT_CLI_NAMES = ['claude-code', 'codex', 'gemini-cli'] as const;
export type AgentCliName = (typeof AGENT_CLI_NAMES)[number];

/** The chat task type the family reads. */
export type AgentCliChatTask = ChatTaskV4;
