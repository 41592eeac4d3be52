import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeUsageInconsistency } from '@tokenforge/model-protocol';
import { convertAnthropicUsage } from './convert-usage.js';
import { encodeAnthropicStopReason } from './encode-client-finish-reason.js';
import { encodeAnthropicWireUsage } from './encode-client-usage.js';
import { decodeAnthropicCacheControl, encodeAnthropicCacheControl } from './map-cache-control.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'refusal'],
    ['compaction', 'other'],
  ] as const)('maps %s to %s and keeps the raw value', (raw, unified) => {
    expect(mapAnthropicStopReason(raw)).toEqual({ unified, raw });
  });

  it('maps null and absent to other without raw, and drops raw values outside the charset or too long', () => {
    expect(mapAnthropicStopReason(null)).toEqual({ unified: 'other' });
    expect(mapAnthropicStopReason(undefined)).toEqual({ unified: 'other' });
    expect(mapAnthropicStopReason('has space')).toEqual({ unified: 'other' });
    expect(mapAnthropicStopReason('x'.repeat(65))).toEqual({ unified: 'other' });
  });

  it('round-trips every documented stop reason through the egress encoder', () => {
    for (const raw of ['end_turn', 'stop_sequence', 'pause_turn', 'max_tokens', 'model_context_window_exceeded', 'tool_use', 'refusal']) {
      expect(encodeAnthropicStopReason(mapAnthropicStopReason(raw))).toBe(raw);
    }
  });
});

describe('convertAnthropicUsage and its egress reverse', () => {
  it('adds cache reads and writes to the input and keeps absent figures absent', () => {
    expect(
      convertAnthropicUsage({ input_tokens: 20, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 85, thinking_tokens: 40 }),
    ).toEqual({ inputTokens: 1120, cacheWriteInputTokens: 100, cacheReadInputTokens: 1000, outputTokens: 85, reasoningOutputTokens: 40 });
    expect(convertAnthropicUsage({ input_tokens: 43, output_tokens: 1, cache_read_input_tokens: null })).toEqual({ inputTokens: 43, outputTokens: 1 });
    expect(convertAnthropicUsage({ output_tokens: 5, cache_read_input_tokens: 7 })).toEqual({ outputTokens: 5, cacheReadInputTokens: 7 });
    expect(convertAnthropicUsage({})).toEqual({});
  });

  it('is reversed exactly by the egress arithmetic and always yields consistent usage', () => {
    const count = fc.integer({ min: 0, max: 2 ** 40 });
    fc.assert(
      fc.property(count, count, count, count, (input, cacheWrite, cacheRead, output) => {
        const usage = convertAnthropicUsage({ input_tokens: input, cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cacheRead, output_tokens: output });
        expect(describeUsageInconsistency(usage)).toBeUndefined();
        expect(encodeAnthropicWireUsage(usage)).toEqual({
          input_tokens: input,
          output_tokens: output,
          cache_creation_input_tokens: cacheWrite,
          cache_read_input_tokens: cacheRead,
        });
      }),
    );
  });

  it('writes zeros for unreported totals and null for unreported cache figures', () => {
    expect(encodeAnthropicWireUsage(undefined)).toEqual({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: null, cache_read_input_tokens: null });
  });
});

describe('cache_control mapping', () => {
  it.each([
    [undefined, undefined],
    [1, '5m'],
    [300, '5m'],
    [301, '1h'],
    [3600, '1h'],
    [86_400, '1h'],
  ] as const)('maps ttlSeconds %s to ttl %s', (ttlSeconds, ttl) => {
    const encoded = encodeAnthropicCacheControl(ttlSeconds === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttlSeconds });
    expect(encoded).toEqual(ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl });
  });

  it('decodes 5m and 1h to seconds that encode back to the same ttl', () => {
    for (const ttl of ['5m', '1h'] as const) {
      expect(encodeAnthropicCacheControl(decodeAnthropicCacheControl({ type: 'ephemeral', ttl }))).toEqual({ type: 'ephemeral', ttl });
    }
    expect(decodeAnthropicCacheControl({ type: 'ephemeral' })).toEqual({ type: 'ephemeral' });
  });
});

describe('Anthropic usage details', () => {
  // The usage object of the Messages API reference (fact sheet §3.6): cache writes by time to live, hosted-tool
  // requests and the service tier.
  const wire = {
    input_tokens: 20,
    cache_creation_input_tokens: 300,
    cache_read_input_tokens: 1000,
    cache_creation_5m: 100,
    cache_creation_1h: 200,
    output_tokens: 85,
    web_search_requests: 2,
    web_fetch_requests: 1,
    service_tier: 'priority',
  };

  it('decodes cache_creation by time to live, server_tool_use and service_tier; absent details stay absent', () => {
    expect(convertAnthropicUsage(wire)).toEqual({
      inputTokens: 1320,
      cacheWriteInputTokens: 300,
      cacheReadInputTokens: 1000,
      cacheWriteInputTokensByTtl: { fiveMinutes: 100, oneHour: 200 },
      outputTokens: 85,
      serverToolRequests: { webSearch: 2, webFetch: 1 },
      serviceTier: 'priority',
    });
    expect(convertAnthropicUsage({ input_tokens: 1, output_tokens: 1, web_fetch_requests: 0 })).toEqual({ inputTokens: 1, outputTokens: 1, serverToolRequests: { webFetch: 0 } });
  });

  it('writes the details back where Anthropic has a place for them, and a foreign service tier nowhere', () => {
    expect(encodeAnthropicWireUsage(convertAnthropicUsage(wire))).toEqual({
      input_tokens: 20,
      output_tokens: 85,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 1000,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
      server_tool_use: { web_search_requests: 2, web_fetch_requests: 1 },
      service_tier: 'priority',
    });
    expect(encodeAnthropicWireUsage({ inputTokens: 5, outputTokens: 4, reasoningOutputTokens: 3, serviceTier: 'flex', serverToolRequests: { codeExecution: 1 } })).toEqual({
      input_tokens: 5,
      output_tokens: 4,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      output_tokens_details: { thinking_tokens: 3 },
    });
  });
});

