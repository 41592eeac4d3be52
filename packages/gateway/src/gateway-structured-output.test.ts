import Anthropic from '@anthropic-ai/sdk';
import { jsonSchemaOutputFormat } from '@anthropic-ai/sdk/helpers/json-schema';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { makeParseableResponseFormat } from 'openai/lib/parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';

/*
 * Structured output over real sockets: each client dialect's official SDK asks for JSON matching a schema with its
 * own structured-output helper, against the embedded targets of each strategy (native, json-object, forced-tool) over
 * the simulator's `structured` scenario, sync and stream; the `-bad` targets answer JSON that breaks the schema and
 * the client gets its dialect's error (in-stream at the end of a stream).
 */

let gateway: RunningGateway;
const log = createLogCapture();

beforeAll(async () => {
  gateway = await startGateway({ logger: log });
});
afterAll(async () => {
  await gateway.close();
});

const openAi = (): OpenAI => new OpenAI({ apiKey: gateway.clientKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const anthropic = (): Anthropic => new Anthropic({ apiKey: gateway.clientKey, baseURL: gateway.url, maxRetries: 0 });
const gemini = (): GoogleGenAI => new GoogleGenAI({ apiKey: gateway.clientKey ?? '', httpOptions: { baseUrl: gateway.url, retryOptions: { attempts: 1 } } });

const person = z.strictObject({ name: z.string(), age: z.int().min(3) });
const schema = z.toJSONSchema(person) as Record<string, unknown> & { type: 'object' };
const expected = { name: '*', age: 3 };
const KINDS = ['native', 'json-object', 'forced-tool'] as const;
const messages = [{ role: 'user' as const, content: 'Who is it?' }];
const chatFormat = () => makeParseableResponseFormat({ type: 'json_schema', json_schema: { name: 'person', schema, strict: true } }, (content) => person.parse(JSON.parse(content)));

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe.each(KINDS)('a %s target', (kind) => {
  const model = `sim-structured-${kind}`;
  const bad = `${model}-bad`;

  it('answers an OpenAI chat.completions.parse call with the parsed object and says how in a header', async () => {
    const { data, response } = await openAi().chat.completions.parse({ model, messages, response_format: chatFormat() }).withResponse();
    expect(data.choices[0]?.message.parsed).toEqual(expected);
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(data.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(response.headers.get('x-tokenforge-structured-output')).toBe(kind === 'native' ? 'native' : kind);
  });

  it('streams to an OpenAI chat client as content deltas', async () => {
    const stream = openAi().chat.completions.stream({ model, messages, response_format: chatFormat() });
    let deltas = 0;
    stream.on('content.delta', () => (deltas += 1));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.parsed).toEqual(expected);
    expect(deltas).toBeGreaterThan(1);
  });

  it('answers OpenAI responses.parse with output_parsed, sync and stream', async () => {
    const text = { format: { type: 'json_schema' as const, name: 'person', schema, strict: true } };
    const parsed = await openAi().responses.parse({ model, input: 'Who is it?', text });
    expect(parsed.output_parsed).toEqual(expected);
    const stream = openAi().responses.stream({ model, input: 'Who is it?', text });
    const final = await stream.finalResponse();
    const streamedText = final.output.flatMap((item) => (item.type === 'message' ? item.content : [])).map((part) => (part.type === 'output_text' ? part.text : '')).join('');
    expect(JSON.parse(streamedText)).toEqual(expected);
  });

  it('answers Anthropic messages.parse with parsed_output, sync and stream', async () => {
    // transform: false keeps `minimum`, which the SDK would strip for Anthropic's own schema subset.
    const output_config = { format: jsonSchemaOutputFormat(schema, { transform: false }) };
    const parsed = await anthropic().messages.parse({ model, max_tokens: 200, messages, output_config });
    expect(parsed.parsed_output).toEqual(expected);
    expect(parsed.stop_reason).toBe('end_turn');
    const final = await anthropic().messages.stream({ model, max_tokens: 200, messages, output_config: { format: { type: 'json_schema', schema } } }).finalMessage();
    expect(final.content.map((block) => (block.type === 'text' ? block.text : '')).join('')).toBe(JSON.stringify(expected));
  });

  it('answers Gemini generateContent with responseJsonSchema, sync and stream', async () => {
    const config = { responseMimeType: 'application/json', responseJsonSchema: schema };
    const answer = await gemini().models.generateContent({ model, contents: 'Who is it?', config });
    expect(JSON.parse(answer.text ?? '')).toEqual(expected);
    let text = '';
    for await (const chunk of await gemini().models.generateContentStream({ model, contents: 'Who is it?', config })) text += chunk.text ?? '';
    expect(JSON.parse(text)).toEqual(expected);
  });

  it('gives each dialect its error when the answer breaks the schema, sync and at the end of a stream', async () => {
    const chatSync = await rejection(() => openAi().chat.completions.parse({ model: bad, messages, response_format: chatFormat() }));
    expect(chatSync).toBeInstanceOf(OpenAI.APIError);
    expect((chatSync as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((chatSync as InstanceType<typeof OpenAI.APIError>).code).toBe('output_schema_mismatch');
    const chatStream = await rejection(() => openAi().chat.completions.stream({ model: bad, messages, response_format: chatFormat() }).finalChatCompletion());
    expect(chatStream).toBeInstanceOf(OpenAI.APIError);
    const anthropicSync = await rejection(() => anthropic().messages.create({ model: bad, max_tokens: 200, messages, output_config: { format: { type: 'json_schema', schema } } }));
    expect(anthropicSync).toBeInstanceOf(Anthropic.APIError);
    expect((anthropicSync as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    const anthropicStream = await rejection(() => anthropic().messages.stream({ model: bad, max_tokens: 200, messages, output_config: { format: { type: 'json_schema', schema } } }).finalMessage());
    expect(anthropicStream).toBeInstanceOf(Anthropic.APIError);
    const config = { responseMimeType: 'application/json', responseJsonSchema: schema };
    expect(await rejection(() => gemini().models.generateContent({ model: bad, contents: 'Who is it?', config }))).toMatchObject({ status: 500 });
    const geminiStream = await rejection(async () => {
      for await (const _chunk of await gemini().models.generateContentStream({ model: bad, contents: 'Who is it?', config })) void _chunk;
    });
    expect(geminiStream).toBeInstanceOf(Error);
    const responsesSync = await rejection(() => openAi().responses.create({ model: bad, input: 'Who is it?', text: { format: { type: 'json_schema', name: 'person', schema } } }));
    expect((responsesSync as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });
});

describe('structured-output refusals', () => {
  it('refuses a forced-tool schema beside the client\'s own tools, nothing sent', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    const refused = await rejection(() => openAi().chat.completions.create({ model: 'sim-structured-forced-tool', messages, tools, response_format: chatFormat() }));
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    const allowed = await openAi().chat.completions.create({ model: 'sim-structured-json-object', messages, tools, response_format: chatFormat() });
    expect(allowed.choices[0]?.message.content).toBe(JSON.stringify(expected));
  });

  it('refuses a client tool with the reserved name', async () => {
    const tools = [{ name: 'tokenforge_structured_output', input_schema: { type: 'object' as const } }];
    const refused = await rejection(() => anthropic().messages.create({ model: 'sim-anthropic', max_tokens: 50, messages, tools }));
    expect((refused as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
  });
});
