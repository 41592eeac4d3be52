/**
 * The official OpenAI, Anthropic and Gemini SDKs through the gateway to each pinned CLI (an `agent-cli/v1`
 * catalogue target; the simulator is the CLI's model endpoint), sync and stream; a stream the client cancels
 * leaves no process of the run's group; a run over its deadline is a timeout with its group gone; a CLI that is
 * not signed in is a typed failure without its own words; a full target answers overloaded in the client's dialect. Runs where the
 * agent-clients cache is (and in the agent-clients phase of `.ci/run`, where a missing cache fails; see
 * real-agent-cli-providers.test.ts).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startGateway, type GatewayCatalogueV1 } from '@tokenforge/gateway';
import { AGENT_CLI_NAMES, type AgentCliName } from '@tokenforge/provider-adapters';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAgentCliExecutables, SIMULATOR_KEY, simulatorTargetFor } from './agent-cli-targets.js';
import { processGroupMembers } from './test-support/process-group-members.js';

const found = findAgentCliExecutables();
if ('missing' in found) {
  if (process.env.TOKENFORGE_AGENT_CLIENTS_PHASE === '1') throw new Error(`the agent-clients phase needs the pinned CLIs: ${found.missing}`);
  console.warn(`SKIPPED agent CLIs through the gateway: ${found.missing}`);
}

const CLIENT_KEY = 'agent-cli-client-key-0001';
/** The variables that carry each CLI's key to the simulator. */
const KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'SIMULATOR_API_KEY', 'GEMINI_API_KEY'];
let simulator: ProviderSimulator;
let gateway: Awaited<ReturnType<typeof startGateway>>;
let root: string;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  if ('missing' in found) return;
  simulator = await startProviderSimulator({ credentials: { anthropicApiKey: SIMULATOR_KEY, openAiApiKey: SIMULATOR_KEY, geminiApiKey: SIMULATOR_KEY } });
  root = mkdtempSync(join(tmpdir(), 'agent-cli-gateway-'));
  const env: Record<string, string> = { AGENT_CLI_CLIENT_KEY: CLIENT_KEY };
  const models: GatewayCatalogueV1['models'] = [];
  for (const program of AGENT_CLI_NAMES) {
    for (const scenario of ['text', 'stall', 'deadline', 'signed-out']) {
      const configFolder = join(root, `${program}-${scenario}`);
      const variables = simulatorTargetFor(program, simulator.url, configFolder);
      Object.assign(env, variables);
      // Signed out: the CLI does not receive its key variable (and its configuration folder holds no sign-in).
      if (scenario === 'signed-out') for (const name of KEY_VARIABLES) delete variables[name];
      models.push({
        name: `${program}-${scenario}`,
        taskKind: 'chat',
        targets: [
          {
            provider: 'local-cli',
            family: 'agent-cli/v1',
            model: scenario === 'deadline' ? 'stall' : scenario === 'signed-out' ? 'text' : scenario,
            agentCli: {
              program,
              executable: found.executables[program],
              configFolder,
              environment: Object.keys(variables),
              maxConcurrentRuns: 1,
              maxQueuedRuns: scenario === 'stall' ? 0 : 4,
              deadlineMs: scenario === 'deadline' ? 3000 : 120_000,
            },
          },
        ],
      });
    }
  }
  gateway = await startGateway({
    catalogue: { version: 1, clientKeys: [{ id: 'agent-cli-tests', env: 'AGENT_CLI_CLIENT_KEY' }], models },
    env,
    logger: { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
  });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await simulator?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});


const openai = () => new OpenAI({ apiKey: CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: CLIENT_KEY, baseURL: gateway.url, maxRetries: 0 });
const gemini = () => new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: gateway.url } });

describe.skipIf('missing' in found)('agent CLIs served through the gateway to the official SDKs', () => {
  for (const program of AGENT_CLI_NAMES) {
    const model = `${program}-text`;
    describe(program, () => {
      it('OpenAI SDK, sync and stream', async () => {
        const completion = await openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello' }] });
        expect(completion.choices[0]?.message.content).toBe('Hello from the simulator.');
        let text = '';
        for await (const chunk of await openai().chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Say hello' }] })) text += chunk.choices[0]?.delta.content ?? '';
        expect(text).toBe('Hello from the simulator.');
      }, 120_000);

      it('Anthropic SDK, sync and stream', async () => {
        const message = await anthropic().messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }] });
        expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from the simulator.' })]);
        const stream = anthropic().messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }] });
        const final = await stream.finalMessage();
        expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from the simulator.' })]);
      }, 120_000);

      it('Gemini SDK, sync and stream', async () => {
        const response = await gemini().models.generateContent({ model, contents: 'Say hello' });
        expect(response.text).toBe('Hello from the simulator.');
        let text = '';
        for await (const chunk of await gemini().models.generateContentStream({ model, contents: 'Say hello' })) text += chunk.text ?? '';
        expect(text).toBe('Hello from the simulator.');
      }, 120_000);

      it('a cancelled stream leaves no process of the run group; a second run while one is busy is overloaded', async () => {
        const controller = new AbortController();
        const before = logLines.length;
        // The stalled run answers nothing, so the gateway holds the response head: the client aborts while waiting.
        const streaming = openai()
          .chat.completions.create({ model: `${program}-stall`, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }, { signal: controller.signal })
          .then(async (stream) => {
            for await (const chunk of stream) void chunk;
          })
          .catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const busy = await openai().chat.completions.create({ model: `${program}-stall`, messages: [{ role: 'user', content: 'Say hello' }] }).catch((error: unknown) => error);
        expect(busy).toBeInstanceOf(OpenAI.APIError);
        expect((busy as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
        controller.abort();
        await streaming;
        await expect.poll(() => logLines.slice(before).find((line) => line.agentCliRun !== undefined), { timeout: 20_000 }).toBeDefined();
        const run = logLines.slice(before).find((line) => line.agentCliRun !== undefined) as { pid: number; reason: string };
        expect(run.reason).toBe('aborted');
        expect(processGroupMembers(run.pid)).toEqual([]);
      }, 120_000);

      it('not signed in: a typed failure in the client\'s dialect that carries none of the CLI\'s own words', async () => {
        const before = logLines.length;
        const error = await openai().chat.completions.create({ model: `${program}-signed-out`, messages: [{ role: 'user', content: 'Say hello' }] }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OpenAI.APIError);
        const apiError = error as InstanceType<typeof OpenAI.APIError>;
        // Claude Code and Gemini CLI say "not signed in" in their own way (authentication); Codex reports a failed turn.
        expect([apiError.status, apiError.code]).toEqual(program === 'codex' ? [502, 'upstream_error'] : [502, 'upstream_authentication_failed']);
        const body = JSON.stringify(apiError.error);
        for (const word of ['API key', 'login', 'auth method', 'SIMULATOR_API_KEY', 'GEMINI_API_KEY']) expect(body.toLowerCase()).not.toContain(word.toLowerCase());
        await expect.poll(() => logLines.slice(before).find((line) => line.model === `${program}-signed-out`), { timeout: 20_000 }).toBeDefined();
        expect(logLines.slice(before).find((line) => line.model === `${program}-signed-out`)).toMatchObject({ outcome: program === 'codex' ? 'failed:provider-error' : 'failed:authentication' });
      }, 120_000);

      it('a run over its deadline: the Anthropic SDK gets a timeout, the run\'s process group is gone', async () => {
        const before = logLines.length;
        const error = await anthropic()
          .messages.create({ model: `${program}-deadline`, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(Anthropic.APIError);
        expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(504);
        // This target's run line (an earlier test's run may log its end late).
        const path = `models.${AGENT_CLI_NAMES.indexOf(program) * 4 + 2}.targets.0`;
        await expect.poll(() => logLines.slice(before).find((line) => line.agentCliRun === path), { timeout: 20_000 }).toBeDefined();
        const run = logLines.slice(before).find((line) => line.agentCliRun === path) as { pid: number; reason: string };
        expect(run.reason).toBe('deadline');
        expect(processGroupMembers(run.pid)).toEqual([]);
        expect(logLines.slice(before).find((line) => line.model === `${program}-deadline`)).toMatchObject({ outcome: 'failed:timeout' });
      }, 120_000);
    });
  }
});
