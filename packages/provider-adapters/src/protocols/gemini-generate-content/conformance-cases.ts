import type { ChatTaskV2, ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import type { ConformanceCaseV1, ConformanceExpectedRequestV1 } from '../../conformance/conformance-case-v1.js';
import {
  CONSTRUCTED_429_RETRY_INFO_JSON,
  CONSTRUCTED_BARE_ERROR_MID_STREAM_BODY,
  CONSTRUCTED_PROMPT_BLOCKED_JSON,
  CONSTRUCTED_REASONING_SIGNATURE_CHUNKS,
  CONSTRUCTED_TRUNCATED_CHUNKS,
  GEMINI3_TOOL_CALL_JSON,
  VERTEX_STREAM_TOOL_CALL_ARGUMENTS_CHUNKS,
} from './__fixtures__/recorded-fixtures.js';

const target: ProviderDispatchTargetV2 = {
  provider: 'conformance-provider',
  providerModel: 'gemini-conformance-model',
  connectionRef: 'conformance-connection',
  capability: {
    protocolFamily: 'gemini-generate-content/v1',
    executionMode: 'stream-capable',
    taskKinds: ['chat'],
    tools: true,
    imageInput: true,
    documentInput: true,
    audioInput: true,
    reasoning: true,
    structuredOutput: true,
  },
};

const weatherTool = {
  name: 'weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

const question = [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in San Francisco?' }] }] satisfies ChatTaskV2['messages'];

function request(stream: boolean, body: Record<string, unknown>): ConformanceExpectedRequestV1 {
  return {
    method: 'POST',
    path: `/v1beta/models/gemini-conformance-model:${stream ? 'streamGenerateContent' : 'generateContent'}`,
    ...(stream ? { query: { alt: 'sse' } } : {}),
    headers: { accept: stream ? 'text/event-stream' : 'application/json' },
    body: { type: 'json', value: body },
  };
}

const questionContents = [{ role: 'user', parts: [{ text: 'What is the weather in San Francisco?' }] }];
const weatherDeclarations = [
  {
    functionDeclarations: [
      {
        name: 'weather',
        description: 'Current weather for a city',
        parametersJsonSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      },
    ],
  },
];

const gemini3Signature = 'Eqo+Cqc+Ab4+9vtgONaaz6qwy6WXdp7gCd2w0X+Wz2gaBgY0Gv6A12JKo0y5vQwf9YQFyhMbKr1E9m17VT6HXd7jXzjaGYaE';
const vertexSignature =
  'CiMBjz1rX25KieIB4d4AwFn8/WbsHTRNHBXso88PtemwfsSfRAp6AY89a1/e2FrmrE2HtlOxvV7vy8Kn5Og9n6CepcBKYW9aBT5QdXtTD4PGv9pDDWLEDAfsd86Et6k7HDEV976M3kC0ahLS8FCrwRntUKr+GF5uiUfPvgpzqNl5m8d8EwYykfwo1VwuTStR7q3mr/TzDcNzepafpVLdZloKYQGPPWtfkohmdau0GqGi3DuPbFTUBe5Ac/UbCvUk+P7KFbCGb93vFmnjmmTV7228DcAddqtWfe4iVePtSumw3JptYE6PIeVao2r8q7FXZKazzEiA9c04nmq6Vv9lOtt5NsgKrwEBjz1rX1ajIx3yeG/QI78uO+MsKoqgwrCI7PAEaDRqbyDCW/NX/4Vfuz1wp96oT3h/ttJ5ejzQyGamOrYreUUFvJBR/0TvFBdWOXwwCOWtvJ0Jh7SinV9HNqBDM1WWH8e+tGWY0r7xU/o/M1Fkwd73bvyp3BmSm5orrQL4jUZ1TN6ECqw7T7wHEkIfuBXGMZhQwAPzaapGVCdn0LjFJwd1aVReWmt6pE4ut993/K+0CqsBAY89a1+ts0Nggt7GZxVw/dQhH2Gc6KxRbAZKFMTuYRcNufJ5CyTvq85rMWEhTPWQxlQe1V7NIOlsQzyDhlejiCVbq0chDVrwRY23BmLrhSLi+SfKukEc0M+V9LdFiqxxLgUBrVdCvxA17g11j6HGdmXiNze2WDKm7ZXgMYvEiVmglpRZOb4JeJzxNPFsxhv2k6VkKB+GRtO48XwNz/i2taQ8Nq+LO5tED6HhCp4BAY89a18wBKoSkBT2IRo530FeNq/lpVozY0+k+p+H//TAtKoWZBamKCwra81idaMm1TTaWZGlX85Pq0kBvx1sQLFEhILeQrbH0O3Iuk9JlKLKctAwnBj8BZUGJEGtbigTKaSgWcMBhW+jfKWi1xwSxyJLRkIcXmE8U3FE/XHCLeiBy0NRa0yKn3xh62JU9087Q2nOMClxy5Zy5VsZ0qQ=';

const vertexCallOne = 'gemini-fc-61660bc6-0';
const vertexCallTwo = 'gemini-fc-61660bc6-1';
const vertexUsage = { inputTokens: 26, outputTokens: 155, reasoningOutputTokens: 132, totalTokens: 181, inputTokensByModality: { text: 26 }, outputTokensByModality: { text: 23 } };

/**
 * Conformance cases of `gemini-generate-content/v1`: recorded traffic first (the Gemini 3 function call with its
 * thought signature; Vertex streamed function-call arguments, replayed with CRLF framing as Google sends it),
 * then constructed edge cases of fact sheet §4.9 (each labelled constructed).
 */
export const geminiGenerateContentConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'sync function call with thought signature (recorded)',
    target,
    task: { kind: 'chat', stream: false, messages: question, tools: [weatherTool], toolChoice: { type: 'auto' } },
    responses: [
      { label: 'vercel-ai__google-tool-call-gemini3.json', source: 'recorded', body: { type: 'text', text: GEMINI3_TOOL_CALL_JSON } },
    ],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerModel: 'gemini-3-pro-preview' },
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            {
              type: 'tool-call',
              toolCallId: 'gemini-fc-8c60967c-0',
              toolName: 'weather',
              argumentsText: '{"location":"San Francisco"}',
              signature: gemini3Signature,
            },
          ],
        },
        finishReason: { unified: 'tool-calls', raw: 'STOP' },
        usage: { inputTokens: 29, outputTokens: 1816, reasoningOutputTokens: 1801, totalTokens: 1845, inputTokensByModality: { text: 29 } },
      },
    },
    requests: [
      request(false, { contents: questionContents, tools: weatherDeclarations, toolConfig: { functionCallingConfig: { mode: 'AUTO' } } }),
    ],
  },
  {
    name: 'stream of Vertex streamed function-call arguments over CRLF framing (recorded)',
    target,
    task: { kind: 'chat', stream: true, messages: question, tools: [weatherTool] },
    responses: [
      {
        label: 'vercel-ai__google-stream-tool-call-arguments.chunks.txt',
        source: 'recorded',
        body: { type: 'chunks', text: VERTEX_STREAM_TOOL_CALL_ARGUMENTS_CHUNKS, framing: 'gemini-sse', lineEnding: 'crlf' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'tool-call-start', index: 0, toolCallId: vertexCallOne, toolName: 'getWeather' },
        { type: 'tool-call-delta', index: 0, delta: '{"location":"Boston' },
        { type: 'tool-call-delta', index: 0, delta: '"' },
        { type: 'tool-call-delta', index: 0, delta: '}' },
        { type: 'tool-call-end', index: 0, argumentsText: '{"location":"Boston"}', signature: vertexSignature },
        { type: 'tool-call-start', index: 1, toolCallId: vertexCallTwo, toolName: 'getWeather' },
        { type: 'tool-call-delta', index: 1, delta: '{"location":"San Francisco' },
        { type: 'tool-call-delta', index: 1, delta: '"' },
        { type: 'tool-call-delta', index: 1, delta: '}' },
        { type: 'tool-call-end', index: 1, argumentsText: '{"location":"San Francisco"}' },
        { type: 'usage', usage: vertexUsage },
      ],
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'tool-call', toolCallId: vertexCallOne, toolName: 'getWeather', argumentsText: '{"location":"Boston"}', signature: vertexSignature },
            { type: 'tool-call', toolCallId: vertexCallTwo, toolName: 'getWeather', argumentsText: '{"location":"San Francisco"}' },
          ],
        },
        finishReason: { unified: 'tool-calls', raw: 'STOP' },
        usage: vertexUsage,
      },
    },
    requests: [request(true, { contents: questionContents, tools: weatherDeclarations })],
  },
  {
    name: 'stream of thoughts, text and a final signature-only part with provisional usage reported once at the end (constructed, §4.9.1, §4.9.6)',
    target,
    task: { kind: 'chat', stream: true, messages: question, reasoning: { budgetTokens: 1024, includeReasoning: true } },
    responses: [
      {
        label: 'constructed__gemini-reasoning-signature.chunks.txt',
        source: 'constructed',
        body: { type: 'chunks', text: CONSTRUCTED_REASONING_SIGNATURE_CHUNKS, framing: 'gemini-sse', lineEnding: 'crlf' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'reasoning-start', index: 0 },
        { type: 'reasoning-delta', index: 0, delta: 'Two plus two ' },
        { type: 'reasoning-delta', index: 0, delta: 'is four.' },
        { type: 'reasoning-end', index: 0 },
        { type: 'text-start', index: 1 },
        { type: 'text-delta', index: 1, delta: 'It is ' },
        { type: 'text-delta', index: 1, delta: '4.' },
        { type: 'text-end', index: 1 },
        { type: 'reasoning-start', index: 2 },
        { type: 'reasoning-end', index: 2, signature: 'U0lHTkFUVVJF' },
        { type: 'usage', usage: { inputTokens: 8, outputTokens: 15, reasoningOutputTokens: 12, totalTokens: 23 } },
      ],
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'reasoning', text: 'Two plus two is four.' },
            { type: 'text', text: 'It is 4.' },
            { type: 'reasoning', text: '', signature: 'U0lHTkFUVVJF' },
          ],
        },
        finishReason: { unified: 'stop', raw: 'STOP' },
        usage: { inputTokens: 8, outputTokens: 15, reasoningOutputTokens: 12, totalTokens: 23 },
      },
    },
    requests: [
      request(true, { contents: questionContents, generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } } }),
    ],
  },
  {
    name: 'blocked prompt is a content-filter finish, not an empty success (constructed, §4.9.2)',
    target,
    task: { kind: 'chat', stream: false, messages: question },
    responses: [
      { label: 'constructed__gemini-prompt-blocked.json', source: 'constructed', body: { type: 'text', text: CONSTRUCTED_PROMPT_BLOCKED_JSON } },
    ],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      terminal: {
        status: 'completed',
        result: { kind: 'chat', content: [] },
        finishReason: { unified: 'content-filter', raw: 'blockReason:SAFETY' },
        usage: { inputTokens: 9, totalTokens: 9 },
      },
    },
    requests: [request(false, { contents: questionContents })],
  },
  {
    name: '429 RESOURCE_EXHAUSTED with RetryInfo is a retryable rate limit with its delay (constructed, §4.6)',
    target,
    task: { kind: 'chat', stream: false, messages: question },
    responses: [
      { label: 'constructed__gemini-429-retry-info.json', source: 'constructed', status: 429, body: { type: 'text', text: CONSTRUCTED_429_RETRY_INFO_JSON } },
    ],
    expect: {
      kind: 'response',
      acceptance: 'not-accepted',
      terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 39_000, providerCode: 'RESOURCE_EXHAUSTED' } },
    },
    requests: [request(false, { contents: questionContents })],
  },
  {
    name: 'bare JSON error object mid-stream ends the stream as failed (constructed, §4.9.5)',
    target,
    task: { kind: 'chat', stream: true, messages: question },
    responses: [
      {
        label: 'constructed__gemini-bare-error-mid-stream.body.txt',
        source: 'constructed',
        body: { type: 'text', text: CONSTRUCTED_BARE_ERROR_MID_STREAM_BODY },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'Partial' },
        { type: 'text-end', index: 0 },
      ],
      terminal: { status: 'failed', failure: { code: 'overloaded', retryable: true, providerCode: 'UNAVAILABLE' } },
    },
    requests: [request(true, { contents: questionContents })],
  },
  {
    name: 'stream that ends without a finish reason is truncated (constructed, §4.5)',
    target,
    task: { kind: 'chat', stream: true, messages: question },
    responses: [
      {
        label: 'constructed__gemini-truncated.chunks.txt',
        source: 'constructed',
        body: { type: 'chunks', text: CONSTRUCTED_TRUNCATED_CHUNKS, framing: 'gemini-sse' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'Cut' },
      ],
      terminal: { status: 'failed', failure: { code: 'truncated-stream', retryable: true } },
    },
    requests: [request(true, { contents: questionContents })],
  },
  {
    name: 'more stop sequences than Gemini accepts is refused before sending (constructed, §4.2)',
    target,
    task: { kind: 'chat', stream: false, messages: question, stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'] },
    responses: [],
    expect: { kind: 'response', acceptance: 'not-accepted', terminal: { status: 'failed', failure: { code: 'unsupported', retryable: false } } },
    requests: [],
  },
];
