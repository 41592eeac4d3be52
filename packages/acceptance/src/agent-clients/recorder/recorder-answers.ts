/**
 * Minimal answers of the request recorder in each chat dialect: enough for a coding-agent CLI to finish a turn.
 * A request that declares one of the tools a scenario prefers (and carries no tool result yet) gets a call to that
 * tool; every other request gets a short text. Streamed the way each provider streams, written by hand here
 * (independently of the project's codecs, which is what the captures are run against).
 */

/** The wire dialect a request path belongs to. */
export type RecorderDialect = 'anthropic-messages' | 'openai-responses' | 'openai-chat' | 'gemini';

/** A tool the recorder may call: the first declared tool whose name is in the list is called with its arguments. */
export interface RecorderToolChoice {
  /** Tool name as the client declares it. */
  readonly name: string;
  /** Arguments of a function call. */
  readonly arguments: Record<string, unknown>;
  /** Freeform input of a custom (grammar) tool call; Responses only, where it becomes a `custom_tool_call`. */
  readonly input?: string;
}

/** What the recorder writes back for one request. */
export interface RecorderAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** The text every answer carries. */
export const RECORDER_TEXT = 'Recorded.';

type Json = Record<string, unknown>;

/** The dialect of a request path, or undefined for one the recorder does not serve. */
export function dialectOfPath(path: string): RecorderDialect | undefined {
  if (/\/messages(\/count_tokens)?$/.test(path)) return 'anthropic-messages';
  if (/\/responses(\/input_tokens)?$/.test(path)) return 'openai-responses';
  if (/\/chat\/completions$/.test(path)) return 'openai-chat';
  if (/\/models\/[^/]+:(streamGenerateContent|generateContent|countTokens)$/.test(path)) return 'gemini';
  return undefined;
}

function declaredToolNames(dialect: RecorderDialect, body: Json): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  const names: string[] = [];
  const collect = (tool: Json): void => {
    if (typeof tool.name === 'string') names.push(tool.name);
    const fn = tool.function as Json | undefined;
    if (fn !== undefined && typeof fn.name === 'string') names.push(fn.name);
    if (Array.isArray(tool.tools)) for (const inner of tool.tools as Json[]) collect(inner);
    if (Array.isArray(tool.functionDeclarations)) for (const inner of tool.functionDeclarations as Json[]) collect(inner);
  };
  for (const tool of tools) collect(tool);
  if (dialect === 'openai-responses' && Array.isArray(body.input)) {
    for (const item of body.input as Json[]) if (item.type === 'additional_tools' && Array.isArray(item.tools)) for (const tool of item.tools as Json[]) collect(tool);
  }
  return names;
}

const TOOL_RESULT_MARKERS = ['"tool_result"', '"function_call_output"', '"custom_tool_call_output"', '"role":"tool"', '"functionResponse"'];

function pickToolCall(dialect: RecorderDialect, body: Json, preferences: readonly RecorderToolChoice[]): RecorderToolChoice | undefined {
  if (preferences.length === 0) return undefined;
  const text = JSON.stringify(body);
  if (TOOL_RESULT_MARKERS.some((marker) => text.includes(marker))) return undefined;
  const declared = new Set(declaredToolNames(dialect, body));
  return preferences.find((preference) => declared.has(preference.name));
}

const sse = (events: readonly (readonly [string | undefined, unknown])[]): string =>
  events.map(([event, data]) => `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');

function anthropicAnswer(body: Json, path: string, call: RecorderToolChoice | undefined): RecorderAnswer {
  if (path.endsWith('/count_tokens')) return { status: 200, contentType: 'application/json', body: JSON.stringify({ input_tokens: 12 }) };
  const model = typeof body.model === 'string' ? body.model : 'recorded-model';
  const usage = { input_tokens: 12, output_tokens: 3 };
  const content = call === undefined ? [{ type: 'text', text: RECORDER_TEXT }] : [{ type: 'tool_use', id: 'toolu_recorded_1', name: call.name, input: call.arguments }];
  const stopReason = call === undefined ? 'end_turn' : 'tool_use';
  if (body.stream !== true) {
    return { status: 200, contentType: 'application/json', body: JSON.stringify({ id: 'msg_recorded', type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage }) };
  }
  const block =
    call === undefined
      ? [
          ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
          ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: RECORDER_TEXT } }],
        ]
      : [
          ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_recorded_1', name: call.name, input: {} } }],
          ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.arguments) } }],
        ];
  return {
    status: 200,
    contentType: 'text/event-stream',
    body: sse([
      ['message_start', { type: 'message_start', message: { id: 'msg_recorded', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } }}],
      ...(block as [string, unknown][]),
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 3 } }],
      ['message_stop', { type: 'message_stop' }],
    ]),
  };
}

function responsesAnswer(body: Json, path: string, call: RecorderToolChoice | undefined): RecorderAnswer {
  if (path.endsWith('/input_tokens')) return { status: 200, contentType: 'application/json', body: JSON.stringify({ object: 'response.input_tokens', input_tokens: 12 }) };
  const model = typeof body.model === 'string' ? body.model : 'recorded-model';
  const item =
    call === undefined
      ? { type: 'message', id: 'msg_recorded', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: RECORDER_TEXT, annotations: [] }] }
      : call.input !== undefined
        ? { type: 'custom_tool_call', id: 'ctc_recorded', status: 'completed', call_id: 'call_recorded_1', name: call.name, input: call.input }
        : { type: 'function_call', id: 'fc_recorded', status: 'completed', call_id: 'call_recorded_1', name: call.name, arguments: JSON.stringify(call.arguments) };
  const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  const response = (status: string, output: unknown[]): Json => ({ id: 'resp_recorded', object: 'response', created_at: 1_764_633_600, status, model, output, ...(status === 'completed' ? { usage } : {}) });
  if (body.stream !== true) return { status: 200, contentType: 'application/json', body: JSON.stringify(response('completed', [item])) };
  const itemEvents: [string, unknown][] =
    call === undefined
      ? [
          ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } }],
          ['response.content_part.added', { type: 'response.content_part.added', item_id: 'msg_recorded', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }],
          ['response.output_text.delta', { type: 'response.output_text.delta', item_id: 'msg_recorded', output_index: 0, content_index: 0, delta: RECORDER_TEXT }],
          ['response.output_text.done', { type: 'response.output_text.done', item_id: 'msg_recorded', output_index: 0, content_index: 0, text: RECORDER_TEXT }],
          ['response.content_part.done', { type: 'response.content_part.done', item_id: 'msg_recorded', output_index: 0, content_index: 0, part: { type: 'output_text', text: RECORDER_TEXT, annotations: [] } }],
          ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
        ]
      : call.input !== undefined
        ? [
            ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', input: '' } }],
            ['response.custom_tool_call_input.delta', { type: 'response.custom_tool_call_input.delta', item_id: 'ctc_recorded', output_index: 0, delta: call.input }],
            ['response.custom_tool_call_input.done', { type: 'response.custom_tool_call_input.done', item_id: 'ctc_recorded', output_index: 0, input: call.input }],
            ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
          ]
        : [
            ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } }],
            ['response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta', item_id: 'fc_recorded', output_index: 0, delta: JSON.stringify(call.arguments) }],
            ['response.function_call_arguments.done', { type: 'response.function_call_arguments.done', item_id: 'fc_recorded', output_index: 0, arguments: JSON.stringify(call.arguments) }],
            ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
          ];
  const events: [string, unknown][] = [
    ['response.created', { type: 'response.created', sequence_number: 0, response: response('in_progress', []) }],
    ['response.in_progress', { type: 'response.in_progress', sequence_number: 1, response: response('in_progress', []) }],
    ...itemEvents,
    ['response.completed', { type: 'response.completed', response: response('completed', [item]) }],
  ];
  return { status: 200, contentType: 'text/event-stream', body: sse(events.map(([name, data], index) => [name, { ...(data as Json), sequence_number: index }])) };
}

function chatAnswer(body: Json, call: RecorderToolChoice | undefined): RecorderAnswer {
  const model = typeof body.model === 'string' ? body.model : 'recorded-model';
  const usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
  const toolCall = call === undefined ? undefined : { id: 'call_recorded_1', type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } };
  const finish = call === undefined ? 'stop' : 'tool_calls';
  if (body.stream !== true) {
    const message = toolCall === undefined ? { role: 'assistant', content: RECORDER_TEXT } : { role: 'assistant', content: null, tool_calls: [toolCall] };
    return { status: 200, contentType: 'application/json', body: JSON.stringify({ id: 'chatcmpl-recorded', object: 'chat.completion', created: 1_764_633_600, model, choices: [{ index: 0, message, finish_reason: finish }], usage }) };
  }
  const chunk = (delta: Json, finishReason: string | null, extra: Json = {}): Json => ({ id: 'chatcmpl-recorded', object: 'chat.completion.chunk', created: 1_764_633_600, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra });
  const chunks: Json[] = [chunk({ role: 'assistant', content: '' }, null)];
  if (toolCall === undefined) chunks.push(chunk({ content: RECORDER_TEXT }, null));
  else chunks.push(chunk({ tool_calls: [{ index: 0, ...toolCall }] }, null));
  chunks.push(chunk({}, finish));
  chunks.push({ id: 'chatcmpl-recorded', object: 'chat.completion.chunk', created: 1_764_633_600, model, choices: [], usage });
  return { status: 200, contentType: 'text/event-stream', body: sse([...chunks.map((data) => [undefined, data] as const), [undefined, '[DONE]']]) };
}

/** A smallest value of a JSON schema (Gemini's upper-case type names included), for clients that ask for JSON. */
export function exampleOfSchema(schema: unknown): unknown {
  const node = typeof schema === 'object' && schema !== null ? (schema as Json) : {};
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const type = String(Array.isArray(node.type) ? node.type[0] : (node.type ?? 'object')).toLowerCase();
  switch (type) {
    case 'object': {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, exampleOfSchema(inner)]));
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    default:
      return RECORDER_TEXT;
  }
}

function geminiAnswer(body: Json, path: string, call: RecorderToolChoice | undefined): RecorderAnswer {
  if (path.endsWith(':countTokens')) return { status: 200, contentType: 'application/json', body: JSON.stringify({ totalTokens: 12 }) };
  const config = (body.generationConfig ?? {}) as Json;
  const schema = config.responseJsonSchema ?? config.responseSchema;
  const text = config.responseMimeType === 'application/json' ? JSON.stringify(exampleOfSchema(schema)) : RECORDER_TEXT;
  const parts = call === undefined ? [{ text }] : [{ functionCall: { name: call.name, args: call.arguments } }];
  const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 3, totalTokenCount: 15 }, modelVersion: 'recorded-model' };
  if (path.endsWith(':streamGenerateContent')) return { status: 200, contentType: 'text/event-stream', body: sse([[undefined, chunk]]) };
  return { status: 200, contentType: 'application/json', body: JSON.stringify(chunk) };
}

/** The answer to one request; `undefined` dialect gets a 404 in a neutral JSON shape. */
export function answerRecordedRequest(method: string, path: string, body: unknown, preferences: readonly RecorderToolChoice[]): RecorderAnswer {
  if (method === 'GET' && /\/models$/.test(path)) return { status: 200, contentType: 'application/json', body: JSON.stringify({ object: 'list', data: [], models: [] }) };
  const dialect = dialectOfPath(path);
  const json = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Json) : {};
  if (method !== 'POST' || dialect === undefined) return { status: 404, contentType: 'application/json', body: JSON.stringify({ error: { message: 'not recorded here', type: 'not_found' } }) };
  const call = pickToolCall(dialect, json, preferences);
  switch (dialect) {
    case 'anthropic-messages':
      return anthropicAnswer(json, path, call);
    case 'openai-responses':
      return responsesAnswer(json, path, call);
    case 'openai-chat':
      return chatAnswer(json, call);
    case 'gemini':
      return geminiAnswer(json, path, call);
    default: {
      const exhaustive: never = dialect;
      return exhaustive;
    }
  }
}
