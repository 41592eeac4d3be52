import { describe, expect, it } from 'vitest';
import { readAgentClientOutput } from './read-agent-client-output.js';

const jsonl = (...events: unknown[]): string => `${events.map((event) => JSON.stringify(event)).join('\n')}\n`;

describe('readAgentClientOutput (shapes as the pinned CLIs print them)', () => {
  it('claude stream-json: tool_use / tool_result pairs and the result line', () => {
    const stdout = jsonl(
      { type: 'system', subtype: 'init' },
      { type: 'assistant', message: { content: [{ type: 'tool_use', id: 't1', name: 'Glob', input: {} }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'none' }] } },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'Done.' }] } },
      { type: 'result', subtype: 'success', is_error: false, result: 'Done.' },
    );
    expect(readAgentClientOutput('claude', stdout)).toEqual({ tools: [{ name: 'Glob', ok: true }], finalText: 'Done.', success: true });
    expect(readAgentClientOutput('claude', jsonl({ type: 'result', subtype: 'error_during_execution', is_error: true })).success).toBe(false);
  });

  it('codex --json: completed items and turn.completed', () => {
    const stdout = `Reading additional input from stdin...\n${jsonl(
      { type: 'thread.started' },
      { type: 'item.completed', item: { type: 'error', message: 'a notice' } },
      { type: 'item.completed', item: { type: 'command_execution', status: 'completed', exit_code: 0 } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'Done.' } },
      { type: 'turn.completed', usage: {} },
    )}`;
    expect(readAgentClientOutput('codex', stdout)).toEqual({ tools: [{ name: 'command_execution', ok: true }], finalText: 'Done.', success: true });
    expect(readAgentClientOutput('codex', jsonl({ type: 'turn.failed' })).success).toBe(false);
  });

  it('gemini stream-json: tool_use / tool_result by id, assistant deltas after the last tool, the result status', () => {
    const stdout = jsonl(
      { type: 'message', role: 'assistant', content: 'Let me look.', delta: true },
      { type: 'tool_use', tool_name: 'list_directory', tool_id: 'x1' },
      { type: 'tool_result', tool_id: 'x1', status: 'success' },
      { type: 'message', role: 'assistant', content: 'Do', delta: true },
      { type: 'message', role: 'assistant', content: 'ne.', delta: true },
      { type: 'result', status: 'success' },
    );
    expect(readAgentClientOutput('gemini', stdout)).toEqual({ tools: [{ name: 'list_directory', ok: true }], finalText: 'Done.', success: true });
  });

  it('opencode json: tool parts with their state, the last text part, the last step reason', () => {
    const stdout = jsonl(
      { type: 'tool_use', part: { tool: 'glob', state: { status: 'error' } } },
      { type: 'step_finish', part: { reason: 'tool-calls' } },
      { type: 'text', part: { text: 'Done.' } },
      { type: 'step_finish', part: { reason: 'stop' } },
    );
    expect(readAgentClientOutput('opencode', stdout)).toEqual({ tools: [{ name: 'glob', ok: false }], finalText: 'Done.', success: true });
  });
});
