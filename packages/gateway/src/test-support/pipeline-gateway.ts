import { createOpenAiChatSuiteEntryV1, createTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createGatewayApp } from '../create-gateway-app.js';
import { clientKeyDigest } from '../http/client-key-digest.js';
import { ConcurrencyLimiter } from '../operations/concurrency-limiter.js';
import { createOperatorLogger } from '../operations/operator-log.js';
import { DEFAULT_GATEWAY_LIMITS, type GatewayRuntime } from '../runtime/gateway-runtime.js';
import type { ResolvedCatalogue, RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { createLogCapture, type LogCapture } from './log-capture.js';

/*
 * A gateway without sockets: the real app, suite and stages over an engine that answers every chat request with
 * "Hi" (and counts its calls), one model `m`, one client key, one concurrency slot and a 1000-byte body limit.
 */

export const PIPELINE_CLIENT_KEY = 'tfg-pipeline-key-0123456789';
const suite = createTokenForgeProtocolSuiteV1({ entries: [createOpenAiChatSuiteEntryV1()] });
const target = {
  ref: 'm#0',
  provider: 'sim',
  family: 'openai-chat/v1',
  capability: { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'] },
  binding: {},
  execution: 'sync',
  passRateLimitHeaders: false,
} as unknown as RuntimeTarget;
const catalogue: ResolvedCatalogue = {
  models: new Map([['m', { name: 'm', taskKind: 'chat', targets: [target] }]]),
  targets: new Map([['m#0', target]]),
  clientKeys: [{ id: 'main', key: new TextEncoder().encode(PIPELINE_CLIENT_KEY), digest: clientKeyDigest(PIPELINE_CLIENT_KEY) }],
  signingKey: undefined,
  warnings: [],
  close: async () => {},
};

/** A socket-free gateway app over a scripted engine. */
export function pipelineGateway(limits: Partial<GatewayRuntime['limits']> = {}): { app: ReturnType<typeof createGatewayApp>; runtime: GatewayRuntime; log: LogCapture; executed: number[] } {
  const log = createLogCapture();
  const executed: number[] = [];
  const engine = {
    execute: async () => {
      executed.push(1);
      return {
        kind: 'response',
        acceptance: { state: 'accepted' },
        responseMetadata: {},
        terminal: { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'Hi' }] }, finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
      };
    },
  } as unknown as ProtocolEngineV1;
  const runtime: GatewayRuntime = {
    engine,
    suite,
    catalogue,
    limits: { ...DEFAULT_GATEWAY_LIMITS, maxBodyBytes: 1000, maxConcurrentRequests: 1, ...limits },
    limiter: new ConcurrencyLimiter(1),
    logger: createOperatorLogger(log),
    jobHandleTtlSeconds: 60,
    now: () => 1_700_000_000_000,
    draining: false,
  };
  return { app: createGatewayApp(runtime), runtime, log, executed };
}
