import type { CliFrame } from './cli-frame.js';
import type { CliMapping } from './cli-mapping.js';
import { convertClaudeCodeUsage } from './convert-usage.js';
import { asRecord, frameType, recordField, stringField, unknownFrame } from './wire-readers.js';

/**
 * Claude Code (`claude -p --input-format stream-json --output-format stream-json --verbose
 * --include-partial-messages`), checked against 2.1.332 `--help` and its real output (`__fixtures__/claude-*`).
 * Built-in tools off: `--tools ""` (no built-in tool), `--strict-mcp-config` (no MCP server from any settings
 * file), `--disable-slash-commands`, `--permission-mode default` (print mode never asks, so anything needing
 * permission is refused), `--no-session-persistence`. Read-only tools (a target's opt-in): `--tools Read,Glob,Grep`
 * only, `--restricted` (confines the file tools to the working folder, ignores user and project settings) and
 * `--permission-mode dontAsk` (anything not allowed outright is denied, never asked): a `Read` outside the working
 * folder is refused by the CLI (checked with the simulator's scripted call, its `tool_result` an error).
 *
 * Frames: `system` (init, status, thinking_tokens and the other subtypes) is bookkeeping; `stream_event` carries
 * the Messages API stream (text and thinking deltas; a `content_block_start` opens a segment); `assistant` is the
 * whole message again (its text was streamed; its `tool_use` blocks are the CLI's own tool calls; its `error`
 * field, e.g. `authentication_failed`, is the CLI's verdict); `user` carries the CLI's own tool results; `result`
 * is the terminal with usage and cost. Frames of a sub-agent (`parent_tool_use_id` set) are the CLI's own
 * activity and never reach the answer.
 */
export const CLAUDE_CODE_MAPPING: CliMapping = {
  cli: 'claude-code',
  confinesReadOnlyTools: true,
  plan(prompt, model, tools) {
    const message = { type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt.text }] } };
    return {
      args: [
        '-p',
        '--input-format', 'stream-json',
        '--output-format', 'stream-json',
        '--verbose',
        '--include-partial-messages',
        '--model', model,
        ...(tools === 'read-only' ? ['--tools', CLAUDE_CODE_READ_ONLY_TOOLS, '--restricted', '--permission-mode', 'dontAsk'] : ['--tools', '', '--permission-mode', 'default']),
        '--strict-mcp-config',
        '--disable-slash-commands',
        '--no-session-persistence',
        ...(prompt.system === undefined ? [] : ['--system-prompt', prompt.system]),
      ],
      stdin: `${JSON.stringify(message)}\n`,
      configFolderVariables: ['CLAUDE_CONFIG_DIR'],
    };
  },
  createDecoder() {
    return (value) => decodeClaudeDocument(asRecord(value, 'a Claude Code document'));
  },
};

/** Claude Code's built-in tools that only read files (a target's read-only opt-in). */
export const CLAUDE_CODE_READ_ONLY_TOOLS = 'Read,Glob,Grep';

const NONE: readonly CliFrame[] = [];

function decodeClaudeDocument(document: Record<string, unknown>): readonly CliFrame[] {
  const type = frameType(document);
  const ownActivity = document.parent_tool_use_id !== null && document.parent_tool_use_id !== undefined;
  switch (type) {
    case 'system':
    case 'rate_limit_event':
    case 'control_request':
    case 'control_response':
      return NONE;
    case 'stream_event':
      return ownActivity ? NONE : decodeStreamEvent(recordField(document, 'event') ?? {});
    case 'assistant':
      return decodeAssistant(document);
    case 'user':
      return decodeToolResults(recordField(document, 'message'));
    case 'result':
      return decodeResult(document);
    default:
      return unknownFrame('Claude Code', type);
  }
}

function decodeStreamEvent(event: Record<string, unknown>): readonly CliFrame[] {
  switch (stringField(event, 'type')) {
    case 'content_block_start':
      return [{ kind: 'segment' }];
    case 'content_block_delta': {
      const delta = recordField(event, 'delta');
      const deltaType = stringField(delta ?? {}, 'type');
      if (deltaType === 'text_delta') return [{ kind: 'text', text: stringField(delta ?? {}, 'text') ?? '' }];
      if (deltaType === 'thinking_delta') return [{ kind: 'reasoning', text: stringField(delta ?? {}, 'thinking') ?? '' }];
      return NONE;
    }
    default:
      return NONE;
  }
}

const CLAUDE_ERRORS: Record<string, CliFrame & { kind: 'error' }> = {
  authentication_failed: { kind: 'error', failure: { code: 'authentication', retryable: false, providerCode: 'agent-cli.not-signed-in' } },
  billing_error: { kind: 'error', failure: { code: 'quota-exceeded', retryable: false, providerCode: 'agent-cli.billing' } },
  rate_limit: { kind: 'error', failure: { code: 'rate-limited', retryable: true, providerCode: 'agent-cli.rate-limited' } },
};

function decodeAssistant(document: Record<string, unknown>): readonly CliFrame[] {
  const frames: CliFrame[] = [];
  const error = stringField(document, 'error');
  if (error !== undefined) frames.push(CLAUDE_ERRORS[error] ?? { kind: 'error', failure: { code: 'provider-error', retryable: false, providerCode: 'agent-cli.cli-error' } });
  const content = recordField(document, 'message')?.content;
  for (const block of Array.isArray(content) ? content : []) {
    const record = asRecord(block, 'a Claude Code content block');
    if (record.type === 'tool_use') frames.push({ kind: 'hosted-tool-call', id: stringField(record, 'id') ?? '', name: stringField(record, 'name') ?? '' });
  }
  return frames;
}

function decodeToolResults(message: Record<string, unknown> | undefined): readonly CliFrame[] {
  const content = message?.content;
  const frames: CliFrame[] = [];
  for (const block of Array.isArray(content) ? content : []) {
    const record = asRecord(block, 'a Claude Code content block');
    if (record.type === 'tool_result') frames.push({ kind: 'hosted-tool-result', id: stringField(record, 'tool_use_id') ?? '', isError: record.is_error === true });
  }
  return frames;
}

function decodeResult(document: Record<string, unknown>): readonly CliFrame[] {
  const usage = recordField(document, 'usage');
  const frames: CliFrame[] = [];
  if (usage !== undefined) frames.push({ kind: 'usage', usage: convertClaudeCodeUsage(usage) });
  const cost = document.total_cost_usd;
  const failed = document.is_error === true || stringField(document, 'subtype') !== 'success';
  const costFact = typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 && !failed ? { cost: { amountMicros: Math.round(cost * 1_000_000), currency: 'USD' } } : {};
  const stopReason = stringField(document, 'stop_reason');
  frames.push({ kind: 'settle', failed, ...costFact, ...(stopReason === undefined ? {} : { stopReason }) });
  return frames;
}
