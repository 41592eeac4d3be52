import type { ChatTaskV2, ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import { parseSafeJson } from '../../codec-kit/index.js';
import type { ConformanceCaseV1, ConformanceExpectedRequestV1 } from '../../conformance/conformance-case-v1.js';
import { ALIBABA_TOOL_CALL_CHUNKS, AZURE_MODEL_ROUTER_CHUNKS, DEEPSEEK_REASONING_JSON } from './__fixtures__/recorded-fixtures.js';

const target: ProviderDispatchTargetV2 = {
  provider: 'conformance-provider',
  providerModel: 'openai-chat-conformance-model',
  connectionRef: 'conformance-connection',
  capability: {
    protocolFamily: 'openai-chat/v1',
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

const question = [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in San Francisco?' }] }] satisfies ChatTaskV2['messages'];
const weatherTool = { name: 'weather', description: 'Current weather', inputSchema: { type: 'object', properties: { location: { type: 'string' } } } };

function request(stream: boolean, extra: Record<string, unknown> = {}): ConformanceExpectedRequestV1 {
  return {
    method: 'POST',
    path: '/chat/completions',
    headers: { accept: stream ? 'text/event-stream' : 'application/json' },
    body: {
      type: 'json',
      value: {
        model: 'openai-chat-conformance-model',
        messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }],
        ...extra,
        ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
      },
    },
  };
}

const deepSeekMessage = (parseSafeJson(DEEPSEEK_REASONING_JSON) as { choices: { message: { content: string; reasoning_content: string } }[] })
  .choices[0]?.message ?? { content: '', reasoning_content: '' };

const azureUsage = {
  inputTokens: 15,
  outputTokens: 78,
  totalTokens: 93,
  cacheReadInputTokens: 0,
  reasoningOutputTokens: 64,
  inputTokensByModality: { audio: 0 },
  outputTokensByModality: { audio: 0 },
};
const qwenUsage = { inputTokens: 295, outputTokens: 22, totalTokens: 317, cacheReadInputTokens: 0 };
const qwenCall = { toolCallId: 'call_eee11723464a4b9eb8cee71d', toolName: 'weather' };

function constructedChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return JSON.stringify({ id: 'chatcmpl-c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] });
}

/**
 * Conformance cases of `openai-chat/v1`: recorded Azure, Qwen and DeepSeek traffic (see `__fixtures__/NOTICE.md`)
 * and constructed edge cases from §1.8 and §1.11 of the chat wire fact sheet.
 */
export const openAiChatConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'sync recorded DeepSeek reasoning answer',
    target,
    task: { kind: 'chat', messages: question, maxOutputTokens: 512, stream: false },
    responses: [{ label: 'vercel-ai__deepseek-reasoning.json', source: 'recorded', headers: { 'x-request-id': 'req-conformance' }, body: { type: 'json', value: parseSafeJson(DEEPSEEK_REASONING_JSON) } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerRequestId: 'req-conformance', providerModel: 'deepseek-reasoner' },
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'reasoning', text: deepSeekMessage.reasoning_content },
            { type: 'text', text: deepSeekMessage.content },
          ],
        },
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: 18, outputTokens: 345, totalTokens: 363, cacheReadInputTokens: 0, reasoningOutputTokens: 315 },
      },
    },
    requests: [request(false, { max_completion_tokens: 512 })],
  },
  {
    name: 'stream recorded Azure text with an empty prompt-filter chunk and a usage chunk',
    target,
    task: { kind: 'chat', messages: question, stream: true },
    responses: [{ label: 'vercel-ai__azure-model-router.1.chunks.txt', source: 'recorded', body: { type: 'chunks', text: AZURE_MODEL_ROUTER_CHUNKS, framing: 'openai-chat' } }],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'Capital' },
        { type: 'text-delta', index: 0, delta: ' of' },
        { type: 'text-delta', index: 0, delta: ' Denmark' },
        { type: 'text-delta', index: 0, delta: '.' },
        { type: 'text-end', index: 0 },
        { type: 'usage', usage: azureUsage },
      ],
      terminal: {
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'text', text: 'Capital of Denmark.' }] },
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: azureUsage,
      },
    },
    requests: [request(true)],
  },
  {
    name: 'stream recorded Qwen tool call with empty ids on later fragments',
    target,
    task: { kind: 'chat', messages: question, tools: [weatherTool], toolChoice: { type: 'auto' }, stream: true },
    responses: [{ label: 'vercel-ai__alibaba-tool-call.chunks.txt', source: 'recorded', body: { type: 'chunks', text: ALIBABA_TOOL_CALL_CHUNKS, framing: 'openai-chat' } }],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'tool-call-start', index: 0, ...qwenCall },
        { type: 'tool-call-delta', index: 0, delta: '{"location": "San Francisco' },
        { type: 'tool-call-delta', index: 0, delta: '"}' },
        { type: 'tool-call-end', index: 0, argumentsText: '{"location": "San Francisco"}' },
        { type: 'usage', usage: qwenUsage },
      ],
      terminal: {
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'tool-call', ...qwenCall, argumentsText: '{"location": "San Francisco"}' }] },
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: qwenUsage,
      },
    },
    requests: [
      request(true, {
        tools: [{ type: 'function', function: { name: 'weather', description: 'Current weather', parameters: weatherTool.inputSchema } }],
        tool_choice: 'auto',
      }),
    ],
  },
  {
    name: 'stream aborted by the host after two events',
    target,
    task: { kind: 'chat', messages: question, stream: true },
    responses: [{ label: 'vercel-ai__azure-model-router.1.chunks.txt', source: 'recorded', body: { type: 'chunks', text: AZURE_MODEL_ROUTER_CHUNKS, framing: 'openai-chat' } }],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      abortAfterEvents: 2,
      events: [
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'Capital' },
      ],
      terminal: { status: 'cancelled' },
    },
    requests: [request(true)],
  },
  {
    name: 'stream without [DONE] is a truncated stream',
    target,
    task: { kind: 'chat', messages: question, stream: true },
    responses: [
      {
        label: 'Qwen tool-call chunks with the [DONE] terminator removed (constructed from the recording)',
        source: 'constructed',
        body: { type: 'chunks', text: ALIBABA_TOOL_CALL_CHUNKS, framing: 'openai-chat', omitTerminator: true },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'tool-call-start', index: 0, ...qwenCall },
        { type: 'tool-call-delta', index: 0, delta: '{"location": "San Francisco' },
        { type: 'tool-call-delta', index: 0, delta: '"}' },
        { type: 'tool-call-end', index: 0, argumentsText: '{"location": "San Francisco"}' },
        { type: 'usage', usage: qwenUsage },
      ],
      terminal: { status: 'failed', failure: { code: 'truncated-stream', retryable: true }, usage: qwenUsage },
    },
    requests: [request(true)],
  },
  {
    name: 'stream with a mid-stream error chunk after content',
    target,
    task: { kind: 'chat', messages: question, stream: true },
    responses: [
      {
        label: 'text then data: {"error":{"type":"server_error"}} (§1.8)',
        source: 'constructed',
        body: {
          type: 'text',
          text: `data: ${constructedChunk({ role: 'assistant', content: 'Sunny' })}\n\ndata: {"error":{"message":"The server had an error while processing your request.","type":"server_error"}}\n\n`,
        },
        headers: { 'content-type': 'text/event-stream' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'Sunny' },
      ],
      terminal: { status: 'failed', failure: { code: 'provider-error', retryable: true, providerCode: 'server_error' } },
    },
    requests: [request(true)],
  },
  {
    name: 'stream with parallel tool calls interleaved by index and a named-choice stop',
    target,
    task: { kind: 'chat', messages: question, tools: [weatherTool], toolChoice: { type: 'tool', toolName: 'weather' }, stream: true },
    responses: [
      {
        label: 'two weather calls interleaved 0,1,0,1 finishing with stop (§1.11 cases 3 and 6)',
        source: 'constructed',
        headers: { 'content-type': 'text/event-stream' },
        body: {
          type: 'text',
          text: [
            constructedChunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }] }),
            constructedChunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{"location":' } }] }),
            constructedChunk({ tool_calls: [{ index: 0, function: { arguments: '{"location":"Z\\u00' } }] }),
            constructedChunk({ tool_calls: [{ index: 1, function: { arguments: '"Oslo"}' } }] }),
            constructedChunk({ tool_calls: [{ index: 0, function: { arguments: 'fcrich"}' } }] }),
            constructedChunk({}, 'stop'),
            '[DONE]',
          ]
            .map((data) => `data: ${data}\n\n`)
            .join(''),
        },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'tool-call-start', index: 0, toolCallId: 'call_a', toolName: 'weather' },
        { type: 'tool-call-start', index: 1, toolCallId: 'call_b', toolName: 'weather' },
        { type: 'tool-call-delta', index: 1, delta: '{"location":' },
        { type: 'tool-call-delta', index: 0, delta: '{"location":"Z\\u00' },
        { type: 'tool-call-delta', index: 1, delta: '"Oslo"}' },
        { type: 'tool-call-delta', index: 0, delta: 'fcrich"}' },
        { type: 'tool-call-end', index: 0, argumentsText: '{"location":"Z\\u00fcrich"}' },
        { type: 'tool-call-end', index: 1, argumentsText: '{"location":"Oslo"}' },
      ],
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'tool-call', toolCallId: 'call_a', toolName: 'weather', argumentsText: '{"location":"Z\\u00fcrich"}' },
            { type: 'tool-call', toolCallId: 'call_b', toolName: 'weather', argumentsText: '{"location":"Oslo"}' },
          ],
        },
        finishReason: { unified: 'tool-calls', raw: 'stop' },
      },
    },
    requests: [
      request(true, {
        tools: [{ type: 'function', function: { name: 'weather', description: 'Current weather', parameters: weatherTool.inputSchema } }],
        tool_choice: { type: 'function', function: { name: 'weather' } },
      }),
    ],
  },
  {
    name: 'HTTP 429 with retry-after-ms is a retryable rate limit',
    target,
    task: { kind: 'chat', messages: question, stream: false },
    responses: [
      {
        label: 'OpenAI rate-limit envelope (§1.8)',
        source: 'constructed',
        status: 429,
        headers: { 'retry-after-ms': '1200', 'x-request-id': 'req-limited' },
        body: { type: 'json', value: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } } },
      },
    ],
    expect: {
      kind: 'response',
      acceptance: 'not-accepted',
      responseMetadata: { providerRequestId: 'req-limited', rateLimits: { retryAfterMs: 1200 } },
      terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 1200, providerCode: 'rate_limit_exceeded' } },
    },
    requests: [request(false)],
  },
  {
    name: 'a document by https URL is refused before anything is sent',
    target,
    task: {
      kind: 'chat',
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://example.test/spec.pdf' } }] }],
      stream: false,
    },
    responses: [],
    expect: {
      kind: 'response',
      acceptance: 'not-accepted',
      terminal: { status: 'failed', failure: { code: 'unsupported', retryable: false } },
    },
    requests: [],
  },
];
