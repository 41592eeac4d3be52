import { describe, expect, it } from 'vitest';
import { REPLAY_EXIT, runReplayV1 } from '../replay/run-replay.js';
import { DIALECT_NAME, type ChatDialect } from './test-support/dialects.js';
import { builtinSuite, createGatewayFetch } from './test-support/gateway-fetch.js';
import { fixtureText, PROVIDER_SCENARIOS, scenarioResponse, type ProviderScenario } from './test-support/provider-scenarios.js';
import { runClient, type ClientAsk } from './test-support/sdk-clients.js';

/*
 * `pnpm replay --ingress A --egress` shows the bytes a client of dialect A would receive for any recorded answer of
 * provider family B. For cross pairs (A ≠ B), the replayed bytes must be what the gateway serves: the client request
 * is the one the official SDK of A actually sent, and the same SDK must rebuild the same answer from replay's stdout.
 */

const encoder = new TextEncoder();

function scenario(file: string): ProviderScenario {
  const found = PROVIDER_SCENARIOS.find((candidate) => candidate.file === file);
  if (found === undefined) throw new Error(`no scenario for ${file}`);
  return found;
}

function joined(chunks: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

interface ReplayRun {
  readonly exit: number;
  readonly stdout: Uint8Array;
  readonly stderr: string;
}

async function replay(argv: readonly string[], files: Readonly<Record<string, string>>): Promise<ReplayRun> {
  const out: Uint8Array[] = [];
  let stderr = '';
  const exit = await runReplayV1({
    argv,
    suite: builtinSuite,
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`no file ${path}`);
      return encoder.encode(text);
    },
    stdout: (chunk) => out.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
    stderr: (text) => {
      stderr += text;
    },
  });
  return { exit, stdout: joined(out), stderr };
}

/** A fetch that answers any request with fixed bytes (what replay printed). */
function cannedFetch(body: Uint8Array, contentType: string, status = 200): typeof fetch {
  return (async () => new Response(body.slice(), { status, headers: { 'content-type': contentType } })) as typeof fetch;
}

const CROSS_PAIRS: readonly (readonly [ChatDialect, string])[] = [
  ['openai-chat/v1', 'constructed__anthropic-thinking-tool.chunks.txt'],
  ['gemini-generate-content/v1', 'vercel-ai__deepseek-tool-call.chunks.txt'],
  ['anthropic-messages/v1', 'vercel-ai__google-tool-call-gemini3.json'],
  ['openai-responses/v1', 'vercel-ai__google-stream-tool-call-arguments.chunks.txt'],
  ['openai-chat/v1', 'vercel-ai__openai-phase.1.json'],
];

describe('pnpm replay --egress for cross pairs', () => {
  it.each(CROSS_PAIRS.map(([dialect, file]) => [DIALECT_NAME[dialect], file, dialect] as const))(
    'shows a %s client the bytes the gateway serves for %s',
    async (_name, file, dialect) => {
      const answer = scenario(file);
      expect(answer.provider).not.toBe(dialect);
      const ask: ClientAsk = { prompt: answer.prompt, tools: answer.tools, stream: answer.stream };
      const gateway = createGatewayFetch({ dialect, provider: answer.provider, responses: [scenarioResponse(answer)] });
      const served = await runClient(dialect, gateway.fetch, ask);
      const exchange = gateway.exchanges[0];
      if (exchange === undefined) throw new Error('no exchange');
      const query = new URLSearchParams(exchange.clientQuery).toString();

      const run = await replay(
        [
          '--family',
          answer.provider,
          '--ingress',
          dialect,
          '--request',
          'request.json',
          '--request-path',
          query.length === 0 ? exchange.clientPath : `${exchange.clientPath}?${query}`,
          '--response',
          file,
          '--egress',
        ],
        { 'request.json': JSON.stringify(exchange.clientBody), [file]: fixtureText(file) },
      );

      expect(run.exit).toBe(REPLAY_EXIT.completed);
      expect(run.stderr).toContain(answer.stream ? 'egress stream text/event-stream' : 'egress status 200');
      const replayed = await runClient(dialect, cannedFetch(run.stdout, answer.stream ? 'text/event-stream' : 'application/json'), ask);
      expect(replayed).toEqual(served);
    },
  );

  it('shows an anthropic provider rate limit to a gemini client as a Google error body', async () => {
    const request = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
    const run = await replay(
      [
        '--family',
        'anthropic-messages/v1',
        '--ingress',
        'gemini-generate-content/v1',
        '--request',
        'request.json',
        '--request-path',
        '/v1beta/models/client-model:generateContent',
        '--status',
        '429',
        '--response',
        'rate-limit.json',
        '--egress',
      ],
      { 'request.json': request, 'rate-limit.json': fixtureText('constructed__anthropic-error-rate-limit.json') },
    );
    expect(run.exit).toBe(REPLAY_EXIT.failed);
    expect(run.stderr).toContain('egress status 429');
    expect(JSON.parse(new TextDecoder().decode(run.stdout))).toEqual({
      error: { code: 429, message: 'Rate limit exceeded.', status: 'RESOURCE_EXHAUSTED' },
    });
  });
});
