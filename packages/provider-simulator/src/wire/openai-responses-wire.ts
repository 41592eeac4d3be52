import type { SseFrame } from '../sim-exchange.js';
import { joined, type AnswerPlan } from './answer-plan.js';
import { openAiErrorBody, openAiRecordedStatus } from './openai-errors.js';
import type { ChatWire } from './serve-chat.js';

const ID = 'resp_sim0001';
const CREATED = 1_770_000_000;

function usage(plan: AnswerPlan): Record<string, unknown> {
  const { inputTokens, outputTokens, reasoningTokens } = plan.usage;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

function response(model: string, status: string, output: unknown[], usageValue: unknown, error: unknown = null): Record<string, unknown> {
  return {
    id: ID,
    object: 'response',
    created_at: CREATED,
    status,
    error,
    incomplete_details: null,
    instructions: null,
    model,
    output,
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    metadata: {},
    usage: usageValue,
  };
}

function outputItems(plan: AnswerPlan): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (plan.compaction !== undefined) items.push({ id: 'cmp_sim0001', type: 'compaction', encrypted_content: plan.compaction.data });
  if (plan.reasoning !== undefined) {
    items.push({
      id: 'rs_sim0001',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: joined(plan.reasoning.chunks) }],
      encrypted_content: plan.reasoning.signature,
    });
  }
  if (plan.text.length > 0) {
    items.push({
      id: 'msg_sim0001',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: joined(plan.text), annotations: [] }],
    });
  }
  if (plan.toolCall?.kind === 'custom') {
    items.push({ id: 'ctc_sim0001', type: 'custom_tool_call', status: 'completed', call_id: plan.toolCall.id, name: plan.toolCall.name, input: joined(plan.toolCall.argumentChunks) });
  } else if (plan.toolCall !== undefined) {
    items.push({
      id: 'fc_sim0001',
      type: 'function_call',
      status: 'completed',
      arguments: joined(plan.toolCall.argumentChunks),
      call_id: plan.toolCall.id,
      name: plan.toolCall.name,
    });
  }
  return items;
}

function numbered(events: Record<string, unknown>[], start: number): SseFrame[] {
  return events.map((value, offset) => {
    const type = value.type as string;
    return { event: type, data: JSON.stringify({ type, sequence_number: start + offset, ...value }) };
  });
}

/** OpenAI Responses (fact sheet §2): named, numbered lifecycle events ending with `response.completed`. */
export const openAiResponsesWire: ChatWire = {
  fixtureFolder: 'openai-responses',
  errorBody: openAiErrorBody,
  recordedStatus: openAiRecordedStatus,
  syncBody(plan, model) {
    return response(model, 'completed', outputItems(plan), usage(plan));
  },
  streamFrames(plan, model) {
    const events: Record<string, unknown>[] = [
      { type: 'response.created', response: response(model, 'in_progress', [], null) },
      { type: 'response.in_progress', response: response(model, 'in_progress', [], null) },
    ];
    const final = outputItems(plan);
    let outputIndex = 0;
    for (const item of final) {
      const itemId = item.id as string;
      const output_index = outputIndex;
      if (item.type === 'compaction') {
        events.push({ type: 'response.output_item.added', output_index, item: { id: itemId, type: 'compaction' } });
      } else if (item.type === 'reasoning' && plan.reasoning !== undefined) {
        const text = joined(plan.reasoning.chunks);
        events.push({ type: 'response.output_item.added', output_index, item: { id: itemId, type: 'reasoning', summary: [] } });
        events.push({ type: 'response.reasoning_summary_part.added', item_id: itemId, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } });
        for (const delta of plan.reasoning.chunks) {
          events.push({ type: 'response.reasoning_summary_text.delta', item_id: itemId, output_index, summary_index: 0, delta });
        }
        events.push({ type: 'response.reasoning_summary_text.done', item_id: itemId, output_index, summary_index: 0, text });
        events.push({ type: 'response.reasoning_summary_part.done', item_id: itemId, output_index, summary_index: 0, part: { type: 'summary_text', text } });
      } else if (item.type === 'message') {
        const text = joined(plan.text);
        events.push({ type: 'response.output_item.added', output_index, item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
        events.push({ type: 'response.content_part.added', item_id: itemId, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
        for (const delta of plan.text) {
          events.push({ type: 'response.output_text.delta', item_id: itemId, output_index, content_index: 0, delta, logprobs: [] });
        }
        events.push({ type: 'response.output_text.done', item_id: itemId, output_index, content_index: 0, text, logprobs: [] });
        events.push({ type: 'response.content_part.done', item_id: itemId, output_index, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
      } else if (item.type === 'function_call' && plan.toolCall !== undefined) {
        events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const delta of plan.toolCall.argumentChunks) {
          events.push({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index, delta });
        }
        events.push({ type: 'response.function_call_arguments.done', item_id: itemId, output_index, arguments: item.arguments });
      } else if (item.type === 'custom_tool_call' && plan.toolCall !== undefined) {
        events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', input: '' } });
        for (const delta of plan.toolCall.argumentChunks) events.push({ type: 'response.custom_tool_call_input.delta', item_id: itemId, output_index, delta });
        events.push({ type: 'response.custom_tool_call_input.done', item_id: itemId, output_index, input: item.input });
      }
      events.push({ type: 'response.output_item.done', output_index, item });
      outputIndex += 1;
    }
    events.push({ type: 'response.completed', response: response(model, 'completed', final, usage(plan)) });
    return { frames: numbered(events, 0), terminalFrames: 1 };
  },
  midStreamErrorFrames(framesBefore) {
    const error = { code: 'server_error', message: 'The server had an error while processing your request.' };
    return numbered(
      [
        { type: 'error', code: error.code, message: error.message, param: null },
        { type: 'response.failed', response: response('simulated', 'failed', [], null, error) },
      ],
      framesBefore,
    );
  },
  recordedFrame(line) {
    const type = (JSON.parse(line) as { type?: unknown }).type;
    return typeof type === 'string' ? { event: type, data: line } : { data: line };
  },
  recordedTrailer: [],
};
