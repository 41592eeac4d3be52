/**
 * A made-up suite for the replay tests (and, through the test-only module variable, the CLI process in the
 * end-to-end test). `example-chat/v1` is a chat dialect: request `{ model, prompt, stream }`, response
 * `{ text, usage? }`, stream lines `{ "delta" }` ending with `{ "done": true, "usage"? }`; a path ending `:stream`
 * asks for a stream. `example-video/v1` is an async dialect with get and list.
 */
import {
  CodecErrorV1,
  type AdapterStreamPartV1,
  type AdapterTerminalOutcome,
  type EgressCodecV1,
  type IngressCodecV1,
  type ProviderAdapterFactory,
  type ProviderAsyncJobAdapterFactory,
  type ProviderTransportResponse,
  type UsageV1,
} from '@tokenforge/model-protocol';
import { createTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';

const encoder = new TextEncoder();

async function bodyText(response: ProviderTransportResponse): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

function toUsage(value: unknown): UsageV1 | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as { input?: number; output?: number };
  return { ...(usage.input === undefined ? {} : { inputTokens: usage.input }), ...(usage.output === undefined ? {} : { outputTokens: usage.output }) };
}

function failedTerminal(status: number): AdapterTerminalOutcome {
  return status === 429
    ? { status: 'failed', failure: { code: 'rate-limited', retryable: true } }
    : { status: 'failed', failure: { code: 'provider-error', retryable: status >= 500 } };
}

const chatFactory: ProviderAdapterFactory = {
  protocolFamily: 'example-chat/v1',
  createAdapter: () => ({
    async execute({ task, target, transport, signal }) {
      const prompt = task.kind === 'chat' ? task.messages.flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : ''))).join('\n') : '';
      const stream = task.kind === 'chat' && task.stream;
      const response = await transport.send({
        method: 'POST',
        path: '/v1/chat',
        headers: { 'content-type': 'application/json' },
        body: { type: 'json', value: { model: target.providerModel, prompt, stream } },
        signal,
      });
      const text = await bodyText(response);
      const responseMetadata = response.headers['x-request-id'] === undefined ? {} : { providerRequestId: response.headers['x-request-id'] };
      if (response.status >= 400) return { kind: 'response', acceptance: { state: 'accepted' }, responseMetadata, terminal: failedTerminal(response.status) };
      if (!stream) {
        const body = JSON.parse(text) as { text: string; usage?: unknown };
        const usage = toUsage(body.usage);
        return {
          kind: 'response',
          acceptance: { state: 'accepted' },
          responseMetadata,
          terminal: {
            status: 'completed',
            result: { kind: 'chat', content: [{ type: 'text', text: body.text }] },
            finishReason: { unified: 'stop', raw: 'done' },
            ...(usage === undefined ? {} : { usage }),
          },
        };
      }
      const lines = text.split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as { delta?: unknown; done?: boolean; usage?: unknown });
      async function* parts(): AsyncGenerator<AdapterStreamPartV1> {
        let accumulated = '';
        yield { type: 'text-start', index: 0 };
        for (const line of lines) {
          if (line.done === true) {
            yield { type: 'text-end', index: 0 };
            const usage = toUsage(line.usage);
            if (usage !== undefined) yield { type: 'usage', usage };
            yield {
              type: 'terminal',
              outcome: {
                status: 'completed',
                result: { kind: 'chat', content: [{ type: 'text', text: accumulated }] },
                finishReason: { unified: 'stop', raw: 'done' },
                ...(usage === undefined ? {} : { usage }),
              },
            };
            return;
          }
          accumulated += String(line.delta);
          // A non-string delta goes out as is: the engine must refuse it (the replay engine-error test relies on it).
          yield { type: 'text-delta', index: 0, delta: line.delta as string };
        }
        yield { type: 'terminal', outcome: { status: 'failed', failure: { code: 'truncated-stream', retryable: true } } };
      }
      return { kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata, parts: parts() };
    },
  }),
};

const ingress: IngressCodecV1 = {
  protocolFamily: 'example-chat/v1',
  decodeRequest(request) {
    let body: { model?: unknown; prompt?: unknown };
    try {
      body = JSON.parse(new TextDecoder().decode(request.body)) as typeof body;
    } catch {
      throw new CodecErrorV1('malformed-json', 'the request is not JSON');
    }
    if (typeof body.prompt !== 'string') throw new CodecErrorV1('invalid-request', 'prompt must be a string', { path: 'prompt' });
    return {
      modelLabel: typeof body.model === 'string' ? body.model : 'unnamed',
      task: { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: body.prompt }] }], stream: request.path.endsWith(':stream') },
    };
  },
};

const json = (status: number, value: unknown) => ({ status, headers: { 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(value)) });

const egress: EgressCodecV1 = {
  protocolFamily: 'example-chat/v1',
  encodeResponse(outcome, context) {
    if (outcome.status !== 'completed' || outcome.result.kind !== 'chat') return json(502, { error: outcome.status === 'failed' ? outcome.failure.code : 'cancelled' });
    const text = outcome.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return json(200, { id: context.responseId, model: context.modelLabel, text });
  },
  createStreamEncoder: () => ({
    contentType: 'text/event-stream',
    encodeEvent: (event) => (event.type === 'text-delta' ? encoder.encode(`data: ${JSON.stringify({ delta: event.delta })}\n\n`) : new Uint8Array()),
    encodeTerminal: (outcome) => encoder.encode(`data: ${JSON.stringify({ finish: outcome.status })}\n\n`),
  }),
  encodeError: (failure) => json(500, { error: failure.source === 'provider' ? failure.failure.code : failure.code }),
};

const videoFactory: ProviderAsyncJobAdapterFactory = {
  protocolFamily: 'example-video/v1',
  jobOperations: ['get', 'list'],
  createAdapter: () => ({
    async start({ target, transport, signal }) {
      const response = await transport.send({
        method: 'POST',
        path: '/v1/jobs',
        headers: { 'content-type': 'application/json' },
        body: { type: 'json', value: { model: target.providerModel } },
        signal,
      });
      const body = JSON.parse(await bodyText(response)) as { id?: string };
      if (response.status < 300 && typeof body.id === 'string') return { acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: body.id };
      return { acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code: 'invalid-request', retryable: false } };
    },
    async get({ providerJobId, transport, signal }) {
      const response = await transport.send({ method: 'GET', path: `/v1/jobs/${providerJobId}`, headers: {}, body: { type: 'none' }, signal });
      const body = JSON.parse(await bodyText(response)) as { status?: string };
      return { status: 'ok', value: { providerJobId, state: body.status === 'done' ? 'succeeded' : 'running' } };
    },
    async list({ transport, signal }) {
      const response = await transport.send({ method: 'GET', path: '/v1/jobs', query: { page: '1' }, headers: {}, body: { type: 'none' }, signal });
      const body = JSON.parse(await bodyText(response)) as { ids?: string[] };
      const items = (body.ids ?? []).map((providerJobId) => ({ providerJobId, state: 'queued' as const }));
      return { status: 'ok', value: { items, total: items.length, totalKind: 'exact' } };
    },
  }),
};

export const suite = createTokenForgeProtocolSuiteV1({
  entries: [
    {
      protocolFamily: 'example-chat/v1',
      execution: 'sync',
      adapterFactory: chatFactory,
      directHttp: true,
      codecs: { ingress, egress },
      transportMetadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
    },
    {
      protocolFamily: 'example-video/v1',
      execution: 'async',
      asyncAdapterFactory: videoFactory,
      directHttp: false,
      transportMetadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
    },
  ],
});
