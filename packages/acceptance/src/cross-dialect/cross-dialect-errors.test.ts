import Anthropic, { APIError as AnthropicApiError } from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import type { ProviderFailureCodeV1 } from '@tokenforge/model-protocol';
import type { FixtureResponseV1 } from '@tokenforge/provider-adapters';
import OpenAI, { APIError as OpenAiApiError } from 'openai';
import { describe, expect, it } from 'vitest';
import { CHAT_DIALECTS, CHUNK_FRAMING, DIALECT_NAME, type ChatDialect } from './test-support/dialects.js';
import { expectedClientView } from './test-support/expected-client-view.js';
import { createGatewayFetch } from './test-support/gateway-fetch.js';
import { fixtureText } from './test-support/provider-scenarios.js';
import { runClient } from './test-support/sdk-clients.js';

/*
 * Provider failures reach every client as its own dialect's error: HTTP status and envelope when the failure comes
 * before the first byte of the answer (the gateway has not committed a response head), the dialect's in-stream error
 * after it. Each client's official SDK must raise its matching error class, with the wait visible where it exposes
 * one. SDK retries are off in every client.
 */

interface ErrorCase {
  readonly name: string;
  readonly provider: ChatDialect;
  readonly stream: boolean;
  readonly response: FixtureResponseV1;
  /** The normalized failure the provider's answer must become. */
  readonly code: ProviderFailureCodeV1;
  readonly retryAfterMs?: number;
  /** Whether answer bytes were written before the failure (an in-stream error). */
  readonly midStream: boolean;
}

const weatherTool = [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { location: { type: 'string' } } } }];

const ERROR_CASES: readonly ErrorCase[] = [
  {
    name: 'anthropic 429 rate limit with Retry-After (constructed)',
    provider: 'anthropic-messages/v1',
    stream: false,
    response: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '7' }, body: { type: 'text', text: fixtureText('constructed__anthropic-error-rate-limit.json') } },
    code: 'rate-limited',
    retryAfterMs: 7000,
    midStream: false,
  },
  {
    name: 'anthropic 429 rate limit with Retry-After on a stream request (constructed)',
    provider: 'anthropic-messages/v1',
    stream: true,
    response: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '7' }, body: { type: 'text', text: fixtureText('constructed__anthropic-error-rate-limit.json') } },
    code: 'rate-limited',
    retryAfterMs: 7000,
    midStream: false,
  },
  {
    name: 'anthropic 529 overloaded (constructed)',
    provider: 'anthropic-messages/v1',
    stream: false,
    response: { status: 529, headers: { 'content-type': 'application/json' }, body: { type: 'text', text: fixtureText('constructed__anthropic-error-overloaded.json') } },
    code: 'overloaded',
    midStream: false,
  },
  {
    name: 'anthropic overloaded in the middle of a stream (constructed)',
    provider: 'anthropic-messages/v1',
    stream: true,
    response: { body: { type: 'chunks', text: fixtureText('constructed__anthropic-error-overloaded.chunks.txt'), framing: 'typed-sse' } },
    code: 'overloaded',
    midStream: true,
  },
  {
    name: 'openai-chat 400 context length exceeded (constructed, fact sheet §1.8)',
    provider: 'openai-chat/v1',
    stream: false,
    response: {
      status: 400,
      body: { type: 'json', value: { error: { message: 'maximum context length exceeded', type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } },
    },
    code: 'context-length-exceeded',
    midStream: false,
  },
  {
    name: 'openai-chat 400 content policy refusal (constructed, fact sheet §1.8)',
    provider: 'openai-chat/v1',
    stream: true,
    response: {
      status: 400,
      body: { type: 'json', value: { error: { message: 'blocked', type: 'invalid_request_error', param: null, code: 'content_policy_violation' } } },
    },
    code: 'content-filtered',
    midStream: false,
  },
  {
    name: 'openai-responses 429 insufficient quota (recorded)',
    provider: 'openai-responses/v1',
    stream: false,
    response: { status: 429, headers: { 'content-type': 'application/json' }, body: { type: 'text', text: fixtureText('vercel-ai__openai-error.1.json') } },
    code: 'quota-exceeded',
    midStream: false,
  },
  {
    name: 'gemini 429 with a RetryInfo delay on a stream request (constructed)',
    provider: 'gemini-generate-content/v1',
    stream: true,
    response: { status: 429, headers: { 'content-type': 'application/json' }, body: { type: 'text', text: fixtureText('constructed__gemini-429-retry-info.json') } },
    code: 'rate-limited',
    retryAfterMs: 39_000,
    midStream: false,
  },
  {
    name: 'gemini stream cut before its finish reason (constructed)',
    provider: 'gemini-generate-content/v1',
    stream: true,
    response: { body: { type: 'chunks', text: fixtureText('constructed__gemini-truncated.chunks.txt'), framing: CHUNK_FRAMING['gemini-generate-content/v1'] } },
    code: 'truncated-stream',
    midStream: true,
  },
];

/** HTTP status each dialect's egress gives each failure code used here. */
const STATUS: Readonly<Record<ChatDialect, Partial<Record<ProviderFailureCodeV1, number>>>> = {
  'openai-chat/v1': { 'rate-limited': 429, 'quota-exceeded': 429, overloaded: 503, 'context-length-exceeded': 400, 'content-filtered': 400, 'truncated-stream': 502 },
  'openai-responses/v1': { 'rate-limited': 429, 'quota-exceeded': 429, overloaded: 503, 'context-length-exceeded': 400, 'content-filtered': 400, 'truncated-stream': 502 },
  'anthropic-messages/v1': { 'rate-limited': 429, 'quota-exceeded': 402, overloaded: 529, 'context-length-exceeded': 400, 'content-filtered': 400, 'truncated-stream': 502 },
  'gemini-generate-content/v1': { 'rate-limited': 429, 'quota-exceeded': 402, overloaded: 503, 'context-length-exceeded': 400, 'content-filtered': 400, 'truncated-stream': 500 },
};

/** The error code or type each dialect writes for each failure code used here (OpenAI `code`, Anthropic `type`, Google `status`). */
const ERROR_NAME: Readonly<Record<ChatDialect, Partial<Record<ProviderFailureCodeV1, string>>>> = {
  'openai-chat/v1': {
    'rate-limited': 'rate_limit_exceeded',
    'quota-exceeded': 'insufficient_quota',
    overloaded: 'overloaded',
    'context-length-exceeded': 'context_length_exceeded',
    'content-filtered': 'content_filter',
    'truncated-stream': 'upstream_stream_truncated',
  },
  'openai-responses/v1': {
    'rate-limited': 'rate_limit_exceeded',
    'quota-exceeded': 'insufficient_quota',
    overloaded: 'server_error',
    'context-length-exceeded': 'context_length_exceeded',
    'content-filtered': 'content_filter',
    'truncated-stream': 'server_error',
  },
  'anthropic-messages/v1': {
    'rate-limited': 'rate_limit_error',
    'quota-exceeded': 'billing_error',
    overloaded: 'overloaded_error',
    'context-length-exceeded': 'invalid_request_error',
    'content-filtered': 'invalid_request_error',
    'truncated-stream': 'api_error',
  },
  'gemini-generate-content/v1': {
    'rate-limited': 'RESOURCE_EXHAUSTED',
    'quota-exceeded': 'RESOURCE_EXHAUSTED',
    overloaded: 'UNAVAILABLE',
    'context-length-exceeded': 'INVALID_ARGUMENT',
    'content-filtered': 'INVALID_ARGUMENT',
    'truncated-stream': 'INTERNAL',
  },
};

async function captureError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the client did not fail');
}

function header(headers: unknown, name: string): string | null | undefined {
  if (headers instanceof Headers) return headers.get(name);
  return (headers as Record<string, string> | undefined)?.[name];
}

/** The SDK error class a pre-byte HTTP error of `status` must raise. */
/** Any error class, for `toBeInstanceOf`. */
type ErrorClass = abstract new (...args: never[]) => Error;

function openAiClassFor(status: number): ErrorClass {
  if (status === 400) return OpenAI.BadRequestError;
  if (status === 429) return OpenAI.RateLimitError;
  if (status >= 500) return OpenAI.InternalServerError;
  return OpenAI.APIError;
}

function anthropicClassFor(status: number): ErrorClass {
  if (status === 400) return Anthropic.BadRequestError;
  if (status === 402) return Anthropic.PaymentRequiredError;
  if (status === 429) return Anthropic.RateLimitError;
  if (status === 529) return Anthropic.OverloadedError;
  if (status === 503) return Anthropic.ServiceUnavailableError;
  return Anthropic.InternalServerError;
}

function expectClientError(dialect: ChatDialect, testCase: ErrorCase, error: unknown): void {
  const status = STATUS[dialect][testCase.code];
  const name = ERROR_NAME[dialect][testCase.code];
  if (status === undefined || name === undefined) throw new Error('missing table row');
  const waitSeconds = testCase.retryAfterMs === undefined ? undefined : String(Math.ceil(testCase.retryAfterMs / 1000));
  switch (dialect) {
    case 'openai-chat/v1':
    case 'openai-responses/v1': {
      if (testCase.midStream) {
        if (dialect === 'openai-chat/v1') {
          // `data: {"error":…}`: the SDK's stream raises an APIError without status.
          expect(error).toBeInstanceOf(OpenAI.APIError);
          expect((error as OpenAiApiError).status).toBeUndefined();
          expect((error as OpenAiApiError).code).toBe(name);
        } else {
          // An `error` event: the SDK's ResponseStream rejects with the event itself, as for OpenAI's own streams.
          expect(error).toMatchObject({ type: 'error', code: name, param: null });
        }
        return;
      }
      expect(error).toBeInstanceOf(openAiClassFor(status));
      const apiError = error as OpenAiApiError;
      expect(apiError.status).toBe(status);
      expect(apiError.code).toBe(name);
      expect(header(apiError.headers, 'retry-after') ?? undefined).toBe(waitSeconds);
      expect(header(apiError.headers, 'retry-after-ms') ?? undefined).toBe(testCase.retryAfterMs === undefined ? undefined : String(testCase.retryAfterMs));
      return;
    }
    case 'anthropic-messages/v1': {
      expect(error).toBeInstanceOf(Anthropic.APIError);
      const apiError = error as AnthropicApiError;
      expect(apiError.type).toBe(name);
      if (testCase.midStream) {
        expect(apiError.status).toBeUndefined();
        return;
      }
      expect(error).toBeInstanceOf(anthropicClassFor(status));
      expect(apiError.status).toBe(status);
      expect(header(apiError.headers, 'retry-after') ?? undefined).toBe(waitSeconds);
      return;
    }
    case 'gemini-generate-content/v1': {
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect(apiError.status).toBe(status);
      expect(apiError.message).toContain(name);
      if (testCase.retryAfterMs !== undefined) expect(apiError.message).toContain(`"retryDelay":"${testCase.retryAfterMs / 1000}s"`);
      else expect(apiError.message).not.toContain('retryDelay');
      return;
    }
    default: {
      const unknownDialect: never = dialect;
      throw new Error(String(unknownDialect));
    }
  }
}

describe.each(CHAT_DIALECTS.map((dialect) => [DIALECT_NAME[dialect], dialect] as const))('%s client', (_name, dialect) => {
  it.each(ERROR_CASES.map((testCase) => [testCase.name, testCase] as const))('gets its own error for: %s', async (_title, testCase) => {
    const gateway = createGatewayFetch({ dialect, provider: testCase.provider, responses: [testCase.response] });
    const error = await captureError(runClient(dialect, gateway.fetch, { prompt: 'Hi', tools: weatherTool, stream: testCase.stream }));

    const exchange = gateway.exchanges[0];
    expect(gateway.exchanges).toHaveLength(1);
    expect(exchange?.terminal?.status).toBe('failed');
    if (exchange?.terminal?.status !== 'failed') throw new Error('expected a failed terminal');
    expect(exchange.terminal.failure.code).toBe(testCase.code);
    expect(exchange.terminal.failure.retryAfterMs).toBe(testCase.retryAfterMs);
    expect(exchange.status).toBe(testCase.midStream ? 200 : STATUS[dialect][testCase.code]);

    expectClientError(dialect, testCase, error);
  });
});

/** Hands the client the whole answer body as one read, as a slow reader on a loaded machine gets it; keeps its text. */
function oneRead(fetchFn: typeof fetch, bodies: string[]): typeof fetch {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    const body = new Uint8Array(await response.arrayBuffer());
    bodies.push(new TextDecoder().decode(body));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body);
        controller.close();
      },
    });
    return new Response(stream, { status: response.status, headers: response.headers });
  };
}

describe('a mid-stream error that arrives in the same read as the events before it', () => {
  const midStream = ERROR_CASES.filter((testCase) => testCase.midStream);
  it.each(midStream.map((testCase) => [testCase.name, testCase] as const))('is still a typed ApiError for a gemini client: %s', async (_title, testCase) => {
    const gateway = createGatewayFetch({ dialect: 'gemini-generate-content/v1', provider: testCase.provider, responses: [testCase.response] });
    const bodies: string[] = [];
    const error = await captureError(runClient('gemini-generate-content/v1', oneRead(gateway.fetch, bodies), { prompt: 'Hi', tools: weatherTool, stream: true }));
    // Not vacuous: the one read holds answer events before the error event.
    expect(bodies[0]).toMatch(/^data: \{"candidates"[\s\S]*\n\ndata: \{"error":/);
    expectClientError('gemini-generate-content/v1', testCase, error);
  });
});

describe('a content filter that ends the answer is a finish reason, not an error', () => {
  const blocked: FixtureResponseV1 = { headers: { 'content-type': 'application/json' }, body: { type: 'text', text: fixtureText('constructed__gemini-prompt-blocked.json') } };
  const expected: Readonly<Record<ChatDialect, string>> = {
    'openai-chat/v1': 'content_filter',
    'openai-responses/v1': 'incomplete:content_filter',
    'anthropic-messages/v1': 'refusal',
    'gemini-generate-content/v1': 'blockReason:SAFETY',
  };

  it.each(CHAT_DIALECTS.map((dialect) => [DIALECT_NAME[dialect], dialect] as const))('a gemini prompt block reaches a %s client', async (_name, dialect) => {
    const gateway = createGatewayFetch({ dialect, provider: 'gemini-generate-content/v1', responses: [blocked] });
    const view = await runClient(dialect, gateway.fetch, { prompt: 'Hi', tools: weatherTool, stream: false });
    const terminal = gateway.exchanges[0]?.terminal;
    if (terminal === undefined) throw new Error('no terminal');
    expect(terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'content-filter', raw: 'blockReason:SAFETY' } });
    expect(view.finishReason).toBe(expected[dialect]);
    expect(view).toEqual(expectedClientView(dialect, 'gemini-generate-content/v1', terminal));
  });
});
