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
 * fresh empty working folder (its read-only file tools see only that folder).
 *
 * Frames: `init` and the `user` echo of `message` are bookkeeping; an `assistant` `message` is answer text (a delta
 * when `delta` is true); `tool_use` / `tool_result` are the CLI's own tool activity; `error` is the CLI's verdict
 * (a `warning` severity is not); `result` is the terminal (`status` `success` or `error`) with usage in `stats`.
 */
export const GEMINI_CLI_MAPPING: CliMapping = {
  cli: 'gemini-cli',
  plan(prompt, model) {
    const text = prompt.system === undefined ? prompt.text : `${prompt.system}\n\n${prompt.text}`;
    return {
      args: ['-o', 'stream-json', '-m', model, '--approval-mode', 'plan', '--extensions', 'none', '--admin-policy', `${PROVIDER_PROCESS_RUN_FILES_TOKEN_V4}/deny-all-tools.toml`, '--skip-trust', '-p', text],
      files: { 'deny-all-tools.toml': GEMINI_DENY_ALL_TOOLS_POLICY },
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
