import { describe, expect, it } from 'vitest';
import { CHAT_DIALECTS, DIALECT_NAME, type ChatDialect } from './test-support/dialects.js';
import { createGatewayFetch } from './test-support/gateway-fetch.js';
import { PROVIDER_SCENARIOS, scenarioResponse } from './test-support/provider-scenarios.js';
import { runClient } from './test-support/sdk-clients.js';

/*
 * The request half of each pair: every SDK asks for low reasoning in its own terms (OpenAI `reasoning_effort: low`,
 * Responses `reasoning: {effort: low, summary: auto}`, Anthropic `thinking.budget_tokens: 2048`, Gemini
 * `thinkingConfig: {thinkingBudget: 2048, includeThoughts: true}`); the provider request must carry it by the
 * documented effort/budget rules of docs/translation-table.md.
 */

/** The reasoning fields of a provider request, in that family's shape. */
function reasoningSent(provider: ChatDialect, body: Record<string, unknown>): unknown {
  switch (provider) {
    case 'openai-chat/v1':
      return body.reasoning_effort;
    case 'openai-responses/v1':
      return body.reasoning;
    case 'anthropic-messages/v1':
      return body.thinking;
    case 'gemini-generate-content/v1':
      return (body.generationConfig as Record<string, unknown> | undefined)?.thinkingConfig;
    default: {
      const unknownProvider: never = provider;
      throw new Error(String(unknownProvider));
    }
  }
}

const EXPECTED: Readonly<Record<ChatDialect, Readonly<Record<ChatDialect, unknown>>>> = {
  'openai-chat/v1': {
    'openai-chat/v1': 'low',
    'openai-responses/v1': { effort: 'low' },
    'anthropic-messages/v1': { type: 'enabled', budget_tokens: 2048 },
    'gemini-generate-content/v1': { thinkingBudget: 1024 },
  },
  'openai-responses/v1': {
    'openai-chat/v1': 'low',
    'openai-responses/v1': { effort: 'low', summary: 'auto' },
    'anthropic-messages/v1': { type: 'enabled', budget_tokens: 2048 },
    'gemini-generate-content/v1': { thinkingBudget: 1024, includeThoughts: true },
  },
  'anthropic-messages/v1': {
    'openai-chat/v1': 'low',
    'openai-responses/v1': { effort: 'low', summary: 'auto' },
    'anthropic-messages/v1': { type: 'enabled', budget_tokens: 2048 },
    'gemini-generate-content/v1': { thinkingBudget: 2048, includeThoughts: true },
  },
  'gemini-generate-content/v1': {
    'openai-chat/v1': 'low',
    'openai-responses/v1': { effort: 'low', summary: 'auto' },
    'anthropic-messages/v1': { type: 'enabled', budget_tokens: 2048 },
    'gemini-generate-content/v1': { thinkingBudget: 2048, includeThoughts: true },
  },
};

async function providerBody(dialect: ChatDialect, provider: ChatDialect): Promise<Record<string, unknown>> {
  const scenario = PROVIDER_SCENARIOS.find((candidate) => candidate.provider === provider && !candidate.stream);
  if (scenario === undefined) throw new Error('no sync scenario');
  const gateway = createGatewayFetch({ dialect, provider, responses: [scenarioResponse(scenario)] });
  await runClient(dialect, gateway.fetch, { prompt: scenario.prompt, tools: scenario.tools, stream: false });
  const body = gateway.exchanges[0]?.providerRequests[0]?.body;
  if (body?.type !== 'json') throw new Error('expected a JSON provider request');
  return body.value as Record<string, unknown>;
}

describe.each(CHAT_DIALECTS.map((dialect) => [DIALECT_NAME[dialect], dialect] as const))('a %s client asking for low reasoning', (_name, dialect) => {
  it.each(CHAT_DIALECTS.map((provider) => [DIALECT_NAME[provider], provider] as const))('is sent to %s by the effort/budget rules', async (_title, provider) => {
    const body = await providerBody(dialect, provider);
    expect(reasoningSent(provider, body)).toEqual(EXPECTED[dialect][provider]);
    expect(body.max_completion_tokens ?? body.max_output_tokens ?? body.max_tokens ?? (body.generationConfig as Record<string, unknown>).maxOutputTokens).toBe(4096);
  });
});

describe('anthropic-messages ingress and visible reasoning', () => {
  // `thinking: {type: "enabled"}` asks for visible thinking blocks, so the task carries `reasoning.includeReasoning`
  // and other upstreams are asked for their visible reasoning (Gemini `includeThoughts`, Responses summaries).
  it('thinking enabled asks other upstreams for visible reasoning', async () => {
    const body = await providerBody('anthropic-messages/v1', 'gemini-generate-content/v1');
    expect(reasoningSent('gemini-generate-content/v1', body)).toEqual({ thinkingBudget: 2048, includeThoughts: true });
  });
});
