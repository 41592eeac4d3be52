import { describe, expect, it } from 'vitest';
import { CHAT_DIALECTS, DIALECT_NAME, type ChatDialect } from './test-support/dialects.js';
import { expectedClientView } from './test-support/expected-client-view.js';
import { createGatewayFetch, PROVIDER_MODEL } from './test-support/gateway-fetch.js';
import { PROVIDER_SCENARIOS, recordedSignatures, scenarioResponse, type ProviderScenario } from './test-support/provider-scenarios.js';
import { runClient } from './test-support/sdk-clients.js';
import { unsealedView } from './test-support/unsealed-view.js';

/*
 * Any dialect in, any provider out: for every client dialect A and every provider scenario of family B (4 x 4 pairs,
 * sync and stream), the official SDK of A sends its request through a gateway fetch (ingress A → task → engine with
 * B's adapter replaying B's recorded answer → egress A), and its own parser/accumulator rebuilds the answer. The
 * rebuilt answer must equal what the translation table says A keeps of the normalized facts.
 */

/** Where each provider family's request goes (sync, stream). */
const PROVIDER_PATH: Readonly<Record<ChatDialect, (stream: boolean) => string>> = {
  'openai-chat/v1': () => '/chat/completions',
  'openai-responses/v1': () => '/responses',
  'anthropic-messages/v1': () => '/v1/messages',
  'gemini-generate-content/v1': (stream) => `/v1beta/models/${PROVIDER_MODEL}:${stream ? 'streamGenerateContent' : 'generateContent'}`,
};

/** The tool names a provider request declares, read from its body in that family's shape. */
function declaredToolNames(provider: ChatDialect, body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as Record<string, unknown>[];
  switch (provider) {
    case 'openai-chat/v1':
      return tools.map((tool) => String((tool.function as Record<string, unknown>).name));
    case 'openai-responses/v1':
    case 'anthropic-messages/v1':
      return tools.map((tool) => String(tool.name));
    case 'gemini-generate-content/v1':
      return tools.flatMap((tool) => ((tool.functionDeclarations ?? []) as Record<string, unknown>[]).map((declaration) => String(declaration.name)));
    default: {
      const unknownProvider: never = provider;
      throw new Error(String(unknownProvider));
    }
  }
}

/** The user's prompt text as the provider request carries it (first user turn), in that family's shape. */
function promptText(provider: ChatDialect, body: Record<string, unknown>): string {
  const text = JSON.stringify(provider === 'gemini-generate-content/v1' ? body.contents : provider === 'openai-responses/v1' ? body.input : body.messages);
  return text;
}

async function serve(dialect: ChatDialect, scenario: ProviderScenario) {
  const gateway = createGatewayFetch({ dialect, provider: scenario.provider, responses: [scenarioResponse(scenario)] });
  const view = unsealedView(await runClient(dialect, gateway.fetch, { prompt: scenario.prompt, tools: scenario.tools, stream: scenario.stream }), dialect, scenario.provider);
  expect(gateway.exchanges).toHaveLength(1);
  const exchange = gateway.exchanges[0];
  if (exchange === undefined) throw new Error('no exchange');
  return { view, exchange };
}

describe.each(CHAT_DIALECTS.map((dialect) => [DIALECT_NAME[dialect], dialect] as const))('%s client', (_name, dialect) => {
  it.each(PROVIDER_SCENARIOS.map((scenario) => [`${DIALECT_NAME[scenario.provider]}: ${scenario.name} (${scenario.origin}, ${scenario.stream ? 'stream' : 'sync'})`, scenario] as const))(
    'served by %s',
    async (_title, scenario) => {
      const { view, exchange } = await serve(dialect, scenario);

      // The client request became a task with the client's question, tools and stream flag.
      expect(exchange.decoded?.modelLabel).toBe('client-model');
      const task = exchange.decoded?.task;
      if (task?.kind !== 'chat') throw new Error('expected a chat task');
      expect(task.stream).toBe(scenario.stream);
      expect(task.tools?.map((tool) => tool.name)).toEqual(scenario.tools.map((tool) => tool.name));
      expect(task.reasoning).toBeDefined();

      // The provider got one request in its own shape, for the target's model, with the same question and tools.
      expect(exchange.providerRequests).toHaveLength(1);
      const sent = exchange.providerRequests[0];
      expect(sent?.method).toBe('POST');
      expect(sent?.path).toBe(PROVIDER_PATH[scenario.provider](scenario.stream));
      if (sent?.body.type !== 'json') throw new Error('expected a JSON provider request');
      const body = sent.body.value as Record<string, unknown>;
      if (scenario.provider !== 'gemini-generate-content/v1') expect(body.model).toBe(PROVIDER_MODEL);
      expect(declaredToolNames(scenario.provider, body)).toEqual(scenario.tools.map((tool) => tool.name));
      expect(promptText(scenario.provider, body)).toContain(JSON.stringify(scenario.prompt).slice(1, -1));

      // The normalized terminal carries what the provider said, intact.
      const terminal = exchange.terminal;
      if (terminal?.status !== 'completed' || terminal.result.kind !== 'chat') throw new Error('expected a completed chat terminal');
      const content = terminal.result.content;
      expect(terminal.usage).toEqual(scenario.facts.usage);
      expect(terminal.finishReason?.unified).toBe(scenario.facts.finish);
      expect(content.flatMap((part) => (part.type === 'tool-call' ? [{ name: part.toolName, arguments: JSON.parse(part.argumentsText) as unknown }] : []))).toEqual(
        scenario.facts.toolCalls,
      );
      expect(content.some((part) => part.type === 'text' && part.text.length > 0)).toBe(scenario.facts.text);
      expect(content.some((part) => part.type === 'reasoning' && part.text.length > 0)).toBe(scenario.facts.reasoning);
      if (scenario.stream) expect(exchange.events.filter((event) => event.type === 'tool-call-end')).toHaveLength(scenario.facts.toolCalls.length);

      // The client's SDK rebuilt exactly what the table keeps of the normalized facts.
      expect(exchange.status).toBe(200);
      expect(view).toEqual(expectedClientView(dialect, scenario.provider, terminal));
    },
  );
});

describe('same-dialect pairs', () => {
  it.each(PROVIDER_SCENARIOS.map((scenario) => [`${DIALECT_NAME[scenario.provider]}: ${scenario.name}`, scenario] as const))(
    'hand the client the provider state byte for byte: %s',
    async (_title, scenario) => {
      const { view } = await serve(scenario.provider, scenario);
      const received = [...view.reasoningSignatures, ...view.toolCalls.flatMap((call) => (call.signature === undefined ? [] : [call.signature]))];
      expect(received.sort()).toEqual(recordedSignatures(scenario).sort());
    },
  );

  it('has signatures to compare in every family that writes them', () => {
    const signed = new Set(PROVIDER_SCENARIOS.filter((scenario) => recordedSignatures(scenario).length > 0).map((scenario) => scenario.provider));
    expect([...signed].sort()).toEqual(['anthropic-messages/v1', 'gemini-generate-content/v1', 'openai-responses/v1']);
  });
});
