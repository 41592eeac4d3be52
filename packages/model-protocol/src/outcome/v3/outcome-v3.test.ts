import { describe, expect, it } from 'vitest';
import { adapterTerminalOutcomeSchema } from '../v1/adapter-terminal-outcome.js';
import { providerResponseMetadataSchema } from '../v1/provider-acceptance-facts.js';
import { normalizedStreamEventV1Schema } from '../../stream/v1/normalized-stream-event-v1.js';
import { normalizedStreamEventV3Schema } from '../../stream/v3/normalized-stream-event-v3.js';
import { providerDispatchTargetV2Schema } from '../../target/v2/provider-dispatch-target-v2.js';
import { providerDispatchTargetV3Schema } from '../../target/v3/provider-dispatch-target-v3.js';
import { adapterTerminalOutcomeV3Schema, normalizedProviderFailureV3Schema, providerDiagnosticV3Schema } from './adapter-terminal-outcome-v3.js';
import { providerResponseMetadataV3Schema } from './provider-response-metadata-v3.js';

const chatDone = { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'hi' }] }, finishReason: { unified: 'stop' }, usage: { inputTokens: 3 } };

describe('the V3 outcome contracts', () => {
  it('accept every V1 terminal, metadata value and event', () => {
    for (const terminal of [chatDone, { status: 'failed', failure: { code: 'timeout', retryable: true } }, { status: 'cancelled' }]) {
      expect(adapterTerminalOutcomeSchema.parse(terminal)).toEqual(terminal);
      expect(adapterTerminalOutcomeV3Schema.parse(terminal)).toEqual(terminal);
    }
    const metadata = { providerRequestId: 'req_1', providerModel: 'm' };
    expect(providerResponseMetadataV3Schema.parse(providerResponseMetadataSchema.parse(metadata))).toEqual(metadata);
    for (const event of [{ type: 'text-delta', index: 0, delta: 'a' }, { type: 'usage', usage: { outputTokens: 1 } }]) {
      expect(normalizedStreamEventV3Schema.parse(normalizedStreamEventV1Schema.parse(event))).toEqual(event);
    }
  });

  it('take the V3 facts and stay closed', () => {
    expect(adapterTerminalOutcomeV3Schema.safeParse({ status: 'completed', result: { kind: 'token-count', inputTokens: 12 } }).success).toBe(true);
    expect(adapterTerminalOutcomeV3Schema.safeParse({ ...chatDone, cost: { amountMicros: 1500, currency: 'USD' } }).success).toBe(true);
    expect(adapterTerminalOutcomeV3Schema.safeParse({ ...chatDone, cost: { amountMicros: 1.5, currency: 'USD' } }).success).toBe(false);
    expect(adapterTerminalOutcomeV3Schema.safeParse({ ...chatDone, cost: { amountMicros: 1, currency: 'usd' } }).success).toBe(false);
    expect(normalizedProviderFailureV3Schema.safeParse({ code: 'output-schema-mismatch', retryable: false }).success).toBe(true);
    expect(normalizedProviderFailureV3Schema.safeParse({ code: 'output-schema-mismatch', retryable: false, message: 'x' }).success).toBe(false);
    expect(adapterTerminalOutcomeSchema.safeParse({ status: 'failed', failure: { code: 'output-schema-mismatch', retryable: false } }).success).toBe(false);
    const rateLimits = { requests: { limit: 60, remaining: 59, resetMs: 1000 }, tokens: { remaining: 10 }, retryAfterMs: 2000 };
    expect(providerResponseMetadataV3Schema.parse({ rateLimits })).toEqual({ rateLimits });
    expect(providerResponseMetadataV3Schema.safeParse({ rateLimits: { requests: { remaining: -1 } } }).success).toBe(false);
    expect(providerResponseMetadataV3Schema.safeParse({ rateLimits: { images: {} } }).success).toBe(false);
    expect(normalizedStreamEventV3Schema.safeParse({ type: 'usage', usage: { cacheWriteInputTokensByTtl: { oneHour: 2 } } }).success).toBe(true);
    expect(normalizedStreamEventV1Schema.safeParse({ type: 'usage', usage: { cacheWriteInputTokensByTtl: { oneHour: 2 } } }).success).toBe(false);
  });

  it('keep diagnostics to bounded words', () => {
    expect(providerDiagnosticV3Schema.safeParse({ code: 'protocol-violation', rule: 'usage decreased', location: 'sse line 4' }).success).toBe(true);
    expect(providerDiagnosticV3Schema.safeParse({ code: 'protocol-violation', rule: 'x'.repeat(513) }).success).toBe(false);
    expect(providerDiagnosticV3Schema.safeParse({ code: 'protocol-violation', rule: 'r', value: 'secret' }).success).toBe(false);
  });

  it('a V3 target takes a V3 capability where V2 takes the boolean', () => {
    const target = { provider: 'p', providerModel: 'm', connectionRef: 'c' };
    const capability = { protocolFamily: 'openai-chat/v1', executionMode: 'sync', taskKinds: ['chat'] };
    expect(providerDispatchTargetV3Schema.safeParse({ ...target, capability: { ...capability, structuredOutput: 'json-object' } }).success).toBe(true);
    expect(providerDispatchTargetV3Schema.safeParse({ ...target, capability: { ...capability, structuredOutput: true } }).success).toBe(false);
    expect(providerDispatchTargetV2Schema.safeParse({ ...target, capability: { ...capability, structuredOutput: true } }).success).toBe(true);
    expect(providerDispatchTargetV3Schema.safeParse({ ...target, capability, extra: 1 }).success).toBe(false);
  });
});
