/*
 * Builders of constructed Responses stream events (§2.8 of the chat wire fact sheet). Every builder returns the
 * JSON payload; `sse()` of the stream harness frames them with their `event:` name.
 */

const RESPONSE_ID = 'resp_constructed';

/** A Response snapshot. */
export function responseObject(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: RESPONSE_ID, object: 'response', created_at: 1, status, model: 'm', output: [], error: null, incomplete_details: null, usage: null, ...extra };
}

/** `response.created` and `response.in_progress`. */
export function opening(): Record<string, unknown>[] {
  return [
    { type: 'response.created', sequence_number: 0, response: responseObject('in_progress') },
    { type: 'response.in_progress', sequence_number: 1, response: responseObject('in_progress') },
  ];
}

/** A usage object in Responses arithmetic. */
export const WIRE_USAGE = { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 17 };

/** The normalized form of {@link WIRE_USAGE}. */
export const NORMALIZED_USAGE = { inputTokens: 10, cacheReadInputTokens: 4, outputTokens: 7, reasoningOutputTokens: 2, totalTokens: 17 };

/** `response.completed` with usage. */
export function completed(output: unknown[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'response.completed', response: responseObject('completed', { output, usage: WIRE_USAGE, ...extra }) };
}

/** The events of one streamed text message (added, part added, deltas, text done, part done, item done). */
export function textMessage(itemId: string, outputIndex: number, deltas: readonly string[], kind: 'output_text' | 'refusal' = 'output_text'): Record<string, unknown>[] {
  const text = deltas.join('');
  const part = kind === 'output_text' ? { type: 'output_text', annotations: [], text } : { type: 'refusal', refusal: text };
  const emptyPart = kind === 'output_text' ? { type: 'output_text', annotations: [], text: '' } : { type: 'refusal', refusal: '' };
  const prefix = kind === 'output_text' ? 'response.output_text' : 'response.refusal';
  return [
    { type: 'response.output_item.added', output_index: outputIndex, item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.content_part.added', item_id: itemId, output_index: outputIndex, content_index: 0, part: emptyPart },
    ...deltas.map((delta) => ({ type: `${prefix}.delta`, item_id: itemId, output_index: outputIndex, content_index: 0, delta })),
    { type: `${prefix}.done`, item_id: itemId, output_index: outputIndex, content_index: 0, ...(kind === 'output_text' ? { text } : { refusal: text }) },
    { type: 'response.content_part.done', item_id: itemId, output_index: outputIndex, content_index: 0, part },
    {
      type: 'response.output_item.done',
      output_index: outputIndex,
      item: { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] },
    },
  ];
}

/** `output_item.added` of a function call (arguments empty, as OpenAI sends it). */
export function callAdded(itemId: string, outputIndex: number, callId: string, name: string): Record<string, unknown> {
  return { type: 'response.output_item.added', output_index: outputIndex, item: { id: itemId, type: 'function_call', status: 'in_progress', arguments: '', call_id: callId, name } };
}

/** One `function_call_arguments.delta`. */
export function argumentsDelta(itemId: string, outputIndex: number, delta: string): Record<string, unknown> {
  return { type: 'response.function_call_arguments.delta', item_id: itemId, output_index: outputIndex, delta };
}

/** `function_call_arguments.done` and `output_item.done` of a call. */
export function callDone(itemId: string, outputIndex: number, callId: string, name: string, argumentsText: string): Record<string, unknown>[] {
  return [
    { type: 'response.function_call_arguments.done', item_id: itemId, output_index: outputIndex, arguments: argumentsText },
    {
      type: 'response.output_item.done',
      output_index: outputIndex,
      item: { id: itemId, type: 'function_call', status: 'completed', arguments: argumentsText, call_id: callId, name },
    },
  ];
}

/** Adds increasing `sequence_number`s from 0 to events that lack one. */
export function numbered(events: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return events.map((event, index) => ({ ...event, sequence_number: index }));
}
