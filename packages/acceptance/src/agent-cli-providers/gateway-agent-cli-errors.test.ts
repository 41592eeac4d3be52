/**
 * How an `agent-cli/v1` target fails, through the real gateway and real processes, with the official SDKs: a missing
 * executable fails before anything was sent and the gateway falls back to the next target; a CLI that is not signed
 * in, a non-zero exit, output that is not the documented protocol and a run over its deadline each answer the client
 * in its dialect with a stable code while the CLI's own message lands in the operator log only; the deadline leaves no
 * process of the run's group; a target's runs queue up to their bound and one more is refused as overloaded in each
 * client's dialect. The CLI here is a small stand-in speaking Gemini CLI's stream-json (test-support/fake-gemini-cli.mjs),
 * so this file needs no agent-clients install; the real CLIs' own failures are in the conformance fixtures and in
 * real-agent-cli-providers.test.ts.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { startGateway, type GatewayCatalogueV1 } from '@tokenforge/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processGroupMembers } from './test-support/process-group-members.js';

const FAKE_CLI = join(dirname(fileURLToPath(import.meta.url)), 'test-support', 'fake-gemini-cli.mjs');
/** What the stand-in prints on stderr or stdout as its own words: the operator's, never the client's. */
const CLI_OWN_MESSAGE = 'FAKE-CLI-OWN-MESSAGE-5e2d';
const CLIENT_KEY = 'agent-cli-errors-client-key-0001';

let gateway: Awaited<ReturnType<typeof startGateway>>;
let root: string;
const logLines: Record<string, unknown>[] = [];

function cliTarget(mode: string, options: { executable?: string; deadlineMs?: number; maxQueuedRuns?: number } = {}) {
  return {
    provider: 'local-cli',
    family: 'agent-cli/v1',
    model: mode,
    agentCli: {
      program: 'gemini-cli',
      executable: options.executable ?? FAKE_CLI,
      configFolder: join(root, mode),
      deadlineMs: options.deadlineMs ?? 30_000,
      maxConcurrentRuns: 1,
      maxQueuedRuns: options.maxQueuedRuns ?? 4,
    },
  } as const;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agent-cli-errors-'));
  const models: GatewayCatalogueV1['models'] = [
    { name: 'missing-then-fallback', taskKind: 'chat', targets: [cliTarget('text', { executable: join(root, 'no-such-cli') }), cliTarget('text')] },
    ...['not-signed-in', 'exit-nonzero', 'not-protocol'].map((mode) => ({ name: mode, taskKind: 'chat' as const, targets: [cliTarget(mode)] })),
    { name: 'deadline', taskKind: 'chat', targets: [cliTarget('stall', { deadlineMs: 1500 })] },
    { name: 'queued', taskKind: 'chat', targets: [cliTarget('slow-text', { maxQueuedRuns: 1 })] },
  ];
  gateway = await startGateway({
    catalogue: { version: 1, clientKeys: [{ id: 'agent-cli-errors', env: 'AGENT_CLI_ERRORS_CLIENT_KEY' }], models },
    env: { AGENT_CLI_ERRORS_CLIENT_KEY: CLIENT_KEY },
    logger: { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
  });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

const openai = () => new OpenAI({ apiKey: CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: CLIENT_KEY, baseURL: gateway.url, maxRetries: 0 });
const gemini = () => new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: gateway.url, retryOptions: { attempts: 1 } } });
const ask = (model: string) => openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello' }] });

/** The request line and the run lines the operator log wrote since `from` for `model`. */
async function logged(from: number, model: string, runs: number) {
  await expect.poll(() => logLines.slice(from).filter((line) => line.agentCliRun !== undefined).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(runs);
  await expect.poll(() => logLines.slice(from).some((line) => line.model === model), { timeout: 10_000 }).toBe(true);
  const lines = logLines.slice(from);
  return { request: lines.find((line) => line.model === model) as { status: number; outcome: string; attempts: Record<string, unknown>[] }, runs: lines.filter((line) => line.agentCliRun !== undefined) as { pid: number; reason: string; exitCode: number | null; stderr: string }[] };
}

/** Processes still in the group `pgid` (zombies count as gone). */

async function failureOf(model: string) {
  const error = await ask(model).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  const apiError = error as InstanceType<typeof OpenAI.APIError>;
  return { status: apiError.status, body: JSON.stringify(apiError.error ?? null), code: apiError.code };
}

describe('agent-cli/v1 failures through the gateway (a real process, the official SDKs)', () => {
  it('a missing executable fails before anything was sent, so the next target answers', async () => {
    const from = logLines.length;
    const completion = await ask('missing-then-fallback');
    expect(completion.choices[0]?.message.content).toBe('Hello from the fake CLI.');
    const { request } = await logged(from, 'missing-then-fallback', 1);
    expect(request.status).toBe(200);
    expect(request.attempts).toEqual([
      expect.objectContaining({ target: 'missing-then-fallback#0', transport: { stage: 'before-send', reason: 'connect-failed' } }),
      expect.objectContaining({ target: 'missing-then-fallback#1', outcome: 'ok' }),
    ]);
  });

  it.each([
    ['not-signed-in', 'authentication', 'agent-cli.not-signed-in', 'upstream_authentication_failed', { reason: 'exited', exitCode: 41 }],
    ['exit-nonzero', 'provider-error', 'agent-cli.exit-nonzero', 'upstream_error', { reason: 'exited', exitCode: 3 }],
    // The reader fails at the first line that is not the protocol and stops the run: its group is killed.
    ['not-protocol', 'protocol-violation', undefined, 'upstream_protocol_violation', { reason: 'aborted', exitCode: null }],
  ] as const)('%s: a typed failure with a stable code for the client; the CLI\'s own words in the operator log only', async (model, outcome, providerCode, clientCode, ended) => {
    const from = logLines.length;
    const failure = await failureOf(model);
    expect(failure).toMatchObject({ status: 502, code: clientCode });
    expect(failure.body).not.toContain(CLI_OWN_MESSAGE);
    const { request, runs } = await logged(from, model, 1);
    expect(request.outcome).toBe(`failed:${outcome}`);
    expect(request.attempts).toEqual([expect.objectContaining({ outcome })]);
    expect(request.attempts[0]?.providerCode).toBe(providerCode);
    expect(runs).toEqual([expect.objectContaining(ended)]);
    if (model !== 'not-protocol') expect(runs[0]?.stderr).toContain(CLI_OWN_MESSAGE);
    // The request line (what dashboards read) never carries the CLI's words either.
    expect(JSON.stringify(request)).not.toContain(CLI_OWN_MESSAGE);
  });

  it('a run over its deadline: a timeout for the client (OpenAI SDK), the whole process group gone', async () => {
    const from = logLines.length;
    const failure = await failureOf('deadline');
    expect(failure).toMatchObject({ status: 504, code: 'timeout' });
    const { request, runs } = await logged(from, 'deadline', 1);
    expect(request.outcome).toBe('failed:timeout');
    expect(request.attempts).toEqual([expect.objectContaining({ outcome: 'timeout', providerCode: 'agent-cli.deadline' })]);
    expect(runs[0]).toMatchObject({ reason: 'deadline', exitCode: null });
    const grandchild = Number(/grandchild (\d+)/.exec(runs[0]?.stderr ?? '')?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    expect(processGroupMembers(runs[0]!.pid)).toEqual([]);
  });

  it('runs queue up to the target\'s bound, then one more is refused as overloaded in each client\'s dialect', async () => {
    // One run at a time, one waiting: the first runs, the second waits, the third is refused at once.
    const first = ask('queued');
    const second = anthropic().messages.create({ model: 'queued', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const openAiRefusal = await ask('queued').catch((error: unknown) => error);
    const anthropicRefusal = await anthropic().messages.create({ model: 'queued', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] }).catch((error: unknown) => error);
    const geminiRefusal = await gemini().models.generateContent({ model: 'queued', contents: 'Say hello' }).catch((error: unknown) => error);
    expect((await first).choices[0]?.message.content).toBe('Hello from the fake CLI.');
    expect((await second).content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from the fake CLI.' })]);
    expect(openAiRefusal).toBeInstanceOf(OpenAI.APIError);
    expect(openAiRefusal).toMatchObject({ status: 503 });
    expect(anthropicRefusal).toBeInstanceOf(Anthropic.APIError);
    expect((anthropicRefusal as InstanceType<typeof Anthropic.APIError>).status).toBeGreaterThanOrEqual(503);
    expect(JSON.stringify((anthropicRefusal as InstanceType<typeof Anthropic.APIError>).error)).toContain('overloaded_error');
    expect(geminiRefusal).toMatchObject({ status: 503 });
    expect(String((geminiRefusal as Error).message)).toContain('UNAVAILABLE');
  });
});
