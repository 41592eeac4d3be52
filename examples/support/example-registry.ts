/**
 * EXAMPLE ONLY: two tiny protocol families for the in-memory provider, and a registry that serves them.
 * Real hosts use the adapters of `@tokenforge/provider-adapters`; these exist to show the adapter contract.
 *   - `example-echo/v1`: sync and streaming chat;
 *   - `example-clips/v1`: an async job family (start, then get).
 */
import type {
  AdapterStreamPartV1,
  ProtocolFamily,
  ProviderAdapterFactory,
  ProviderAsyncJobAdapterFactory,
  ProviderTransportResponse,
  TaskEnvelopeV4,
} from '@tokenforge/model-protocol';
import type { ProtocolEngineAdapterRegistryPortV1 } from '@tokenforge/protocol-engine';

export const EXAMPLE_CHAT_FAMILY: ProtocolFamily = 'example-echo/v1';
export const EXAMPLE_JOBS_FAMILY: ProtocolFamily = 'example-clips/v1';

async function readAll(response: ProviderTransportResponse): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Splits a byte stream into lines without buffering the whole body. */
async function* lines(response: ProviderTransportResponse): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of response.body) {
    pending += decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      yield pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  pending += decoder.decode();
  if (pending.length > 0) yield pending;
}

function lastUserText(task: TaskEnvelopeV4): string {
  if (task.kind !== 'chat') throw new Error('the example echo family only runs chat tasks');
  const last = task.messages[task.messages.length - 1];
  return (last?.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

const echoFactory: ProviderAdapterFactory = {
  protocolFamily: EXAMPLE_CHAT_FAMILY,
  createAdapter: () => ({
    async execute({ task, transport, signal }) {
      const stream = task.kind === 'chat' && task.stream;
      const response = await transport.send({
        method: 'POST',
        path: '/v1/echo',
        ...(stream ? { query: { stream: '1' } } : {}),
        headers: { 'content-type': 'application/json' },
        body: { type: 'json', value: { text: lastUserText(task) } },
        signal,
      });
      const responseMetadata = { providerRequestId: response.headers['x-request-id'] ?? 'unknown' };
      if (response.status !== 200) {
        await readAll(response);
        return {
          kind: 'response',
          acceptance: { state: 'not-accepted' },
          responseMetadata,
          terminal: { status: 'failed', failure: { code: 'provider-error', retryable: false } },
        };
      }
      if (!stream) {
        const body = JSON.parse(await readAll(response)) as { reply: string; tokensIn: number; tokensOut: number };
        return {
          kind: 'response',
          acceptance: { state: 'accepted' },
          responseMetadata,
          terminal: {
            status: 'completed',
            result: { kind: 'chat', content: [{ type: 'text', text: body.reply }] },
            finishReason: { unified: 'stop', raw: 'done' },
            usage: { inputTokens: body.tokensIn, outputTokens: body.tokensOut, totalTokens: body.tokensIn + body.tokensOut },
          },
        };
      }
      async function* parts(): AsyncGenerator<AdapterStreamPartV1> {
        const pieces: string[] = [];
        yield { type: 'text-start', index: 0 };
        for await (const line of lines(response)) {
          const frame = JSON.parse(line) as { piece?: string; done?: boolean; tokensIn?: number; tokensOut?: number };
          if (frame.piece !== undefined) {
            pieces.push(frame.piece);
            yield { type: 'text-delta', index: 0, delta: frame.piece };
          } else if (frame.done === true && frame.tokensIn !== undefined && frame.tokensOut !== undefined) {
            const usage = { inputTokens: frame.tokensIn, outputTokens: frame.tokensOut, totalTokens: frame.tokensIn + frame.tokensOut };
            yield { type: 'text-end', index: 0 };
            yield { type: 'usage', usage };
            yield {
              type: 'terminal',
              outcome: {
                status: 'completed',
                result: { kind: 'chat', content: [{ type: 'text', text: pieces.join('') }] },
                finishReason: { unified: 'stop', raw: 'done' },
                usage,
              },
            };
            return;
          }
        }
        yield { type: 'terminal', outcome: { status: 'failed', failure: { code: 'truncated-stream', retryable: true } } };
      }
      return { kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata, parts: parts() };
    },
  }),
};

const clipsFactory: ProviderAsyncJobAdapterFactory = {
  protocolFamily: EXAMPLE_JOBS_FAMILY,
  jobOperations: ['get'],
  createAdapter: () => ({
    async start({ task, transport, signal }) {
      const prompt = task.kind === 'video-generation' ? (task.prompt ?? '') : '';
      const response = await transport.send({
        method: 'POST',
        path: '/v1/clips',
        headers: { 'content-type': 'application/json' },
        body: { type: 'json', value: { prompt } },
        signal,
      });
      const responseMetadata = { providerRequestId: response.headers['x-request-id'] ?? 'unknown' };
      const body = JSON.parse(await readAll(response)) as { clipId?: string };
      if (response.status !== 202 || body.clipId === undefined) {
        return { acceptance: { state: 'unknown' }, responseMetadata, failure: { code: 'provider-error', retryable: false } };
      }
      return { acceptance: { state: 'accepted' }, responseMetadata, providerJobId: body.clipId };
    },
    async get({ providerJobId, transport, signal }) {
      const response = await transport.send({
        method: 'GET',
        path: `/v1/clips/${encodeURIComponent(providerJobId)}`,
        headers: {},
        body: { type: 'none' },
        signal,
      });
      const body = JSON.parse(await readAll(response)) as { clipId: string; status: string; url?: string };
      if (response.status !== 200) return { status: 'failed', failure: { code: 'not-found', retryable: false } };
      return {
        status: 'ok',
        value: {
          providerJobId: body.clipId,
          state: body.status === 'ready' ? 'succeeded' : 'running',
          rawState: body.status,
          ...(body.url === undefined ? {} : { media: [{ type: 'video', url: body.url }] }),
        },
      };
    },
  }),
};

/** The example registry: the engine snapshots `listProtocolFamilies()` once and dispatches only to these. */
export function createExampleRegistry(): ProtocolEngineAdapterRegistryPortV1 {
  return {
    listProtocolFamilies: () => [EXAMPLE_CHAT_FAMILY, EXAMPLE_JOBS_FAMILY],
    require: (family) => {
      if (family !== EXAMPLE_CHAT_FAMILY) throw new Error('the example registry has no sync factory for this family');
      return echoFactory;
    },
    requireAsync: (family) => {
      if (family !== EXAMPLE_JOBS_FAMILY) throw new Error('the example registry has no async factory for this family');
      return clipsFactory;
    },
  };
}
