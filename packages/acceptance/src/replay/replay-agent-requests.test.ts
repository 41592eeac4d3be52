/**
 * The replay tool's default capability admits what real agent clients send: every captured Claude Code, Codex,
 * Gemini CLI and opencode request, decoded by its dialect's ingress, is replayed against a recorded OpenAI-style
 * answer with no `--capability` file, and completes (no engine refusal such as
 * `PROTOCOL_ENGINE_CONTEXT_MANAGEMENT_UNSUPPORTED` or `PROTOCOL_ENGINE_PARALLEL_TOOL_CALLS_UNSUPPORTED`).
 */
import { readFileSync } from 'node:fs';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import { loadAgentClientCaptures } from '../agent-clients/test-support/load-agent-client-captures.js';
import { runReplayV1 } from './run-replay.js';

const suite = createBuiltinTokenForgeProtocolSuiteV1();
const encoder = new TextEncoder();
const DIALECT: Record<string, string> = {
  claude: 'anthropic-messages/v1',
  codex: 'openai-responses/v1',
  gemini: 'gemini-generate-content/v1',
  opencode: 'openai-chat/v1',
};
const STREAM_ANSWER = readFileSync(new URL('../../../provider-adapters/src/protocols/openai-chat/__fixtures__/vercel-ai__openai-text.chunks.txt', import.meta.url));
const SYNC_ANSWER = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
});

const requests = loadAgentClientCaptures().flatMap((capture) =>
  capture.requests.map((request, index) => ({ label: `${capture.client}/${capture.scenario} #${index}`, client: capture.client, request })),
);

describe('replay: the default capability admits every field captured agent requests carry', () => {
  it('has captures of all four clients to replay', () => {
    expect(new Set(requests.map((entry) => entry.client))).toEqual(new Set(Object.keys(DIALECT)));
  });

  it.each(requests)('$label completes with no capability file', async ({ client, request }) => {
    const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    const stream = request.path.endsWith(':streamGenerateContent') || (JSON.parse(body) as { stream?: unknown }).stream === true;
    const query = new URLSearchParams(request.query ?? {}).toString();
    const files: Record<string, Uint8Array> = {
      'request.json': encoder.encode(body),
      'answer.chunks.txt': STREAM_ANSWER,
      'answer.json': encoder.encode(SYNC_ANSWER),
    };
    const out: string[] = [];
    const exit = await runReplayV1({
      argv: [
        '--family', 'openai-chat/v1',
        '--ingress', DIALECT[client] as string,
        '--request', 'request.json',
        '--request-path', query.length === 0 ? request.path : `${request.path}?${query}`,
        '--response', stream ? 'answer.chunks.txt' : 'answer.json',
      ],
      suite,
      readFile: async (path) => {
        const content = files[path];
        if (content === undefined) throw new Error('ENOENT');
        return content;
      },
      stdout: (chunk) => out.push(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk)),
      stderr: () => undefined,
    });
    const lines = out.join('').split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as { type: string });
    expect(lines.filter((line) => line.type === 'engine-error' || line.type === 'ingress-error')).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ type: 'terminal' });
    // A sync request that asks for a JSON schema (Gemini CLI's next-speaker check) cannot be satisfied by the
    // recorded text answer: it fails the engine's output check, which is a decoded terminal, not a refusal.
    const terminal = (lines.at(-1) as { terminal?: { status?: string; failure?: { code?: string } } }).terminal;
    if (stream || exit === 0) expect({ exit, status: terminal?.status }).toEqual({ exit: 0, status: 'completed' });
    else expect({ exit, code: terminal?.failure?.code }).toEqual({ exit: 1, code: 'output-schema-mismatch' });
  });
});
