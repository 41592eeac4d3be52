import { describe, expect, it } from 'vitest';
import { protocolCapabilityV2Schema } from '../v2/protocol-capability-v2.js';
import { mapReasoningEffortV3 } from './map-reasoning-effort-v3.js';
import { isProtocolCapabilityV2, protocolCapabilityFromV2, protocolCapabilityV3Schema } from './protocol-capability-v3.js';

const base = { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'] } as const;

describe('ProtocolCapabilityV3', () => {
  it('reads a V2 capability as V3', () => {
    const v2 = protocolCapabilityV2Schema.parse({ ...base, tools: true, structuredOutput: true, reasoning: true });
    expect(isProtocolCapabilityV2(v2)).toBe(true);
    const v3 = protocolCapabilityFromV2(v2);
    expect(v3).toEqual({ ...base, tools: true, forcedToolChoice: true, structuredOutput: 'native-json-schema', reasoning: true });
    expect(protocolCapabilityV3Schema.parse(v3)).toEqual(v3);
    expect(protocolCapabilityFromV2(protocolCapabilityV2Schema.parse({ ...base, structuredOutput: false }))).toEqual(base);
  });

  it('declares one structured-output fact, never a boolean', () => {
    expect(protocolCapabilityV3Schema.safeParse({ ...base, structuredOutput: 'forced-tool' }).success).toBe(true);
    expect(protocolCapabilityV3Schema.safeParse({ ...base, structuredOutput: true }).success).toBe(false);
    expect(isProtocolCapabilityV2(protocolCapabilityV3Schema.parse({ ...base, structuredOutput: 'json-object' }))).toBe(false);
  });

  it('takes the forced-tool-with-reasoning fact as a boolean only', () => {
    expect(protocolCapabilityV3Schema.parse({ ...base, forcedToolChoiceWithReasoning: true })).toEqual({ ...base, forcedToolChoiceWithReasoning: true });
    expect(protocolCapabilityV3Schema.safeParse({ ...base, forcedToolChoiceWithReasoning: 'yes' }).success).toBe(false);
  });

  it('takes token counting, effort levels and hosted tools', () => {
    const v3 = { ...base, taskKinds: ['chat', 'token-count'], reasoningEfforts: ['low', 'high'], hostedTools: ['web-search'], parallelToolCalls: true };
    expect(protocolCapabilityV3Schema.parse(v3)).toEqual(v3);
    expect(protocolCapabilityV3Schema.safeParse({ ...base, reasoningEfforts: [] }).success).toBe(false);
  });
});

describe('mapReasoningEffortV3', () => {
  it('keeps a declared level and maps the rest to the nearest, the lower one on a tie', () => {
    const classic = ['low', 'medium', 'high'] as const;
    expect(mapReasoningEffortV3('medium', classic)).toBe('medium');
    expect(mapReasoningEffortV3('none', classic)).toBe('low');
    expect(mapReasoningEffortV3('minimal', classic)).toBe('low');
    expect(mapReasoningEffortV3('xhigh', classic)).toBe('high');
    expect(mapReasoningEffortV3('max', classic)).toBe('high');
    expect(mapReasoningEffortV3('medium', ['low', 'high'])).toBe('low');
    expect(mapReasoningEffortV3('max', ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'])).toBe('max');
    expect(() => mapReasoningEffortV3('low', [])).toThrow(RangeError);
  });
});
