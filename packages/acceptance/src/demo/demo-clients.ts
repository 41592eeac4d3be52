import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';

/** The callers of the demo, all pointed at one gateway with its client key: the official SDKs and plain fetch. */
export interface DemoClients {
  readonly openai: OpenAI;
  readonly anthropic: Anthropic;
  readonly gemini: GoogleGenAI;
  /** `fetch` of a gateway path with the client key as a bearer token; JSON in, status and parsed JSON out. */
  fetchJson(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; json: unknown }>;
}

/** Raised by a demo call whose answer is not what the caller asked for. */
export class DemoCheckFailure extends Error {}

export function demoCheck(condition: boolean, what: string): asserts condition {
  if (!condition) throw new DemoCheckFailure(what);
}

/** SDK clients the way an application configures them, minus retries (a failed cell must show, not be retried). */
export function createDemoClients(gatewayUrl: string, clientKey: string): DemoClients {
  return {
    openai: new OpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: clientKey, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: gatewayUrl, apiKey: clientKey, maxRetries: 0 }),
    gemini: new GoogleGenAI({ apiKey: clientKey, httpOptions: { baseUrl: gatewayUrl, retryOptions: { attempts: 1 } } }),
    async fetchJson(method, path, body) {
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${clientKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text.length === 0 ? undefined : JSON.parse(text);
      } catch {
        throw new DemoCheckFailure(`HTTP ${response.status} with a body that is not JSON`);
      }
      return { status: response.status, json };
    },
  };
}

/** A short description of a failed call: the HTTP status and error class an SDK reports, never a message body. */
export function describeDemoError(error: unknown): string {
  if (error instanceof DemoCheckFailure) return error.message;
  if (typeof error === 'object' && error !== null) {
    const status = (error as { status?: unknown }).status;
    const name = error instanceof Error ? error.name : 'error';
    if (typeof status === 'number') return `HTTP ${status} (${name})`;
    if (error instanceof Error) return `unexpected ${name}`;
  }
  return `unexpected ${typeof error}`;
}

function clip(text: string): string {
  return `"${text.length > 40 ? `${text.slice(0, 40)}...` : text}"`;
}

const PROMPT = 'Say hello through the gateway.';

// ------------------------------------------------------------------ chat dialects, each through its own SDK

export async function openAiChatSync(clients: DemoClients, model: string): Promise<string> {
  const completion = await clients.openai.chat.completions.create({ model, messages: [{ role: 'user', content: PROMPT }], max_tokens: 256 });
  const choice = completion.choices[0];
  demoCheck(typeof choice?.message.content === 'string' && choice.message.content.length > 0, 'no answer text');
  return `${clip(choice.message.content)} (finish ${choice.finish_reason}, ${completion.usage?.total_tokens ?? '?'} tokens)`;
}

export async function openAiChatStream(clients: DemoClients, model: string): Promise<string> {
  const stream = await clients.openai.chat.completions.create({
    model,
    messages: [{ role: 'user', content: PROMPT }],
    max_tokens: 256,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let chunks = 0;
  let finish: string | null | undefined;
  for await (const chunk of stream) {
    chunks += 1;
    text += chunk.choices[0]?.delta.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  demoCheck(text.length > 0 && finish !== undefined && finish !== null, 'the stream ended without text or a finish reason');
  return `${chunks} chunks, ${clip(text)} (finish ${finish})`;
}

export async function openAiResponsesSync(clients: DemoClients, model: string): Promise<string> {
  const response = await clients.openai.responses.create({ model, input: PROMPT, max_output_tokens: 256 });
  demoCheck(response.status === 'completed' && response.output_text.length > 0, `response ${response.status ?? 'without status'}`);
  return `${clip(response.output_text)} (${response.usage?.total_tokens ?? '?'} tokens)`;
}

export async function openAiResponsesStream(clients: DemoClients, model: string): Promise<string> {
  const stream = await clients.openai.responses.create({ model, input: PROMPT, max_output_tokens: 256, stream: true });
  let events = 0;
  let text = '';
  let completed = false;
  for await (const event of stream) {
    events += 1;
    if (event.type === 'response.output_text.delta') text += event.delta;
    if (event.type === 'response.completed') completed = true;
  }
  demoCheck(completed && text.length > 0, 'the stream ended without response.completed or text');
  return `${events} events, ${clip(text)}`;
}

export async function anthropicSync(clients: DemoClients, model: string): Promise<string> {
  const message = await clients.anthropic.messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] });
  const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  demoCheck(text.length > 0, 'no answer text');
  return `${clip(text)} (stop ${message.stop_reason}, ${message.usage.output_tokens} out)`;
}

export async function anthropicStream(clients: DemoClients, model: string): Promise<string> {
  const stream = clients.anthropic.messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] });
  let events = 0;
  stream.on('streamEvent', () => {
    events += 1;
  });
  const message = await stream.finalMessage();
  const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  demoCheck(text.length > 0 && message.stop_reason !== null, 'the stream ended without text or a stop reason');
  return `${events} events, ${clip(text)} (stop ${message.stop_reason})`;
}

export async function geminiSync(clients: DemoClients, model: string): Promise<string> {
  const response = await clients.gemini.models.generateContent({ model, contents: PROMPT, config: { maxOutputTokens: 256 } });
  const text = response.text ?? '';
  demoCheck(text.length > 0, 'no answer text');
  return `${clip(text)} (finish ${response.candidates?.[0]?.finishReason ?? '?'})`;
}

export async function geminiStream(clients: DemoClients, model: string): Promise<string> {
  const stream = await clients.gemini.models.generateContentStream({ model, contents: PROMPT, config: { maxOutputTokens: 256 } });
  let chunks = 0;
  let text = '';
  let finish: string | undefined;
  for await (const chunk of stream) {
    chunks += 1;
    text += chunk.text ?? '';
    finish = chunk.candidates?.[0]?.finishReason ?? finish;
  }
  demoCheck(text.length > 0 && finish !== undefined, 'the stream ended without text or a finish reason');
  return `${chunks} chunks, ${clip(text)} (finish ${finish})`;
}

// ------------------------------------------------------------------ embeddings, images (OpenAI SDK), rerank (fetch)

export async function openAiEmbeddings(clients: DemoClients, model: string): Promise<string> {
  const result = await clients.openai.embeddings.create({ model, input: ['first document', 'second document'] });
  const dimensions = result.data[0]?.embedding.length ?? 0;
  demoCheck(result.data.length === 2 && dimensions > 0, 'expected two vectors');
  return `${result.data.length} vectors x ${dimensions} dimensions (SDK decoded base64)`;
}

export async function openAiImages(clients: DemoClients, model: string): Promise<string> {
  const result = await clients.openai.images.generate({ model, prompt: 'a lighthouse at dusk', size: '1024x1024' });
  const images = result.data ?? [];
  demoCheck(images.length > 0 && images.every((image) => image.url !== undefined || image.b64_json !== undefined), 'no image');
  return `${images.length} image(s)`;
}

export async function cohereRerank(clients: DemoClients, model: string): Promise<string> {
  const documents = ['Berlin is in Germany.', 'Paris is the capital of France.', 'Rome is old.'];
  const { status, json } = await clients.fetchJson('POST', '/v2/rerank', { model, query: 'capital of france', documents, top_n: 2 });
  demoCheck(status === 200, `HTTP ${status}`);
  const results = (json as { results?: { index?: unknown; relevance_score?: unknown }[] } | undefined)?.results ?? [];
  demoCheck(results.length === 2 && results.every((item) => typeof item.index === 'number' && typeof item.relevance_score === 'number'), 'expected two ranked results');
  return `${results.length} ranked, best index ${String(results[0]?.index)} (fetch POST /v2/rerank)`;
}
