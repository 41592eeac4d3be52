/**
 * Two made-up families for testing the conformance harness itself: a stream-capable chat dialect whose bodies are
 * whole JSON documents (`{ "text", "usage" }`, streams as `{ "deltas": [...], "usage" }`) and an async job dialect
 * with `get` only. Options plant the defects the harness must catch.
 */
import {
  isProviderTransportFailureV1,
  type AdapterStreamPartV1,
  type ProtocolCapabilityV2,
  type ProtocolFamily,
  type ProviderAdapterFactory,
  type ProviderAsyncJobAdapterFactory,
  type ProviderDispatchTargetV2,
  type TaskEnvelopeV4,
} from '@tokenforge/model-protocol';
import { mapHttpStatusToFailure, readJsonBody } from '../../codec-kit/index.js';
import type { ProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';

export interface ExampleChatOptions {
  readonly protocolFamily?: ProtocolFamily;
  /** Never read or release the response body. */
  readonly leakBody?: boolean;
  /** Extra request headers (to plant a credential header). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
}

function promptOf(task: TaskEnvelopeV4): string {
  if (task.kind === 'chat') {
    return task.messages
      .flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')))
      .join('\n');
  }
  return 'prompt' in task && typeof task.prompt === 'string' ? task.prompt : '';
}

export function createExampleChatFactory(options: ExampleChatOptions = {}): ProviderAdapterFactory {
  const protocolFamily = options.protocolFamily ?? 'example-chat/v1';
  return {
    protocolFamily,
    createAdapter: () => ({
      async execute({ task, target, transport, signal }) {
        const stream = task.kind === 'chat' && task.stream;
        const response = await transport.send({
          method: 'POST',
          path: '/v1/example/chat',
          headers: { 'content-type': 'application/json', ...options.extraHeaders },
          body: { type: 'json', value: { model: target.providerModel, prompt: promptOf(task), stream } },
          signal,
        });
        if (options.leakBody === true) {
          return {
            kind: 'response',
            acceptance: { state: 'accepted' },
            responseMetadata: {},
            terminal: { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } },
          };
        }
        const body = (await readJsonBody(response.body)) as { text?: string; deltas?: string[]; usage?: { input: number; output: number } };
        const usage = body.usage === undefined ? undefined : { inputTokens: body.usage.input, outputTokens: body.usage.output };
        const responseMetadata = response.headers['x-request-id'] === undefined ? {} : { providerRequestId: response.headers['x-request-id'] };
        if (response.status >= 400) {
          const failure = mapHttpStatusToFailure(response.status);
          return {
            kind: 'response',
            acceptance: { state: 'not-accepted' },
            responseMetadata,
            terminal: { status: 'failed', failure: { code: failure.code, retryable: failure.retryable } },
          };
        }
        if (!stream) {
          return {
            kind: 'response',
            acceptance: { state: 'accepted' },
            responseMetadata,
            terminal: {
              status: 'completed',
              result: { kind: 'chat', content: [{ type: 'text', text: body.text ?? '' }] },
              finishReason: { unified: 'stop', raw: 'done' },
              ...(usage === undefined ? {} : { usage }),
            },
          };
        }
        const deltas = body.deltas ?? [];
        async function* parts(): AsyncGenerator<AdapterStreamPartV1> {
          yield { type: 'text-start', index: 0 };
          for (const delta of deltas) yield { type: 'text-delta', index: 0, delta };
          yield { type: 'text-end', index: 0 };
          if (usage !== undefined) yield { type: 'usage', usage };
          yield {
            type: 'terminal',
            outcome: {
              status: 'completed',
              result: { kind: 'chat', content: [{ type: 'text', text: deltas.join('') }] },
              finishReason: { unified: 'stop', raw: 'done' },
              ...(usage === undefined ? {} : { usage }),
            },
          };
        }
        return { kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata, parts: parts() };
      },
    }),
  };
}

export function createExampleVideoFactory(protocolFamily: ProtocolFamily = 'example-video/v1'): ProviderAsyncJobAdapterFactory {
  return {
    protocolFamily,
    jobOperations: ['get'],
    createAdapter: () => ({
      async start({ task, target, transport, signal }) {
        try {
          const response = await transport.send({
            method: 'POST',
            path: '/v1/example/jobs',
            headers: { 'content-type': 'application/json' },
            body: { type: 'json', value: { model: target.providerModel, prompt: promptOf(task) } },
            signal,
          });
          const body = (await readJsonBody(response.body)) as { id?: string };
          if (response.status < 300 && typeof body.id === 'string') {
            return { acceptance: { state: 'accepted' }, responseMetadata: {}, providerJobId: body.id };
          }
          const failure = mapHttpStatusToFailure(response.status);
          return {
            acceptance: { state: response.status >= 500 ? 'unknown' : 'not-accepted' },
            responseMetadata: {},
            failure: { code: failure.code, retryable: response.status >= 500 ? false : failure.retryable },
          };
        } catch (error) {
          const beforeSend = isProviderTransportFailureV1(error) && error.stage === 'before-send';
          return {
            acceptance: { state: beforeSend ? 'not-accepted' : 'unknown' },
            responseMetadata: {},
            failure: { code: 'network', retryable: beforeSend },
          };
        }
      },
      async get({ providerJobId, transport, signal }) {
        const response = await transport.send({
          method: 'GET',
          path: `/v1/example/jobs/${encodeURIComponent(providerJobId)}`,
          headers: {},
          body: { type: 'none' },
          signal,
        });
        const body = (await readJsonBody(response.body)) as { status?: string };
        if (response.status >= 400) {
          const failure = mapHttpStatusToFailure(response.status);
          return { status: 'failed', failure: { code: failure.code, retryable: failure.retryable } };
        }
        const state = body.status === 'done' ? 'succeeded' : body.status === 'running' ? 'running' : 'unknown';
        return { status: 'ok', value: { providerJobId, state } };
      },
    }),
  };
}

const bearer = { auth: { scheme: 'bearer' }, fixedHeaders: {} } as const;

export function exampleChatEntry(options: ExampleChatOptions = {}): ProtocolSuiteEntryV1 {
  return {
    protocolFamily: options.protocolFamily ?? 'example-chat/v1',
    execution: 'sync',
    adapterFactory: createExampleChatFactory(options),
    directHttp: false,
    transportMetadata: bearer,
  };
}

export function exampleVideoEntry(protocolFamily: ProtocolFamily = 'example-video/v1'): ProtocolSuiteEntryV1 {
  return {
    protocolFamily,
    execution: 'async',
    asyncAdapterFactory: createExampleVideoFactory(protocolFamily),
    directHttp: false,
    transportMetadata: bearer,
  };
}

export function exampleTarget(capability: ProtocolCapabilityV2): ProviderDispatchTargetV2 {
  return { provider: 'example-provider', providerModel: 'example-model', connectionRef: 'conn-example', capability };
}

export const chatCapability: ProtocolCapabilityV2 = {
  protocolFamily: 'example-chat/v1',
  executionMode: 'stream-capable',
  taskKinds: ['chat'],
};

export const videoCapability: ProtocolCapabilityV2 = {
  protocolFamily: 'example-video/v1',
  executionMode: 'async-job',
  taskKinds: ['video-generation'],
};
