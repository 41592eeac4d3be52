import { PROVIDER_PROCESS_RUN_FILES_TOKEN_V4 } from '@tokenforge/model-protocol';
import type { CliFrame } from './cli-frame.js';
import type { CliMapping } from './cli-mapping.js';
import { convertGeminiCliUsage } from './convert-usage.js';
import { asRecord, frameType, recordField, stringField, unknownFrame } from './wire-readers.js';

/**
 * Gemini CLI (`gemini -o stream-json -m <model> -p <prompt>`), checked against 0.61.0 `--help` and its real output
 * (`__fixtures__/gemini-*`). The model is always pinned: its `auto` model first asks a classifier and retries for
 * about 100 s when the answer is not the JSON it expects. System text is prefixed to the prompt. Built-in tools:
 * `--approval-mode plan` (read-only mode: nothing that writes or runs), `--extensions none`, `--skip-trust` for the
 * fresh empty working folder, and an admin policy: {@link GEMINI_DENY_ALL_TOOLS_POLICY} (no tool at all), or for a
 * target's read-only opt-in {@link GEMINI_READ_ONLY_TOOLS_POLICY} (only its file-reading tools, which refuse a path
 * outside the workspace, the working folder plus the CLI's own project temp folder under its configuration folder:
 * checked with the simulator's scripted `read_file`; the web tools are not declared).
 *
 * Frames: `init` and the `user` echo of `message` are bookkeeping; an `assistant` `message` is answer text (a delta
 * when `delta` is true); `tool_use` / `tool_result` are the CLI's own tool activity; `error` is the CLI's verdict
 * (a `warning` severity is not); `result` is the terminal (`status` `success` or `error`) with usage in `stats`.
 */
export const GEMINI_CLI_MAPPING: CliMapping = {
  cli: 'gemini-cli',
  confinesReadOnlyTools: true,
  plan(prompt, model, tools) {
    const text = prompt.system === undefined ? prompt.text : `${prompt.system}\n\n${prompt.text}`;
    const policy = tools === 'read-only' ? { name: 'read-only-tools.toml', text: GEMINI_READ_ONLY_TOOLS_POLICY } : { name: 'deny-all-tools.toml', text: GEMINI_DENY_ALL_TOOLS_POLICY };
    return {
      args: ['-o', 'stream-json', '-m', model, '--approval-mode', 'plan', '--extensions', 'none', '--admin-policy', `${PROVIDER_PROCESS_RUN_FILES_TOKEN_V4}/${policy.name}`, '--skip-trust', '-p', text],
      files: { [policy.name]: policy.text },
      configFolderVariables: [],
    };
  },
  createDecoder() {
    return (value) => decodeGeminiDocument(asRecord(value, 'a Gemini CLI document'));
  },
  // Gemini CLI's documented exit codes: 41 is FatalAuthenticationError (no usable sign-in), printed before any frame.
  exitFailure: (exitCode) => (exitCode === 41 ? { code: 'authentication', retryable: false, providerCode: 'agent-cli.not-signed-in' } : undefined),
};

/** A Gemini CLI admin policy that denies every tool, so the model is offered none (checked: 0 tool calls, no tool declared). */
export const GEMINI_DENY_ALL_TOOLS_POLICY = '[[rule]]\ntoolName = "*"\ndecision = "deny"\npriority = 999\n';

/**
 * A Gemini CLI admin policy for a read-only target: every tool denied except those that only read files (each
 * confined by the CLI to its workspace, the run's working folder).
 */
export const GEMINI_READ_ONLY_TOOLS_POLICY =
  '[[rule]]\ntoolName = "*"\ndecision = "deny"\npriority = 100\n\n[[rule]]\ntoolName = ["read_file", "read_many_files", "list_directory", "glob", "grep_search", "search_file_content"]\ndecision = "allow"\npriority = 200\n';

const NONE: readonly CliFrame[] = [];

function decodeGeminiDocument(document: Record<string, unknown>): readonly CliFrame[] {
  const type = frameType(document);
  switch (type) {
    case 'init':
      return NONE;
    case 'message':
      return stringField(document, 'role') === 'assistant' ? [{ kind: 'text', text: stringField(document, 'content') ?? '' }] : NONE;
    case 'tool_use':
      return [{ kind: 'segment' }, { kind: 'hosted-tool-call', id: stringField(document, 'tool_id') ?? '', name: stringField(document, 'tool_name') ?? '' }];
    case 'tool_result':
      return [{ kind: 'hosted-tool-result', id: stringField(document, 'tool_id') ?? '', isError: stringField(document, 'status') === 'error' }];
    case 'error':
      return stringField(document, 'severity') === 'warning' ? NONE : [{ kind: 'error', failure: { code: 'provider-error', retryable: false, providerCode: 'agent-cli.cli-error' } }];
    case 'result':
      return decodeResult(document);
    default:
      return unknownFrame('Gemini CLI', type);
  }
}

function decodeResult(document: Record<string, unknown>): readonly CliFrame[] {
  const stats = recordField(document, 'stats');
  const frames: CliFrame[] = [];
  if (stats !== undefined) frames.push({ kind: 'usage', usage: convertGeminiCliUsage(stats) });
  frames.push({ kind: 'settle', failed: stringField(document, 'status') !== 'success' });
  return frames;
}
