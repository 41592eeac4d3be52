/**
 * The canned provider answers of `npx --yes pnpm@12.4.2 bench:gateway`: one sync body and one 2,000-event SSE stream per dialect
 * (openai-chat and anthropic-messages), built once so the upstream spends no time composing them.
 */

/** Events in a canned stream. */
export const STREAM_EVENTS = 2_000;
/** Events per socket write of a canned stream. */
export const EVENTS_PER_WRITE = 20;

const encoder = new TextEncoder();

/** The sync openai-chat completion. */
export function openAiChatBody(): Uint8Array {
  return encoder.encode(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'bench-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
    }),
  );
}

/** The sync anthropic-messages message. */
export function anthropicMessageBody(): Uint8Array {
  return encoder.encode(
    JSON.stringify({
      id: 'msg_bench',
      type: 'message',
      role: 'assistant',
      model: 'bench-model',
      content: [{ type: 'text', text: 'Hello from the bench upstream.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 7 },
    }),
  );
}

/** The openai-chat stream's events (`data: ...\n\n` each), `[DONE]` included: {@link STREAM_EVENTS} in all. */
export function openAiChatStreamEvents(): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  const events = [chunk({ role: 'assistant', content: '' }, null)];
  for (let index = 0; index < STREAM_EVENTS - 3; index += 1) events.push(chunk({ content: `tok${index % 10} ` }, null));
  events.push(chunk({}, 'stop', { usage: { prompt_tokens: 12, completion_tokens: STREAM_EVENTS - 3, total_tokens: STREAM_EVENTS + 9 } }));
  events.push('data: [DONE]\n\n');
  return events;
}

/** The anthropic-messages stream's events (`event: ...\ndata: ...\n\n` each): {@link STREAM_EVENTS} in all. */
export function anthropicStreamEvents(): string[] {
  const event = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const events = [
    event('message_start', { message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench-model', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (let index = 0; index < STREAM_EVENTS - 5; index += 1) events.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: `tok${index % 10} ` } }));
  events.push(event('content_block_stop', { index: 0 }));
  events.push(event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: STREAM_EVENTS - 5 } }));
  events.push(event('message_stop', {}));
  return events;
}

/** Groups events into the writes the upstream makes. */
export function writesOf(events: readonly string[], perWrite = EVENTS_PER_WRITE): Uint8Array[] {
  const writes: Uint8Array[] = [];
  for (let start = 0; start < events.length; start += perWrite) writes.push(encoder.encode(events.slice(start, start + perWrite).join('')));
  return writes;
}
