import type { SseFrame } from '../sim-exchange.js';
import { joined, type AnswerPlan } from './answer-plan.js';
import type { ChatWire } from './serve-chat.js';

const ID = 'msg_sim0001';

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Anthropic's error envelope (fact sheet §3.8). */
export function anthropicErrorBody(status: number, message: string): unknown {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message }, request_id: 'req_sim0001' };
}

function event(value: Record<string, unknown> & { type: string }): SseFrame {
  return { event: value.type, data: JSON.stringify(value) };
}

function stopReason(plan: AnswerPlan): string {
  return plan.toolCall === undefined ? 'end_turn' : 'tool_use';
}

/** Anthropic Messages (fact sheet §3): named events from `message_start` to `message_stop`. */
export const anthropicMessagesWire: ChatWire = {
  fixtureFolder: 'anthropic-messages',
  errorBody: anthropicErrorBody,
  recordedStatus(body) {
    const error = (body as { type?: unknown; error?: { type?: unknown } } | null)?.error;
    if ((body as { type?: unknown } | null)?.type !== 'error' || typeof error?.type !== 'string') return 200;
    const entry = Object.entries(ERROR_TYPES).find(([, type]) => type === error.type);
    return entry === undefined ? 500 : Number(entry[0]);
  },
  syncBody(plan, model) {
    const content: unknown[] = [];
    if (plan.compaction !== undefined) content.push({ type: 'compaction', content: plan.compaction.data });
    if (plan.reasoning !== undefined) content.push({ type: 'thinking', thinking: joined(plan.reasoning.chunks), signature: plan.reasoning.signature });
    if (plan.text.length > 0) content.push({ type: 'text', text: joined(plan.text) });
    if (plan.toolCall !== undefined) {
      content.push({ type: 'tool_use', id: 'toolu_sim0001', name: plan.toolCall.name, input: JSON.parse(joined(plan.toolCall.argumentChunks)) as unknown });
    }
    return {
      id: ID,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason(plan),
      stop_sequence: null,
      usage: { input_tokens: plan.usage.inputTokens, output_tokens: plan.usage.outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
  },
  streamFrames(plan, model) {
    const frames: SseFrame[] = [
      event({
        type: 'message_start',
        message: { id: ID, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: plan.usage.inputTokens, output_tokens: 1 } },
      }),
      event({ type: 'ping' }),
    ];
    let index = 0;
    if (plan.compaction !== undefined) {
      // The block opens empty and its whole summary comes as one compaction_delta.
      frames.push(event({ type: 'content_block_start', index, content_block: { type: 'compaction', content: null } }));
      frames.push(event({ type: 'content_block_delta', index, delta: { type: 'compaction_delta', content: plan.compaction.data } }));
      frames.push(event({ type: 'content_block_stop', index }));
      index += 1;
    }
    if (plan.reasoning !== undefined) {
      frames.push(event({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const text of plan.reasoning.chunks) frames.push(event({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } }));
      frames.push(event({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: plan.reasoning.signature } }));
      frames.push(event({ type: 'content_block_stop', index }));
      index += 1;
    }
    if (plan.text.length > 0) {
      frames.push(event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const text of plan.text) frames.push(event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
      frames.push(event({ type: 'content_block_stop', index }));
      index += 1;
    }
    if (plan.toolCall !== undefined) {
      frames.push(event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: 'toolu_sim0001', name: plan.toolCall.name, input: {} } }));
      frames.push(event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }));
      for (const fragment of plan.toolCall.argumentChunks) {
        frames.push(event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: fragment } }));
      }
      frames.push(event({ type: 'content_block_stop', index }));
    }
    frames.push(event({ type: 'message_delta', delta: { stop_reason: stopReason(plan), stop_sequence: null }, usage: { output_tokens: plan.usage.outputTokens } }));
    frames.push(event({ type: 'message_stop' }));
    return { frames, terminalFrames: 2 };
  },
  midStreamErrorFrames() {
    return [event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })];
  },
  recordedFrame(line) {
    const type = (JSON.parse(line) as { type?: unknown }).type;
    return typeof type === 'string' ? { event: type, data: line } : { data: line };
  },
  recordedTrailer: [],
};
