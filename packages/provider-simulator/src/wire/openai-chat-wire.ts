import type { SseFrame } from '../sim-exchange.js';
import { joined, type AnswerPlan } from './answer-plan.js';
import { openAiErrorBody, openAiRecordedStatus } from './openai-errors.js';
import type { ChatWire } from './serve-chat.js';

const ID = 'chatcmpl-sim0001';
const CREATED = 1_770_000_000;

function usage(plan: AnswerPlan): Record<string, unknown> {
  const { inputTokens, outputTokens, reasoningTokens } = plan.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
}

function chunk(model: string, choices: unknown[], extra: Record<string, unknown> = {}): SseFrame {
  return { data: JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model, choices, usage: null, ...extra }) };
}

function delta(model: string, value: Record<string, unknown>): SseFrame {
  return chunk(model, [{ index: 0, delta: value, logprobs: null, finish_reason: null }]);
}

/** OpenAI Chat Completions (fact sheet §1): `data:` chunks without event names, usage chunk, `[DONE]`. */
export const openAiChatWire: ChatWire = {
  fixtureFolder: 'openai-chat',
  errorBody: openAiErrorBody,
  recordedStatus: openAiRecordedStatus,
  syncBody(plan, model) {
    const message: Record<string, unknown> = { role: 'assistant', content: plan.text.length === 0 ? null : joined(plan.text), refusal: null };
    if (plan.reasoning !== undefined) message.reasoning_content = joined(plan.reasoning.chunks);
    if (plan.toolCall !== undefined) {
      message.tool_calls = [{ id: plan.toolCall.id, type: 'function', function: { name: plan.toolCall.name, arguments: joined(plan.toolCall.argumentChunks) } }];
    }
    return {
      id: ID,
      object: 'chat.completion',
      created: CREATED,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: plan.toolCall === undefined ? 'stop' : 'tool_calls' }],
      usage: usage(plan),
      system_fingerprint: 'fp_sim',
    };
  },
  streamFrames(plan, model) {
    const frames: SseFrame[] = [delta(model, { role: 'assistant', content: '', refusal: null })];
    for (const text of plan.reasoning?.chunks ?? []) frames.push(delta(model, { reasoning_content: text }));
    for (const text of plan.text) frames.push(delta(model, { content: text }));
    if (plan.toolCall !== undefined) {
      const call = plan.toolCall;
      frames.push(delta(model, { tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
      for (const fragment of call.argumentChunks) frames.push(delta(model, { tool_calls: [{ index: 0, function: { arguments: fragment } }] }));
    }
    frames.push(chunk(model, [{ index: 0, delta: {}, logprobs: null, finish_reason: plan.toolCall === undefined ? 'stop' : 'tool_calls' }]));
    frames.push(chunk(model, [], { usage: usage(plan) }));
    frames.push({ data: '[DONE]' });
    return { frames, terminalFrames: 3 };
  },
  midStreamErrorFrames() {
    return [{ data: JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }) }];
  },
  recordedFrame: (line) => ({ data: line }),
  recordedTrailer: [{ data: '[DONE]' }],
};
