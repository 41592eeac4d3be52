import type {
  AdapterStreamPartV1,
  ProtocolFamily,
  ProviderAsyncJobAdapterFactory,
  ProviderAdapterFactory,
  ProviderTransport,
} from '@tokenforge/model-protocol';
import type { ProtocolEngineAdapterRegistryPortV1 } from '../contracts/v1/protocol-engine-contracts-v1.js';

/*
 * A tiny registry whose adapters really talk to the transport: they send a request and decode the response bytes
 * (JSON or NDJSON). Feeding two engines the same bytes must yield the same facts.
 */

export const BYTES_CHAT_FAMILY = 'bytes-chat/v1' as ProtocolFamily;
export const BYTES_JOBS_FAMILY = 'bytes-jobs/v1' as ProtocolFamily;

async function readText(transport: ProviderTransport, path: string, signal: AbortSignal): Promise<string> {
  const response = await transport.send({ method: 'POST', path, headers: {}, body: { type: 'none' }, signal });
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

export function createBytesRegistry(): ProtocolEngineAdapterRegistryPortV1 {
  const chat: ProviderAdapterFactory = {
    protocolFamily: BYTES_CHAT_FAMILY,
    createAdapter: () => ({
      async execute({ task, transport, signal }) {
        const stream = task.kind === 'chat' && task.stream;
        const text = await readText(transport, stream ? '/stream' : '/respond', signal);
        if (!stream) return { kind: 'response', ...(JSON.parse(text) as object) } as never;
        const lines = text.split('\n').filter((line) => line.length > 0);
        return {
          kind: 'stream',
          acceptance: { state: 'accepted' },
          responseMetadata: {},
          parts: (async function* parts() {
            for (const line of lines) yield JSON.parse(line) as AdapterStreamPartV1;
          })(),
        };
      },
    }),
  };
  const jobs: ProviderAsyncJobAdapterFactory = {
    protocolFamily: BYTES_JOBS_FAMILY,
    jobOperations: ['get', 'list'],
    createAdapter: () => ({
      start: async ({ transport, signal }) => JSON.parse(await readText(transport, '/start', signal)) as never,
      get: async ({ transport, signal }) => JSON.parse(await readText(transport, '/get', signal)) as never,
      list: async ({ transport, signal }) => JSON.parse(await readText(transport, '/list', signal)) as never,
    }),
  };
  return {
    listProtocolFamilies: () => [BYTES_JOBS_FAMILY, BYTES_CHAT_FAMILY],
    require: (family) => {
      if (family !== BYTES_CHAT_FAMILY) throw new Error('unknown family');
      return chat;
    },
    requireAsync: (family) => {
      if (family !== BYTES_JOBS_FAMILY) throw new Error('unknown family');
      return jobs;
    },
  };
}

/** A transport answering each path with fixed bytes, split into small chunks (splits fall inside UTF-8 sequences). */
export function createBytesTransport(bodies: Readonly<Record<string, string>>): ProviderTransport {
  const encoder = new TextEncoder();
  return {
    async send(request) {
      const bytes = encoder.encode(bodies[request.path] ?? '');
      return {
        status: 200,
        headers: {},
        body: (async function* body() {
          for (let offset = 0; offset < bytes.length; offset += 7) yield bytes.subarray(offset, offset + 7);
        })(),
      };
    },
  };
}
