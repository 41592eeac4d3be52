import { afterEach, describe, expect, it } from 'vitest';
import { RECORDER_TEXT } from './recorder-answers.js';
import { REDACTED, startRequestRecorder, type RequestRecorder } from './request-recorder.js';

let recorder: RequestRecorder | undefined;
afterEach(async () => {
  await recorder?.close();
  recorder = undefined;
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${recorder?.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('request recorder', () => {
  it('records method, path, query, redacted headers and body over a real socket', async () => {
    recorder = await startRequestRecorder();
    const response = await post('/v1beta/models/m:streamGenerateContent?alt=sse&key=secret-1', { contents: [] }, { 'x-goog-api-key': 'secret-2', 'x-custom': 'kept' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toContain(RECORDER_TEXT);
    const [recorded] = recorder.requests;
    expect(recorded).toMatchObject({ method: 'POST', path: '/v1beta/models/m:streamGenerateContent', query: { alt: 'sse', key: REDACTED }, body: { contents: [] } });
    expect(recorded?.headers['x-goog-api-key']).toBe(REDACTED);
    expect(recorded?.headers['x-custom']).toBe('kept');
    expect(JSON.stringify(recorder.requests)).not.toContain('secret');
  });

  it('answers a request that declares a preferred tool with a call, then text once the result is back (anthropic)', async () => {
    recorder = await startRequestRecorder();
    recorder.toolPreferences = [{ name: 'Glob', arguments: { pattern: '*' } }];
    const tools = [{ name: 'Read', input_schema: { type: 'object' } }, { name: 'Glob', input_schema: { type: 'object' } }];
    const first = await (await post('/v1/messages', { model: 'm', max_tokens: 10, stream: true, tools, messages: [{ role: 'user', content: 'hi' }] })).text();
    expect(first).toContain('"type":"tool_use"');
    expect(first).toContain('"partial_json":"{\\"pattern\\":\\"*\\"}"');
    expect(first).toContain('"stop_reason":"tool_use"');
    expect(first.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true);
    const messages = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Glob', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'none' }] }];
    const second = await (await post('/v1/messages', { model: 'm', max_tokens: 10, stream: true, tools, messages })).text();
    expect(second).toContain(RECORDER_TEXT);
    expect(second).toContain('"stop_reason":"end_turn"');
  });

  it('streams a chat tool call and ends with [DONE]; a custom tool becomes a custom_tool_call in responses', async () => {
    recorder = await startRequestRecorder();
    recorder.toolPreferences = [{ name: 'exec', arguments: {}, input: 'run()' }, { name: 'list', arguments: { path: '.' } }];
    const chat = await (await post('/v1/chat/completions', { model: 'm', stream: true, tools: [{ type: 'function', function: { name: 'list' } }], messages: [] })).text();
    expect(chat).toContain('"finish_reason":"tool_calls"');
    expect(chat.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const responses = await (await post('/v1/responses', { model: 'm', stream: true, input: [{ type: 'additional_tools', tools: [{ type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec' }] }] }] })).text();
    expect(responses).toContain('"type":"custom_tool_call"');
    expect(responses).toContain('event: response.completed');
  });

  it('answers a Gemini JSON-mode request with a value of the requested schema', async () => {
    recorder = await startRequestRecorder();
    const body = { contents: [], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'OBJECT', properties: { score: { type: 'INTEGER' }, why: { type: 'STRING' } } } } };
    const answer = (await (await post('/v1beta/models/m:generateContent', body)).json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(JSON.parse(answer.candidates[0]?.content.parts[0]?.text ?? '')).toEqual({ score: 1, why: RECORDER_TEXT });
  });

  it('answers unknown routes with 404', async () => {
    recorder = await startRequestRecorder();
    expect((await post('/v2/unknown', {})).status).toBe(404);
  });
});
