import type { CliFrame } from './cli-frame.js';
import type { CliMapping } from './cli-mapping.js';
import { convertCodexUsage } from './convert-usage.js';
import { asRecord, frameType, recordField, stringField, unknownFrame } from './wire-readers.js';

/**
 * Codex (`codex exec --json`), checked against 0.171.0 `exec --help` and its real output (`__fixtures__/codex-*`).
 * The prompt is the last argument; system text is prefixed to it (Codex exec has no system flag). Built-in tools
 * off by Codex's own switches: `features.shell_tool`, `features.unified_exec` and `features.code_mode_host` false
 * (no shell, exec or code-mode tool is declared: checked with the simulator's scripted calls of `shell`,
 * `shell_command`, `exec`, `exec_command`, `apply_patch`, `update_plan`, `read_file`, `list_dir`, each refused as
 * undeclared), `web_search="disabled"`, `--sandbox read-only`, `approval_policy="never"`, `--ephemeral`. 0.171.0
 * keeps declaring `view_image`, which no switch removes (the guide says so). No read-only opt-in: Codex reads files
 * through its shell, and its `read-only` sandbox lets the shell read the whole disk, so no flag confines reading to
 * the working folder; a `read-only` target of Codex is refused before anything runs.
 *
 * Frames: `thread.started`, `turn.started` are bookkeeping; `item.started`/`item.updated`/`item.completed` carry
 * items: `agent_message` (the answer, whole, on completion), `reasoning` (its summary, whole), the CLI's own tool
 * items (`command_execution`, `file_change`, `mcp_tool_call`, `web_search`, `todo_list`: hosted activity) and
 * `error` items (Codex's warnings: recorded, not fatal); `turn.completed` is the terminal with usage;
 * `turn.failed` and a top-level `error` are the CLI's failed verdict.
 */
export const CODEX_MAPPING: CliMapping = {
  cli: 'codex',
  confinesReadOnlyTools: false,
  plan(prompt, model) {
    const text = prompt.system === undefined ? prompt.text : `${prompt.system}\n\n${prompt.text}`;
    return {
      args: [
        'exec', '--json', '--skip-git-repo-check', '--ephemeral',
        '--sandbox', 'read-only',
        '-c', 'approval_policy="never"',
        '-c', 'features.shell_tool=false',
        '-c', 'features.unified_exec=false',
        '-c', 'features.code_mode_host=false',
        '-c', 'web_search="disabled"',
        '-m', model,
        '--', text,
      ],
      configFolderVariables: ['CODEX_HOME'],
    };
  },
  createDecoder() {
    return (value) => decodeCodexDocument(asRecord(value, 'a Codex document'));
  },
};

const NONE: readonly CliFrame[] = [];
const HOSTED_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search', 'todo_list', 'collab_tool_call']);

function decodeCodexDocument(document: Record<string, unknown>): readonly CliFrame[] {
  const type = frameType(document);
  switch (type) {
    case 'thread.started':
    case 'turn.started':
      return NONE;
    case 'item.started':
    case 'item.updated':
    case 'item.completed':
      return decodeItem(type, recordField(document, 'item') ?? {});
    case 'turn.completed':
      return [...usageFrames(recordField(document, 'usage')), { kind: 'settle', failed: false }];
    case 'turn.failed':
      return [{ kind: 'error', failure: { code: 'provider-error', retryable: false, providerCode: 'agent-cli.cli-error' } }, { kind: 'settle', failed: true }];
    case 'error':
      return [{ kind: 'error', failure: { code: 'provider-error', retryable: false, providerCode: 'agent-cli.cli-error' } }];
    default:
      return unknownFrame('Codex', type);
  }
}

function decodeItem(event: string, item: Record<string, unknown>): readonly CliFrame[] {
  const itemType = stringField(item, 'type') ?? '';
  const id = stringField(item, 'id') ?? '';
  if (itemType === 'agent_message' || itemType === 'reasoning') {
    if (event !== 'item.completed') return NONE;
    return [{ kind: 'segment' }, { kind: itemType === 'agent_message' ? 'text' : 'reasoning', text: stringField(item, 'text') ?? '' }];
  }
  if (HOSTED_ITEMS.has(itemType)) {
    if (event === 'item.started') return [{ kind: 'hosted-tool-call', id, name: itemType }];
    if (event === 'item.completed') return [{ kind: 'hosted-tool-call', id, name: itemType }, { kind: 'hosted-tool-result', id, isError: stringField(item, 'status') === 'failed' }];
    return NONE;
  }
  if (itemType === 'error') return NONE;
  return unknownFrame('Codex item', itemType);
}

function usageFrames(usage: Record<string, unknown> | undefined): readonly CliFrame[] {
  return usage === undefined ? NONE : [{ kind: 'usage', usage: convertCodexUsage(usage) }];
}
