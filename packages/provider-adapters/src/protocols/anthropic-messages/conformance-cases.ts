import type { ChatTaskV2, NormalizedStreamEventV3, ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import type { ConformanceCaseV1, ConformanceExpectedRequestV1 } from '../../conformance/conformance-case-v1.js';
import {
  ANTHROPIC_ERROR_OVERLOADED_CHUNKS,
  ANTHROPIC_ERROR_OVERLOADED_JSON,
  ANTHROPIC_ERROR_RATE_LIMIT_JSON,
  ANTHROPIC_JSON_TOOL_JSON,
  ANTHROPIC_TEXT_CHUNKS,
  ANTHROPIC_TEXT_JSON,
  ANTHROPIC_THINKING_TOOL_CHUNKS,
  ANTHROPIC_TOOL_NO_ARGS_CHUNKS,
} from './__fixtures__/recorded-fixtures.js';

const target: ProviderDispatchTargetV2 = {
  provider: 'conformance-provider',
  providerModel: 'anthropic-conformance-model',
  connectionRef: 'conformance-connection',
  capability: {
    protocolFamily: 'anthropic-messages/v1',
    executionMode: 'stream-capable',
    taskKinds: ['chat'],
    tools: true,
    imageInput: true,
    documentInput: true,
    reasoning: true,
    structuredOutput: true,
  },
};

const greeting = [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }] satisfies ChatTaskV2['messages'];
const greetingWire = [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }];

const issueTool = { name: 'updateIssueList', description: 'Replace the issue list', inputSchema: { type: 'object', properties: {} } };
const issueToolWire = { name: 'updateIssueList', description: 'Replace the issue list', input_schema: { type: 'object', properties: {} } };

function request(stream: boolean, body: Record<string, unknown>): ConformanceExpectedRequestV1 {
  return {
    method: 'POST',
    path: '/v1/messages',
    headers: { accept: stream ? 'text/event-stream' : 'application/json' },
    body: { type: 'json', value: { model: 'anthropic-conformance-model', ...body, ...(stream ? { stream: true } : {}) } },
  };
}

const recordedText = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
// The recorded usage objects carry zero cache figures, a zero split by time to live and the standard service tier.
const zeroCache = { cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' };

const textStreamEvents: NormalizedStreamEventV3[] = [
  { type: 'usage', usage: { inputTokens: 12, outputTokens: 1, ...zeroCache } },
  { type: 'text-start', index: 0 },
  { type: 'text-delta', index: 0, delta: 'Hello' },
  { type: 'text-delta', index: 0, delta: '! I' },
  { type: 'text-delta', index: 0, delta: "'m doing well, thank you for asking" },
  { type: 'text-delta', index: 0, delta: '. How are you doing today?' },
  { type: 'text-delta', index: 0, delta: ' Is' },
  { type: 'text-delta', index: 0, delta: ' there anything I can help you with?' },
  { type: 'text-end', index: 0 },
  { type: 'usage', usage: { inputTokens: 12, outputTokens: 30, ...zeroCache } },
];

const thinkingSignature = 'EqQBCkgIARABGAIiQL2constructedsignature==';
const redactedData = 'EmwKAhgBEgy3constructedredacted==';
const thinkingUsageEnd = { inputTokens: 1120, outputTokens: 85, cacheReadInputTokens: 1000, cacheWriteInputTokens: 100, reasoningOutputTokens: 40 };

/**
 * The `anthropic-messages/v1` conformance cases, run through the public engine API with the fixture transport.
 * Names end with `(recorded)` for real provider traffic and `(constructed)` for fact-sheet edge cases.
 */
export const anthropicMessagesConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'sync text message with system, cache usage and request id (recorded)',
    target,
    task: { kind: 'chat', system: [{ type: 'text', text: 'Be kind.' }], messages: greeting, maxOutputTokens: 256, stream: false },
    responses: [
      { label: 'vercel-ai__anthropic-text.json', source: 'recorded', headers: { 'request-id': 'req_conformance_1' }, body: { type: 'text', text: ANTHROPIC_TEXT_JSON } },
    ],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerRequestId: 'req_conformance_1', providerModel: 'claude-sonnet-4-5-20250929' },
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [{ type: 'text', text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?" }],
        },
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage: { inputTokens: 12, outputTokens: 29, ...zeroCache },
      },
    },
    requests: [request(false, { max_tokens: 256, system: [{ type: 'text', text: 'Be kind.' }], messages: greetingWire })],
  },
  {
    name: 'stream text with ping and cumulative usage (recorded)',
    target,
    task: { kind: 'chat', messages: greeting, stream: true },
    responses: [{ label: 'vercel-ai__anthropic-text.chunks.txt', source: 'recorded', body: { type: 'chunks', text: ANTHROPIC_TEXT_CHUNKS, framing: 'typed-sse' } }],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: textStreamEvents,
      terminal: {
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'text', text: recordedText }] },
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage: { inputTokens: 12, outputTokens: 30, ...zeroCache },
      },
    },
    requests: [request(true, { max_tokens: 4096, messages: greetingWire })],
  },
  {
    name: 'stream text then zero-argument tool call whose empty partial_json reads {} (recorded)',
    target,
    task: { kind: 'chat', messages: greeting, tools: [issueTool], toolChoice: { type: 'auto' }, maxOutputTokens: 1000, stream: true },
    responses: [
      { label: 'vercel-ai__anthropic-tool-no-args.chunks.txt', source: 'recorded', body: { type: 'chunks', text: ANTHROPIC_TOOL_NO_ARGS_CHUNKS, framing: 'typed-sse' } },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'usage', usage: { inputTokens: 565, outputTokens: 7, ...zeroCache } },
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: "I'll update the issue list for" },
        { type: 'text-delta', index: 0, delta: ' you.' },
        { type: 'text-end', index: 0 },
        { type: 'tool-call-start', index: 1, toolCallId: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', toolName: 'updateIssueList' },
        { type: 'tool-call-delta', index: 1, delta: '{}' },
        { type: 'tool-call-end', index: 1, argumentsText: '{}' },
        { type: 'usage', usage: { inputTokens: 565, outputTokens: 48, ...zeroCache } },
      ],
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'text', text: "I'll update the issue list for you." },
            { type: 'tool-call', toolCallId: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', toolName: 'updateIssueList', argumentsText: '{}' },
          ],
        },
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: { inputTokens: 565, outputTokens: 48, ...zeroCache },
      },
    },
    requests: [request(true, { max_tokens: 1000, messages: greetingWire, tools: [issueToolWire], tool_choice: { type: 'auto' } })],
  },
  {
    name: 'sync forced tool call with nested input (recorded)',
    target,
    task: {
      kind: 'chat',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in four cities as JSON.' }] }],
      tools: [{ name: 'json', description: 'Respond with a JSON object.', inputSchema: { type: 'object', properties: { elements: { type: 'array' } } } }],
      toolChoice: { type: 'tool', toolName: 'json' },
      stream: false,
    },
    responses: [{ label: 'vercel-ai__anthropic-json-tool.1.json', source: 'recorded', body: { type: 'text', text: ANTHROPIC_JSON_TOOL_JSON } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerModel: 'claude-haiku-4-5-20251001' },
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            {
              type: 'tool-call',
              toolCallId: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa',
              toolName: 'json',
              argumentsText:
                '{"elements":[{"location":"San Francisco","temperature":-5,"condition":"snowy"},{"location":"London","temperature":0,"condition":"snowy"},{"location":"Paris","temperature":23,"condition":"cloudy"},{"location":"Berlin","temperature":-9,"condition":"snowy"}]}',
            },
          ],
        },
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: { inputTokens: 1151, outputTokens: 87, ...zeroCache },
      },
    },
    requests: [
      request(false, {
        max_tokens: 4096,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in four cities as JSON.' }] }],
        tools: [{ name: 'json', description: 'Respond with a JSON object.', input_schema: { type: 'object', properties: { elements: { type: 'array' } } } }],
        tool_choice: { type: 'tool', name: 'json' },
      }),
    ],
  },
  {
    name: 'stream thinking with signature, redacted thinking, text and tool JSON fragments with cache usage (constructed)',
    target,
    task: { kind: 'chat', messages: greeting, reasoning: { effort: 'low' }, maxOutputTokens: 8000, stream: true },
    responses: [
      {
        label: 'constructed__anthropic-thinking-tool.chunks.txt (fact sheet §3.7, §3.11 items 1 and 5)',
        source: 'constructed',
        body: { type: 'chunks', text: ANTHROPIC_THINKING_TOOL_CHUNKS, framing: 'typed-sse' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'usage', usage: { inputTokens: 1120, outputTokens: 1, cacheReadInputTokens: 1000, cacheWriteInputTokens: 100 } },
        { type: 'reasoning-start', index: 0 },
        { type: 'reasoning-delta', index: 0, delta: 'The user wants ' },
        { type: 'reasoning-delta', index: 0, delta: 'the weather in Paris.' },
        { type: 'reasoning-end', index: 0, signature: thinkingSignature },
        { type: 'reasoning-redacted', index: 1, data: redactedData },
        { type: 'text-start', index: 2 },
        { type: 'text-delta', index: 2, delta: 'Let me check ' },
        { type: 'text-delta', index: 2, delta: 'the weather — ☀️.' },
        { type: 'text-end', index: 2 },
        { type: 'tool-call-start', index: 3, toolCallId: 'toolu_constructed_01', toolName: 'get_weather' },
        { type: 'tool-call-delta', index: 3, delta: '{"city": "Par' },
        { type: 'tool-call-delta', index: 3, delta: 'is", "unit": "c"}' },
        { type: 'tool-call-end', index: 3, argumentsText: '{"city": "Paris", "unit": "c"}' },
        { type: 'usage', usage: thinkingUsageEnd },
      ],
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'reasoning', text: 'The user wants the weather in Paris.', signature: thinkingSignature },
            { type: 'redacted-reasoning', data: redactedData },
            { type: 'text', text: 'Let me check the weather — ☀️.' },
            { type: 'tool-call', toolCallId: 'toolu_constructed_01', toolName: 'get_weather', argumentsText: '{"city": "Paris", "unit": "c"}' },
          ],
        },
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: thinkingUsageEnd,
      },
    },
    requests: [request(true, { max_tokens: 8000, messages: greetingWire, thinking: { type: 'enabled', budget_tokens: 2048 } })],
  },
  {
    name: 'mid-stream overloaded_error event after text deltas (constructed)',
    target,
    task: { kind: 'chat', messages: greeting, stream: true },
    responses: [
      {
        label: 'constructed__anthropic-error-overloaded.chunks.txt (fact sheet §3.8, §3.11 item 4)',
        source: 'constructed',
        headers: { 'retry-after': '2' },
        body: { type: 'chunks', text: ANTHROPIC_ERROR_OVERLOADED_CHUNKS, framing: 'typed-sse' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      responseMetadata: { rateLimits: { retryAfterMs: 2000 } },
      events: [
        { type: 'usage', usage: { inputTokens: 12, outputTokens: 1 } },
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: 'Partial answer' },
      ],
      terminal: {
        status: 'failed',
        failure: { code: 'overloaded', retryable: true, retryAfterMs: 2000, providerCode: 'overloaded_error' },
        usage: { inputTokens: 12, outputTokens: 1 },
      },
    },
    requests: [request(true, { max_tokens: 4096, messages: greetingWire })],
  },
  {
    name: 'stream cut before message_stop is a truncated stream (constructed from recorded)',
    target,
    task: { kind: 'chat', messages: greeting, stream: true },
    responses: [
      {
        label: 'vercel-ai__anthropic-text.chunks.txt without its message_stop line',
        source: 'constructed',
        body: { type: 'chunks', text: ANTHROPIC_TEXT_CHUNKS.replace('{"type":"message_stop"}', ''), framing: 'typed-sse' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: textStreamEvents,
      terminal: { status: 'failed', failure: { code: 'truncated-stream', retryable: true }, usage: { inputTokens: 12, outputTokens: 30, ...zeroCache } },
    },
    requests: [request(true, { max_tokens: 4096, messages: greetingWire })],
  },
  {
    name: 'replays thinking, tool use and tool results as alternating turns with cache breakpoints (recorded)',
    target,
    task: {
      kind: 'chat',
      system: [{ type: 'text', text: 'You manage issues.', cacheControl: { type: 'ephemeral', ttlSeconds: 3600 } }],
      messages: [
        ...greeting,
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Call the tool.', signature: thinkingSignature },
            { type: 'redacted-reasoning', data: redactedData },
            { type: 'tool-call', toolCallId: 'toolu_replay', toolName: 'updateIssueList', argumentsText: '' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_replay', toolName: 'updateIssueList', content: [{ type: 'text', text: 'done' }] }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks!', cacheControl: { type: 'ephemeral' } }] },
      ],
      tools: [{ ...issueTool, cacheControl: { type: 'ephemeral' } }],
      reasoning: { budgetTokens: 1500 },
      stream: false,
    },
    responses: [{ label: 'vercel-ai__anthropic-text.json', source: 'recorded', body: { type: 'text', text: ANTHROPIC_TEXT_JSON } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerModel: 'claude-sonnet-4-5-20250929' },
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [{ type: 'text', text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?" }],
        },
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage: { inputTokens: 12, outputTokens: 29, ...zeroCache },
      },
    },
    requests: [
      request(false, {
        max_tokens: 4096 + 1500,
        system: [{ type: 'text', text: 'You manage issues.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        messages: [
          ...greetingWire,
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Call the tool.', signature: thinkingSignature },
              { type: 'redacted_thinking', data: redactedData },
              { type: 'tool_use', id: 'toolu_replay', name: 'updateIssueList', input: {} },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_replay', content: [{ type: 'text', text: 'done' }] },
              { type: 'text', text: 'Thanks!', cache_control: { type: 'ephemeral' } },
            ],
          },
        ],
        tools: [{ ...issueToolWire, cache_control: { type: 'ephemeral' } }],
        thinking: { type: 'enabled', budget_tokens: 1500 },
      }),
    ],
  },
  {
    name: 'JSON output without a schema is refused before anything is sent (constructed)',
    target,
    task: { kind: 'chat', messages: greeting, responseFormat: { type: 'json' }, stream: false },
    responses: [],
    expect: { kind: 'response', acceptance: 'not-accepted', terminal: { status: 'failed', failure: { code: 'unsupported', retryable: false } } },
    requests: [],
  },
  {
    name: 'HTTP 429 rate_limit_error with retry-after (constructed)',
    target,
    task: { kind: 'chat', messages: greeting, stream: false },
    responses: [
      {
        label: 'constructed__anthropic-error-rate-limit.json (fact sheet §3.8)',
        source: 'constructed',
        status: 429,
        headers: { 'retry-after': '30', 'request-id': 'req_conformance_429' },
        body: { type: 'text', text: ANTHROPIC_ERROR_RATE_LIMIT_JSON },
      },
    ],
    expect: {
      kind: 'response',
      acceptance: 'not-accepted',
      responseMetadata: { providerRequestId: 'req_conformance_429', rateLimits: { retryAfterMs: 30_000 } },
      terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 30_000, providerCode: 'rate_limit_error' } },
    },
    requests: [request(false, { max_tokens: 4096, messages: greetingWire })],
  },
  {
    name: 'HTTP 529 overloaded_error on a stream request (constructed)',
    target,
    task: { kind: 'chat', messages: greeting, stream: true },
    responses: [
      { label: 'constructed__anthropic-error-overloaded.json (fact sheet §3.8)', source: 'constructed', status: 529, body: { type: 'text', text: ANTHROPIC_ERROR_OVERLOADED_JSON } },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'unknown',
      events: [],
      terminal: { status: 'failed', failure: { code: 'overloaded', retryable: true, providerCode: 'overloaded_error' } },
    },
    requests: [request(true, { max_tokens: 4096, messages: greetingWire })],
  },
];
