/**
 * Every captured Claude Code and Codex request, decoded by its dialect's ingress codec and executed by the engine
 * against a target of each chat family (capturing transport, no network): the provider request carries the mapped
 * fields (system turns, effort, freeform tools and their round trip, the tool round trip). Each target declares the
 * agent-era facts its simulated provider has, and the task is fitted to it as the gateway does (hints the target
 * does not declare are left out).
 */
import { fitTaskToTarget } from '@tokenforge/gateway';
import type { ChatTaskV2, ProtocolCapabilityV3, ProtocolFamily, ProviderTransport, ProviderTransportRequest, TaskEnvelopeV3 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import { loadAgentClientCaptures } from '../test-support/load-agent-client-captures.js';

const suite = createBuiltinTokenForgeProtocolSuiteV1();
const engine = createProtocolEngineV1({ registry: suite.registry });
const FAMILIES = ['anthropic-messages/v1', 'openai-chat/v1', 'openai-responses/v1', 'gemini-generate-content/v1'] as ProtocolFamily[];
/** The agent-era facts each family's targets declare in the embedded catalogue. */
const AGENT_FACTS: Record<string, Pick<ProtocolCapabilityV3, 'parallelToolCalls' | 'hostedTools' | 'contextManagement' | 'reasoningEfforts'>> = {
  'anthropic-messages/v1': { parallelToolCalls: true, hostedTools: ['web-search'], contextManagement: true, reasoningEfforts: ['low', 'medium', 'high', 'xhigh', 'max'] },
  'openai-chat/v1': { parallelToolCalls: true, reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] },
  'openai-responses/v1': { parallelToolCalls: true, hostedTools: ['web-search'], reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] },
  'gemini-generate-content/v1': { hostedTools: ['web-search'], reasoningEfforts: ['minimal', 'low', 'medium', 'high'] },
};
const DIALECT: Record<string, ProtocolFamily> = { claude: 'anthropic-messages/v1' as ProtocolFamily, codex: 'openai-responses/v1' as ProtocolFamily };

function decode(client: string, request: { path: string; query: Record<string, string>; body: unknown }) {
  const codecs = suite.codecsFor(DIALECT[client] as ProtocolFamily);
  if (codecs === undefined) throw new Error('no codecs');
  return codecs.ingress.decodeRequest({ path: request.path, query: request.query, body: new TextEncoder().encode(JSON.stringify(request.body)) });
}

async function sentBody(family: ProtocolFamily, task: ChatTaskV2 | ReturnType<typeof decode>['task'], model: string): Promise<{ body?: unknown; refused?: string }> {
  const capability: ProtocolCapabilityV3 = {
    protocolFamily: family,
    executionMode: 'stream-capable',
    taskKinds: ['chat'],
    tools: true,
    forcedToolChoice: true,
    reasoning: true,
    imageInput: true,
    documentInput: true,
    structuredOutput: 'native-json-schema',
    ...AGENT_FACTS[family],
  };
  const fitted = fitTaskToTarget(task as TaskEnvelopeV3, capability).task;
  let sent: ProviderTransportRequest | undefined;
  const transport: ProviderTransport = {
    send: async (outgoing) => {
      sent = outgoing;
      return {
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: (async function* () {
          yield new TextEncoder().encode('{"error":{"message":"captured","type":"invalid_request_error"}}');
        })(),
      };
    },
  };
  const binding = createProtocolEngineTargetBindingV1({
    target: {
      provider: 'capture',
      providerModel: model,
      connectionRef: 'capture',
      capability,
    },
    bindTransport: () => transport,
  });
  const execution = await engine.execute({ binding, task: fitted, signal: new AbortController().signal });
  let terminal;
  if (execution.kind === 'stream') {
    for await (const _ of execution.events) void _;
    terminal = await execution.terminal;
  } else if (execution.kind === 'response') terminal = execution.terminal;
  if (sent === undefined || sent.body.type !== 'json') return { refused: terminal?.status === 'failed' ? terminal.failure.code : execution.kind };
  return { body: sent.body.value };
}

/**
 * Known refusal: Codex's tool schemas carry a non-standard `encrypted` keyword, which the Gemini request encoder
 * refuses rather than drop (it changes what the schema says); nothing is sent.
 */
const REFUSED = new Set(['codex gemini-generate-content/v1']);

const captures = loadAgentClientCaptures().filter((capture) => capture.client === 'claude' || capture.client === 'codex');
const cases = captures.flatMap((capture) => capture.requests.map((request, index) => ({ capture, request, index })));

describe.each(cases.map((entry) => [`${entry.capture.client}/${entry.capture.scenario} #${entry.index}`, entry] as const))('%s', (_label, { capture, request }) => {
  const body = request.body as Record<string, unknown>;
  const decoded = decode(capture.client, request as never);
  const task = decoded.task as ChatTaskV2;

  it('decodes with every mapped field', () => {
    if (capture.client === 'claude') {
      const lateSystem = (body.messages as { role: string; content: unknown }[]).filter((message) => message.role === 'system');
      expect(lateSystem.length).toBeGreaterThan(0);
      expect(task.messages.every((message) => message.role !== ('system' as never))).toBe(true);
      expect(task.system?.length).toBe((body.system as unknown[]).length + lateSystem.reduce((sum, message) => sum + (typeof message.content === 'string' ? 1 : (message.content as unknown[]).length), 0));
      const thinking = body.thinking as { type?: string; display?: string } | undefined;
      expect(task.reasoning).toMatchObject({ effort: (body.output_config as { effort: string }).effort, includeReasoning: true });
      if (thinking?.type === 'adaptive') expect(task.reasoning).toMatchObject({ adaptive: true, ...(thinking.display === undefined ? {} : { display: thinking.display }) });
    } else {
      expect(task.tools?.map((tool) => tool.name)).toContain('exec');
      expect(task.tools?.find((tool) => tool.name === 'exec')?.inputSchema).toMatchObject({ properties: { input: { type: 'string' } }, required: ['input'] });
      expect('clientFreeformToolNames' in decoded && decoded.clientFreeformToolNames).toEqual(['exec']);
      expect(task.reasoning?.effort).toBe((body.reasoning as { effort: string }).effort);
      expect(task.caching?.promptCacheKey).toBe(body.prompt_cache_key);
    }
  });

  it.each(FAMILIES)('is sent to a %s target with its tools and tool round trip', async (family) => {
    const outcome = await sentBody(family, task, decoded.modelLabel);
    if (REFUSED.has(`${capture.client} ${family}`)) {
      expect(outcome).toEqual({ refused: 'unsupported' });
      return;
    }
    const sent = JSON.stringify(outcome.body);
    const toolNames = task.tools?.map((tool) => tool.name) ?? [];
    for (const name of toolNames) expect(sent).toContain(`"${name}"`);
    const calls = task.messages.flatMap((message) => message.content.filter((part) => part.type === 'tool-call'));
    const results = task.messages.flatMap((message) => message.content.filter((part) => part.type === 'tool-result'));
    expect(calls.length).toBe(results.length);
    for (const call of calls) {
      if (call.type !== 'tool-call') continue;
      expect(sent).toContain(call.toolName);
      // The freeform input travels as the `input` property of the call's arguments in every family.
      if (capture.client === 'codex') expect(call.argumentsText).toMatch(/^\{"input":/);
    }
    if (capture.scenario === 'tool' && request === capture.requests.at(-1)) expect(calls.length).toBeGreaterThan(0);
  });
});
