import Anthropic, { APIError as AnthropicApiError } from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import type { FixtureResponseV1 } from '@tokenforge/provider-adapters';
import OpenAI, { APIError as OpenAiApiError } from 'openai';
import { describe, expect, it } from 'vitest';
import { CHAT_DIALECTS, CHUNK_FRAMING, DIALECT_NAME, type ChatDialect } from './test-support/dialects.js';
import { createGatewayFetch } from './test-support/gateway-fetch.js';
import { runClient } from './test-support/sdk-clients.js';

/*
 * Context overflow reaches each client as the client expects it, so its own compaction starts, whatever provider
 * refused. Each provider's refusal is its documented (or recorded) shape; each client's check is the one read in its
 * installed source:
 * - Claude Code 2.1.332 (native binary, strings): a 400 or 413 whose message, lower-cased, includes
 *   "prompt is too long" is `prompt_too_long` (then it parses "N tokens > M" when present, optional);
 * - Codex 0.171.0 (codex-rs `classify_provider_error`): `error.code == "context_length_exceeded"` is
 *   `ContextWindowExceeded`, for an HTTP error and for `response.failed`;
 * - opencode (anomalyco/opencode `provider/error.ts`): `body.error.code === "context_length_exceeded"` or a message
 *   matching its overflow patterns (`/prompt is too long/i`, `/exceeds the context window/i`,
 *   `/input token count.*exceeds the maximum/i`, ...);
 * - Gemini CLI 0.61.0 estimates its own context before sending (`ContextWindowWillOverflow`) and reads no refusal
 *   text; Gemini clients that do (opencode's Google path, pi-ai) match `/input token count.*exceeds the maximum/i`
 *   on a 400 `INVALID_ARGUMENT`.
 */

const weatherTool = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { location: { type: 'string' } } } }];

const json = (status: number, value: unknown): FixtureResponseV1 => ({ status, headers: { 'content-type': 'application/json' }, body: { type: 'json', value } });

/** Each provider's refusal of a prompt over its context window. */
const REFUSALS: readonly { readonly name: string; readonly provider: ChatDialect; readonly response: FixtureResponseV1 }[] = [
  {
    name: 'Anthropic "prompt is too long" (real body, anthropics/claude-code#12186)',
    provider: 'anthropic-messages/v1',
    response: json(400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' }, request_id: 'req_1' }),
  },
  {
    name: 'OpenAI chat context_length_exceeded (API reference error codes)',
    provider: 'openai-chat/v1',
    response: json(400, { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }),
  },
  {
    name: 'an OpenAI-compatible server with no code (vLLM / DeepSeek wording)',
    provider: 'openai-chat/v1',
    response: json(400, { error: { message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.", type: 'BadRequestError', param: null, code: 400 } }),
  },
  {
    name: 'OpenAI Responses context_length_exceeded',
    provider: 'openai-responses/v1',
    response: json(400, { error: { message: 'Your input exceeds the context window of this model. Please adjust your input and try again.', type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' } }),
  },
  {
    name: 'Gemini 400 INVALID_ARGUMENT input token count',
    provider: 'gemini-generate-content/v1',
    response: json(400, { error: { code: 400, message: 'The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }),
  },
];

const OPENCODE_OVERFLOW = [/prompt is too long/i, /exceeds the context window/i, /input token count.*exceeds the maximum/i, /context[_ ]length[_ ]exceeded/i];

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the client did not fail');
}

function expectOverflowDetected(dialect: ChatDialect, error: unknown): void {
  switch (dialect) {
    case 'anthropic-messages/v1': {
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const apiError = error as AnthropicApiError;
      expect(apiError.type).toBe('invalid_request_error');
      // Claude Code's check.
      expect(apiError.message.toLowerCase()).toContain('prompt is too long');
      return;
    }
    case 'openai-chat/v1':
    case 'openai-responses/v1': {
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const apiError = error as OpenAiApiError;
      // Codex's and opencode's code check, and opencode's message patterns.
      expect(apiError.code).toBe('context_length_exceeded');
      expect(OPENCODE_OVERFLOW.some((pattern) => pattern.test(apiError.message))).toBe(true);
      return;
    }
    case 'gemini-generate-content/v1': {
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect(apiError.status).toBe(400);
      expect(apiError.message).toContain('INVALID_ARGUMENT');
      expect(apiError.message).toMatch(/input token count.*exceeds the maximum/i);
      return;
    }
    default: {
      const unknownDialect: never = dialect;
      throw new Error(String(unknownDialect));
    }
  }
}

describe.each(CHAT_DIALECTS.map((dialect) => [DIALECT_NAME[dialect], dialect] as const))('context overflow: %s client', (_name, dialect) => {
  it.each(REFUSALS.flatMap((refusal) => [false, true].map((stream) => [`${refusal.name}${stream ? ', stream' : ''}`, refusal, stream] as const)))(
    'detects %s',
    async (_title, refusal, stream) => {
      const gateway = createGatewayFetch({ dialect, provider: refusal.provider, responses: [refusal.response] });
      const error = await failureOf(runClient(dialect, gateway.fetch, { prompt: 'Hi', tools: weatherTool, stream }));
      expect(gateway.exchanges[0]?.terminal).toMatchObject({ status: 'failed', failure: { code: 'context-length-exceeded', retryable: false } });
      expectOverflowDetected(dialect, error);
    },
  );
});

/** Each provider's answer cut by the output token limit (documented stop values). */
const CUT_ANSWERS: readonly { readonly provider: ChatDialect; readonly response: FixtureResponseV1 }[] = [
  {
    provider: 'anthropic-messages/v1',
    response: json(200, { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'The first part' }], stop_reason: 'max_tokens', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 4 } }),
  },
  {
    provider: 'openai-chat/v1',
    response: json(200, { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'The first part' }, finish_reason: 'length' }], usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 } }),
  },
  {
    provider: 'openai-responses/v1',
    response: json(200, {
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      model: 'm',
      output: [{ type: 'message', id: 'msg_1', status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', text: 'The first part', annotations: [] }] }],
      usage: { input_tokens: 5, output_tokens: 4, total_tokens: 9 },
    }),
  },
  {
    provider: 'gemini-generate-content/v1',
    response: json(200, { candidates: [{ content: { role: 'model', parts: [{ text: 'The first part' }] }, finishReason: 'MAX_TOKENS', index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 4, totalTokenCount: 9 } }),
  },
];

const lines = (...events: unknown[]): string => events.map((event) => JSON.stringify(event)).join('\n');
const chunks = (provider: ChatDialect, text: string): FixtureResponseV1 => ({ body: { type: 'chunks', text, framing: CHUNK_FRAMING[provider] } });

/** The same cut answers, streamed (documented event sequences of each protocol). */
const CUT_STREAMS: readonly { readonly provider: ChatDialect; readonly response: FixtureResponseV1 }[] = [
  {
    provider: 'anthropic-messages/v1',
    response: chunks(
      'anthropic-messages/v1',
      lines(
        { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'The first part' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 4 } },
        { type: 'message_stop' },
      ),
    ),
  },
  {
    provider: 'openai-chat/v1',
    response: chunks(
      'openai-chat/v1',
      lines(
        { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'The first part' }, finish_reason: null }] },
        { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'length' }], usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 } },
      ),
    ),
  },
  {
    provider: 'gemini-generate-content/v1',
    response: chunks(
      'gemini-generate-content/v1',
      lines(
        { candidates: [{ content: { role: 'model', parts: [{ text: 'The first part' }] }, index: 0 }] },
        { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'MAX_TOKENS', index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 4, totalTokenCount: 9 } },
      ),
    ),
  },
];

/** How each client names an answer cut by the output limit. */
const LENGTH_REASON: Readonly<Record<ChatDialect, string>> = {
  'anthropic-messages/v1': 'max_tokens',
  'openai-chat/v1': 'length',
  'openai-responses/v1': 'incomplete:max_output_tokens',
  'gemini-generate-content/v1': 'MAX_TOKENS',
};

describe.each(CHAT_DIALECTS.map((dialect) => [DIALECT_NAME[dialect], dialect] as const))('output cut by the length limit: %s client', (_name, dialect) => {
  it.each(CUT_ANSWERS.map((answer) => [answer.provider, answer] as const))('sees its own length reason, never stop, from %s', async (_provider, answer) => {
    const gateway = createGatewayFetch({ dialect, provider: answer.provider, responses: [answer.response] });
    const view = await runClient(dialect, gateway.fetch, { prompt: 'Hi', tools: weatherTool, stream: false });
    expect(gateway.exchanges[0]?.terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'length' } });
    expect(view.finishReason).toBe(LENGTH_REASON[dialect]);
    expect(view.text).toBe('The first part');
  });

  it.each(CUT_STREAMS.map((answer) => [answer.provider, answer] as const))('sees its own length reason at the end of a stream from %s', async (_provider, answer) => {
    const gateway = createGatewayFetch({ dialect, provider: answer.provider, responses: [answer.response] });
    const view = await runClient(dialect, gateway.fetch, { prompt: 'Hi', tools: weatherTool, stream: true });
    expect(gateway.exchanges[0]?.terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'length' } });
    expect(view.text).toBe('The first part');
    if (dialect !== 'openai-responses/v1') {
      expect(view.finishReason).toBe(LENGTH_REASON[dialect]);
      return;
    }
    // openai 5.23's ResponseStream takes its final snapshot only from `response.completed`, so read the terminal event
    // itself, as Codex does (`response.incomplete` with `incomplete_details.reason`).
    const wire = new TextDecoder().decode(Buffer.concat(gateway.exchanges[0]?.chunks ?? []));
    const terminal = wire
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; response?: { status?: string; incomplete_details?: { reason?: string } } })
      .at(-1);
    expect(terminal).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
  });
});
