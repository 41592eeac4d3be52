import type { ChatTaskV2, NormalizedStreamEventV1, ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import { parseSafeJson } from '../../codec-kit/index.js';
import type { ConformanceCaseV1, ConformanceExpectedRequestV1 } from '../../conformance/conformance-case-v1.js';
import {
  OPENAI_ERROR_CHUNKS,
  OPENAI_ERROR_JSON,
  OPENAI_PHASE_JSON,
  OPENAI_REASONING_STEP_1_CHUNKS,
  OPENAI_REASONING_STEP_4_CHUNKS,
} from './__fixtures__/recorded-fixtures.js';

const target: ProviderDispatchTargetV2 = {
  provider: 'conformance-provider',
  providerModel: 'openai-responses-conformance-model',
  connectionRef: 'conformance-connection',
  capability: {
    protocolFamily: 'openai-responses/v1',
    executionMode: 'stream-capable',
    taskKinds: ['chat'],
    tools: true,
    imageInput: true,
    documentInput: true,
    reasoning: true,
    structuredOutput: true,
  },
};

const question = [{ role: 'user', content: [{ type: 'text', text: 'What is 12 plus 7, times 3, times 10?' }] }] satisfies ChatTaskV2['messages'];
const calculator = {
  name: 'calculator',
  description: 'A minimal calculator for basic arithmetic.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' }, op: { type: 'string' } }, required: ['a', 'b', 'op'] },
  strict: true,
};

function request(stream: boolean, extra: Record<string, unknown> = {}): ConformanceExpectedRequestV1 {
  return {
    method: 'POST',
    path: '/responses',
    headers: { accept: stream ? 'text/event-stream' : 'application/json' },
    body: {
      type: 'json',
      value: {
        model: 'openai-responses-conformance-model',
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is 12 plus 7, times 3, times 10?' }] }],
        ...extra,
        store: false,
        include: ['reasoning.encrypted_content'],
        ...(stream ? { stream: true } : {}),
      },
    },
  };
}

interface RecordedEvent {
  readonly type: string;
  readonly item?: { readonly type: string; readonly encrypted_content?: string; readonly summary?: readonly { readonly text: string }[] };
  readonly delta?: string;
}

const step1 = OPENAI_REASONING_STEP_1_CHUNKS.trimEnd().split('\n').map((line) => parseSafeJson(line) as RecordedEvent);
const reasoningDone = step1.find((event) => event.type === 'response.output_item.done' && event.item?.type === 'reasoning')?.item;
const reasoningSignature = reasoningDone?.encrypted_content ?? '';
const reasoningText = reasoningDone?.summary?.[0]?.text ?? '';
const summaryDeltas = step1.filter((event) => event.type === 'response.reasoning_summary_text.delta').map((event) => event.delta ?? '');
const argumentDeltas = step1.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => event.delta ?? '');
const step1Call = { toolCallId: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', toolName: 'calculator' };
const step1Usage = { inputTokens: 134, cacheReadInputTokens: 0, outputTokens: 28, reasoningOutputTokens: 0, totalTokens: 162, serviceTier: 'default' };
const step4Usage = { inputTokens: 299, cacheReadInputTokens: 0, outputTokens: 12, reasoningOutputTokens: 0, totalTokens: 311, serviceTier: 'default' };
const step4Deltas = ['The', ' final', ' result', ' is', ' **', '570', '**', '.'];

const phase = parseSafeJson(OPENAI_PHASE_JSON) as { output: { content: { text: string }[] }[] };

const step1Events: NormalizedStreamEventV1[] = [
  { type: 'reasoning-start', index: 0 },
  ...summaryDeltas.map((delta): NormalizedStreamEventV1 => ({ type: 'reasoning-delta', index: 0, delta })),
  { type: 'reasoning-end', index: 0, signature: reasoningSignature },
  { type: 'tool-call-start', index: 1, ...step1Call },
  ...argumentDeltas.map((delta): NormalizedStreamEventV1 => ({ type: 'tool-call-delta', index: 1, delta })),
  { type: 'tool-call-end', index: 1, argumentsText: '{"a":12,"b":7,"op":"add"}' },
  { type: 'usage', usage: step1Usage },
];

function constructed(events: readonly Record<string, unknown>[]): string {
  return events.map((event, index) => `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`).join('');
}

const created = { type: 'response.created', response: { id: 'resp_c', object: 'response', created_at: 1, status: 'in_progress', model: 'm', output: [], usage: null } };

/**
 * Conformance cases of `openai-responses/v1`: recorded OpenAI traffic (see `__fixtures__/NOTICE.md`) and constructed
 * edge cases from §2.8, §2.9 and §2.12 of the chat wire fact sheet.
 */
export const openAiResponsesConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'sync recorded answer with commentary and final_answer messages',
    target,
    task: { kind: 'chat', messages: question, stream: false },
    responses: [{ label: 'vercel-ai__openai-phase.1.json', source: 'recorded', headers: { 'x-request-id': 'req-phase' }, body: { type: 'json', value: parseSafeJson(OPENAI_PHASE_JSON) } }],
    expect: {
      kind: 'response',
      acceptance: 'accepted',
      responseMetadata: { providerRequestId: 'req-phase', providerModel: 'gpt-5.3-codex' },
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'text', text: phase.output[0]?.content[0]?.text ?? '' },
            { type: 'text', text: phase.output[1]?.content[0]?.text ?? '' },
          ],
        },
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: { inputTokens: 7243, cacheReadInputTokens: 3072, outputTokens: 423, reasoningOutputTokens: 58, totalTokens: 7666, serviceTier: 'default' },
      },
    },
    requests: [request(false)],
  },
  {
    name: 'stream recorded reasoning summary with encrypted content, then a function call',
    target,
    task: { kind: 'chat', messages: question, tools: [calculator], toolChoice: { type: 'auto' }, reasoning: { effort: 'high', includeReasoning: true }, stream: true },
    responses: [{ label: 'vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt (response 1 of 4)', source: 'recorded', body: { type: 'chunks', text: OPENAI_REASONING_STEP_1_CHUNKS, framing: 'typed-sse' } }],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: step1Events,
      terminal: {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'reasoning', text: reasoningText, signature: reasoningSignature },
            { type: 'tool-call', ...step1Call, argumentsText: '{"a":12,"b":7,"op":"add"}' },
          ],
        },
        finishReason: { unified: 'tool-calls', raw: 'completed' },
        usage: step1Usage,
      },
    },
    requests: [
      request(true, {
        tools: [{ type: 'function', name: 'calculator', description: calculator.description, parameters: calculator.inputSchema, strict: true }],
        tool_choice: 'auto',
        reasoning: { effort: 'high', summary: 'auto' },
      }),
    ],
  },
  {
    name: 'stream recorded text answer after tool results, replaying reasoning statelessly',
    target,
    task: {
      kind: 'chat',
      messages: [
        ...question,
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: reasoningText, signature: reasoningSignature },
            { type: 'tool-call', ...step1Call, argumentsText: '{"a":12,"b":7,"op":"add"}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', ...step1Call, content: [{ type: 'text', text: '19' }] }] },
      ],
      tools: [calculator],
      stream: true,
    },
    responses: [{ label: 'vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt (response 4 of 4)', source: 'recorded', body: { type: 'chunks', text: OPENAI_REASONING_STEP_4_CHUNKS, framing: 'typed-sse' } }],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'text-start', index: 0 },
        ...step4Deltas.map((delta): NormalizedStreamEventV1 => ({ type: 'text-delta', index: 0, delta })),
        { type: 'text-end', index: 0 },
        { type: 'usage', usage: step4Usage },
      ],
      terminal: {
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'text', text: 'The final result is **570**.' }] },
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: step4Usage,
      },
    },
    requests: [
      {
        method: 'POST',
        path: '/responses',
        headers: { accept: 'text/event-stream' },
        body: {
          type: 'json',
          value: {
            model: 'openai-responses-conformance-model',
            input: [
              { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is 12 plus 7, times 3, times 10?' }] },
              { type: 'reasoning', summary: [{ type: 'summary_text', text: reasoningText }], encrypted_content: reasoningSignature },
              { type: 'function_call', call_id: step1Call.toolCallId, name: 'calculator', arguments: '{"a":12,"b":7,"op":"add"}' },
              { type: 'function_call_output', call_id: step1Call.toolCallId, output: '19' },
            ],
            tools: [{ type: 'function', name: 'calculator', description: calculator.description, parameters: calculator.inputSchema, strict: true }],
            store: false,
            include: ['reasoning.encrypted_content'],
            stream: true,
          },
        },
      },
    ],
  },
  {
    name: 'stream recorded mid-stream quota error followed by response.failed is one failure',
    target,
    task: { kind: 'chat', messages: question, stream: true },
    responses: [{ label: 'vercel-ai__openai-error.1.chunks.txt', source: 'recorded', body: { type: 'chunks', text: OPENAI_ERROR_CHUNKS, framing: 'typed-sse' } }],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [],
      terminal: { status: 'failed', failure: { code: 'quota-exceeded', retryable: false, providerCode: 'insufficient_quota' } },
    },
    requests: [request(true)],
  },
  {
    name: 'HTTP 429 recorded quota envelope is a non-retryable quota failure',
    target,
    task: { kind: 'chat', messages: question, stream: false },
    responses: [
      {
        label: 'vercel-ai__openai-error.1.json (status and retry-after header constructed)',
        source: 'recorded',
        status: 429,
        headers: { 'retry-after': '2', 'x-request-id': 'req-quota' },
        body: { type: 'json', value: parseSafeJson(OPENAI_ERROR_JSON) },
      },
    ],
    expect: {
      kind: 'response',
      acceptance: 'not-accepted',
      responseMetadata: { providerRequestId: 'req-quota', rateLimits: { retryAfterMs: 2000 } },
      terminal: { status: 'failed', failure: { code: 'quota-exceeded', retryable: false, retryAfterMs: 2000, providerCode: 'insufficient_quota' } },
    },
    requests: [request(false)],
  },
  {
    name: 'stream that closes after output_item.done without a terminal event is truncated',
    target,
    task: { kind: 'chat', messages: question, stream: true },
    responses: [
      {
        label: 'text message without response.completed (§2.12 case 5)',
        source: 'constructed',
        body: {
          type: 'text',
          text: constructed([
            created,
            { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } },
            { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: '570' },
            { type: 'response.output_item.done', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '570', annotations: [] }] } },
          ]),
        },
        headers: { 'content-type': 'text/event-stream' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, delta: '570' },
        { type: 'text-end', index: 0 },
      ],
      terminal: { status: 'failed', failure: { code: 'truncated-stream', retryable: true } },
    },
    requests: [request(true)],
  },
  {
    name: 'stream incomplete at max_output_tokens while a call is half streamed',
    target,
    task: { kind: 'chat', messages: question, tools: [calculator], maxOutputTokens: 16, stream: true },
    responses: [
      {
        label: 'response.incomplete during function_call_arguments (§2.12 case 2)',
        source: 'constructed',
        body: {
          type: 'text',
          text: constructed([
            created,
            { type: 'response.output_item.added', output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'calculator', arguments: '' } },
            { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"a":1' },
            {
              type: 'response.incomplete',
              response: { id: 'resp_c', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [], usage: { input_tokens: 5, output_tokens: 16, total_tokens: 21 } },
            },
          ]),
        },
        headers: { 'content-type': 'text/event-stream' },
      },
    ],
    expect: {
      kind: 'stream',
      acceptance: 'accepted',
      events: [
        { type: 'tool-call-start', index: 0, toolCallId: 'call_1', toolName: 'calculator' },
        { type: 'tool-call-delta', index: 0, delta: '{"a":1' },
        { type: 'tool-call-end', index: 0, argumentsText: '{"a":1' },
        { type: 'usage', usage: { inputTokens: 5, outputTokens: 16, totalTokens: 21 } },
      ],
      terminal: {
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'calculator', argumentsText: '{"a":1' }] },
        finishReason: { unified: 'length', raw: 'max_output_tokens' },
        usage: { inputTokens: 5, outputTokens: 16, totalTokens: 21 },
      },
    },
    requests: [
      request(true, {
        tools: [{ type: 'function', name: 'calculator', description: calculator.description, parameters: calculator.inputSchema, strict: true }],
        max_output_tokens: 16,
      }),
    ],
  },
  {
    name: 'stream with an unknown event type fails as a protocol violation',
    target,
    task: { kind: 'chat', messages: question, stream: true },
    responses: [
      {
        label: 'an event type outside the documented set (§0 project policy)',
        source: 'constructed',
        body: { type: 'text', text: constructed([created, { type: 'response.telepathy.delta', item_id: 'x', delta: 'hi' }]) },
        headers: { 'content-type': 'text/event-stream' },
      },
    ],
    expect: { kind: 'stream', acceptance: 'accepted', events: [], terminal: { status: 'failed', failure: { code: 'protocol-violation', retryable: false } } },
    requests: [request(true)],
  },
  {
    name: 'stop sequences are refused before anything is sent',
    target,
    task: { kind: 'chat', messages: question, stopSequences: ['END'], stream: false },
    responses: [],
    expect: { kind: 'response', acceptance: 'not-accepted', terminal: { status: 'failed', failure: { code: 'unsupported', retryable: false } } },
    requests: [],
  },
];
