import type { FixtureResponseV1 } from '@tokenforge/provider-adapters';
import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import type { ChatDialect } from './test-support/dialects.js';
import { anthropicClient, anthropicParams, openAiChatParams, openAiClient, runClient, type ClientAsk } from './test-support/sdk-clients.js';
import { createGatewayFetch, type GatewayExchange } from './test-support/gateway-fetch.js';
import { PROVIDER_SCENARIOS, scenarioResponse, type ProviderScenario } from './test-support/provider-scenarios.js';
import { unsealedView } from './test-support/unsealed-view.js';

/*
 * One test per "dropped" row of docs/translation-table.md: what a client dialect cannot express is left out of the
 * bytes it receives (checked on the wire, not only through an SDK), and nothing is invented in its place.
 */

const decoder = new TextDecoder();

function scenario(file: string): ProviderScenario {
  const found = PROVIDER_SCENARIOS.find((candidate) => candidate.file === file);
  if (found === undefined) throw new Error(`no scenario for ${file}`);
  return found;
}

function wireText(exchange: GatewayExchange | undefined): string {
  if (exchange === undefined) throw new Error('no exchange');
  return exchange.chunks.map((chunk) => decoder.decode(chunk)).join('');
}

async function serveScenario(dialect: ChatDialect, file: string) {
  const answer = scenario(file);
  const gateway = createGatewayFetch({ dialect, provider: answer.provider, responses: [scenarioResponse(answer)] });
  const view = unsealedView(await runClient(dialect, gateway.fetch, { prompt: answer.prompt, tools: answer.tools, stream: answer.stream }), dialect, answer.provider);
  return { view, wire: wireText(gateway.exchanges[0]), exchange: gateway.exchanges[0] };
}

const ANTHROPIC_SIGNATURE = 'EqQBCkgIARABGAIiQL2constructedsignature==';
const ANTHROPIC_REDACTED = 'EmwKAhgBEgy3constructedredacted==';
const GEMINI_CALL_SIGNATURE_PREFIX = 'Eqo+Cqc+Ab4+9vtgONaaz6qwy6WXdp7gCd2w0X';

const weatherAsk: ClientAsk = {
  prompt: 'Weather in Boston?',
  tools: [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { location: { type: 'string' } } } }],
  stream: false,
};

/** Constructed (fact sheet §1.5): an assistant refusal in Chat Completions' `refusal` field. */
const OPENAI_REFUSAL: FixtureResponseV1 = {
  body: {
    type: 'json',
    value: {
      id: 'chatcmpl-constructed-refusal',
      object: 'chat.completion',
      created: 1,
      model: 'constructed',
      choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I can't help with that." }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 6, total_tokens: 16 },
    },
  },
};

/** Constructed (fact sheet §1.5, §1.11): a tool call cut off by the token limit, its arguments not valid JSON. */
const OPENAI_CUT_TOOL_CALL: FixtureResponseV1 = {
  body: {
    type: 'json',
    value: {
      id: 'chatcmpl-constructed-cut',
      object: 'chat.completion',
      created: 1,
      model: 'constructed',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_cut', type: 'function', function: { name: 'weather', arguments: '{"location":"Bos' } }] },
          logprobs: null,
          finish_reason: 'length',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  },
};

describe('reasoning signatures and redacted reasoning', () => {
  it('DROP openai-chat: reasoning signatures and redacted reasoning never reach the wire (reasoning text does)', async () => {
    for (const file of ['constructed__anthropic-thinking-tool.json', 'constructed__anthropic-thinking-tool.chunks.txt']) {
      const { view, wire } = await serveScenario('openai-chat/v1', file);
      expect(view.reasoningText).toBe('The user wants the weather in Paris.');
      expect(wire).not.toContain(ANTHROPIC_SIGNATURE);
      expect(wire).not.toContain(ANTHROPIC_REDACTED);
    }
  });

  it('DROP openai-chat: encrypted Responses reasoning never reaches the wire', async () => {
    const { view, wire } = await serveScenario('openai-chat/v1', 'vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt');
    expect(view.reasoningText.length).toBeGreaterThan(0);
    expect(wire).not.toContain('gAAAAA');
  });

  it('DROP openai-responses and gemini: redacted reasoning has no carrier', async () => {
    for (const dialect of ['openai-responses/v1', 'gemini-generate-content/v1'] as const) {
      const { view, wire } = await serveScenario(dialect, 'constructed__anthropic-thinking-tool.json');
      expect(view.reasoningSignatures).toEqual([ANTHROPIC_SIGNATURE]);
      expect(wire).not.toContain(ANTHROPIC_REDACTED);
    }
  });

  it('KEEP anthropic: another family\'s reasoning signature travels as thinking.signature (a Gemini thought signature here)', async () => {
    const { view } = await serveScenario('anthropic-messages/v1', 'constructed__gemini-reasoning-signature.chunks.txt');
    expect(view.reasoningSignatures).toEqual(['U0lHTkFUVVJF']);
  });

  it('DROP openai-chat stream: the official accumulator keeps only the last reasoning_content fragment', async () => {
    const answer = scenario('vercel-ai__deepseek-tool-call.chunks.txt');
    const gateway = createGatewayFetch({ dialect: 'openai-chat/v1', provider: answer.provider, responses: [scenarioResponse(answer)] });
    const runner = openAiClient(gateway.fetch).chat.completions.stream({
      ...openAiChatParams({ prompt: answer.prompt, tools: answer.tools, stream: true }),
      stream: true,
    });
    const final = await runner.finalChatCompletion();
    const accumulated = (final.choices[0]?.message as { reasoning_content?: string }).reasoning_content;
    const deltas = (gateway.exchanges[0]?.events ?? []).flatMap((event) => (event.type === 'reasoning-delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(accumulated).toBe(deltas.at(-1));
    expect(wireText(gateway.exchanges[0])).toContain('"reasoning_content":"The"');
  });
});

describe('tool calls', () => {
  it('DROP anthropic and openai-responses: a Gemini thought signature on a function call has no carrier', async () => {
    for (const dialect of ['anthropic-messages/v1', 'openai-responses/v1'] as const) {
      const { view, wire } = await serveScenario(dialect, 'vercel-ai__google-tool-call-gemini3.json');
      expect(view.toolCalls.map((call) => call.name)).toEqual(['weather']);
      expect(wire).not.toContain(GEMINI_CALL_SIGNATURE_PREFIX);
    }
  });

  it('KEEP openai-chat: a Gemini call signature travels as extra_content.google.thought_signature', async () => {
    const { view } = await serveScenario('openai-chat/v1', 'vercel-ai__google-tool-call-gemini3.json');
    expect(view.toolCalls[0]?.signature?.startsWith(GEMINI_CALL_SIGNATURE_PREFIX)).toBe(true);
  });

  it('DROP gemini: ids Gemini decoders derived are not shown to Gemini clients; other dialects see them', async () => {
    const gemini = await serveScenario('gemini-generate-content/v1', 'vercel-ai__google-tool-call-gemini3.json');
    expect(gemini.wire).not.toContain('gemini-fc-');
    const openAi = await serveScenario('openai-chat/v1', 'vercel-ai__google-tool-call-gemini3.json');
    expect(openAi.view.toolCalls[0]?.id).toBe('gemini-fc-8c60967c-0');
  });

  it('DROP anthropic: a tool call whose arguments were cut off (not a JSON object) is left out of a whole Message', async () => {
    const gateway = createGatewayFetch({ dialect: 'anthropic-messages/v1', provider: 'openai-chat/v1', responses: [OPENAI_CUT_TOOL_CALL] });
    const view = await runClient('anthropic-messages/v1', gateway.fetch, weatherAsk);
    expect(view.toolCalls).toEqual([]);
    expect(view.finishReason).toBe('max_tokens');
  });

  it('DROP gemini: the same cut-off call cannot be written, so the client gets a 500 INTERNAL error', async () => {
    const gateway = createGatewayFetch({ dialect: 'gemini-generate-content/v1', provider: 'openai-chat/v1', responses: [OPENAI_CUT_TOOL_CALL] });
    const error = await runClient('gemini-generate-content/v1', gateway.fetch, weatherAsk).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
  });

  it('KEEP openai dialects: the cut-off argument text is passed as it is, with the length finish reason', async () => {
    for (const dialect of ['openai-chat/v1', 'openai-responses/v1'] as const) {
      const gateway = createGatewayFetch({ dialect, provider: 'openai-chat/v1', responses: [OPENAI_CUT_TOOL_CALL] });
      const view = await runClient(dialect, gateway.fetch, weatherAsk);
      expect(view.toolCalls.map((call) => call.arguments)).toEqual(['{"location":"Bos']);
      expect(view.finishReason).toBe(dialect === 'openai-chat/v1' ? 'length' : 'incomplete:max_output_tokens');
    }
  });
});

describe('refusals', () => {
  it('DROP anthropic and gemini: a refusal block becomes ordinary text (no refusal block exists)', async () => {
    // The provider ended with `stop`, so nothing but the refusal field said "refusal": those clients see an answer.
    const expectedFinish: Readonly<Record<ChatDialect, string>> = {
      'openai-chat/v1': 'stop',
      'openai-responses/v1': 'completed',
      'anthropic-messages/v1': 'end_turn',
      'gemini-generate-content/v1': 'STOP',
    };
    for (const dialect of ['openai-chat/v1', 'openai-responses/v1', 'anthropic-messages/v1', 'gemini-generate-content/v1'] as const) {
      const gateway = createGatewayFetch({ dialect, provider: 'openai-chat/v1', responses: [OPENAI_REFUSAL] });
      const view = await runClient(dialect, gateway.fetch, weatherAsk);
      const terminal = gateway.exchanges[0]?.terminal;
      expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'refusal', text: "I can't help with that." }] } });
      const keepsRefusal = dialect === 'openai-chat/v1' || dialect === 'openai-responses/v1';
      expect({ text: view.text, refusal: view.refusal }).toEqual(
        keepsRefusal ? { text: '', refusal: "I can't help with that." } : { text: "I can't help with that.", refusal: '' },
      );
      expect(view.finishReason).toBe(expectedFinish[dialect]);
    }
  });
});

describe('usage', () => {
  it('DROP anthropic: no total on the wire; the reasoning count rides in output_tokens_details', async () => {
    const { wire } = await serveScenario('anthropic-messages/v1', 'vercel-ai__deepseek-reasoning.json');
    const usage = (JSON.parse(wire) as { usage: Record<string, unknown> }).usage;
    expect(usage).toEqual({ input_tokens: 18, output_tokens: 345, cache_creation_input_tokens: null, cache_read_input_tokens: 0, output_tokens_details: { thinking_tokens: 315 } });
  });

  it('DROP gemini: cache-write tokens have no field', async () => {
    const { wire } = await serveScenario('gemini-generate-content/v1', 'constructed__anthropic-thinking-tool.json');
    expect((JSON.parse(wire) as { usageMetadata: Record<string, unknown> }).usageMetadata).toEqual({
      promptTokenCount: 1120,
      cachedContentTokenCount: 1000,
      candidatesTokenCount: 45,
      thoughtsTokenCount: 40,
      totalTokenCount: 1205,
    });
  });

  it('INVENT nothing in openai dialects: a provider that reports no output count gives no usage object', async () => {
    for (const dialect of ['openai-chat/v1', 'openai-responses/v1'] as const) {
      const gateway = createGatewayFetch({
        dialect,
        provider: 'gemini-generate-content/v1',
        responses: [{ body: { type: 'text', text: JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }) }, headers: { 'content-type': 'application/json' } }],
      });
      const view = await runClient(dialect, gateway.fetch, weatherAsk);
      expect(view.usage).toBeUndefined();
    }
  });

  it('ZERO anthropic: the required output_tokens is 0 when the provider reported none', async () => {
    const gateway = createGatewayFetch({
      dialect: 'anthropic-messages/v1',
      provider: 'gemini-generate-content/v1',
      responses: [{ body: { type: 'text', text: JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }) }, headers: { 'content-type': 'application/json' } }],
    });
    const view = await runClient('anthropic-messages/v1', gateway.fetch, weatherAsk);
    expect(view.usage).toEqual({ inputTokens: 9, outputTokens: 0 });
  });
});

describe('what no client dialect receives', () => {
  it('DROP all: Anthropic server tool blocks, citations and the matched stop sequence are not in the normalized answer', async () => {
    const sync = await serveScenario('anthropic-messages/v1', 'constructed__anthropic-thinking-tool.json');
    // The request count survives in usage.server_tool_use; the server_tool_use content block does not.
    expect(sync.wire).not.toContain('"type":"server_tool_use"');
    expect((JSON.parse(sync.wire) as { usage: Record<string, unknown> }).usage.server_tool_use).toEqual({ web_search_requests: 1 });
    expect(sync.wire).not.toContain('web_search_tool_result');
    expect(JSON.parse(sync.wire)).toMatchObject({ stop_sequence: null });

    const answer = scenario('constructed__anthropic-thinking-tool.chunks.txt');
    const gateway = createGatewayFetch({ dialect: 'anthropic-messages/v1', provider: answer.provider, responses: [scenarioResponse(answer)] });
    const message = await anthropicClient(gateway.fetch).messages.stream(anthropicParams({ prompt: answer.prompt, tools: answer.tools, stream: true })).finalMessage();
    const text = message.content.find((block) => block.type === 'text');
    expect(text).toMatchObject({ type: 'text', text: 'Let me check the weather — ☀️.' });
    expect(text?.type === 'text' ? (text.citations ?? []) : undefined).toEqual([]);
  });

  it('DROP all: the Responses message phase (commentary, final answer) is not kept, even for Responses clients', async () => {
    const { wire } = await serveScenario('openai-responses/v1', 'vercel-ai__openai-phase.1.json');
    expect(wire).not.toContain('"phase"');
    expect((JSON.parse(wire) as { output: unknown[] }).output).toHaveLength(2);
  });

  it('REPLACE all: the provider response id and model are never shown; the host id and the client model label are', async () => {
    for (const dialect of ['openai-chat/v1', 'openai-responses/v1', 'anthropic-messages/v1', 'gemini-generate-content/v1'] as const) {
      const { wire } = await serveScenario(dialect, 'vercel-ai__deepseek-reasoning.json');
      expect(wire).not.toContain('945bb10c-9bf3-47ff-a2a2-43bbe9705c72');
      expect(wire).not.toContain('deepseek-reasoner');
      expect(wire).toMatch(/gw-[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(wire).toContain('client-model');
    }
  });
});
