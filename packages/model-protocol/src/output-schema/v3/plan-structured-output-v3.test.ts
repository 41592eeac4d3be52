import { describe, expect, it } from 'vitest';
import type { ProtocolCapabilityV3 } from '../../capability/v3/protocol-capability-v3.js';
import { planStructuredOutputV3, type StructuredOutputTaskV3 } from './plan-structured-output-v3.js';

const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const asked: StructuredOutputTaskV3 = { responseFormat: { type: 'json', schema } };
const base: ProtocolCapabilityV3 = { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, forcedToolChoice: true };
const tool = { name: 'lookup', inputSchema: { type: 'object' } };

describe('planStructuredOutputV3', () => {
  it('plans nothing without a schema', () => {
    expect(planStructuredOutputV3({}, { ...base, structuredOutput: 'forced-tool' })).toEqual({ status: 'none' });
    expect(planStructuredOutputV3({ responseFormat: { type: 'json' } }, base)).toEqual({ status: 'none' });
    expect(planStructuredOutputV3({ responseFormat: { type: 'text' } }, base)).toEqual({ status: 'none' });
  });

  it('picks the strategy from the declared mode', () => {
    expect(planStructuredOutputV3(asked, { ...base, structuredOutput: 'native-json-schema' })).toEqual({ status: 'planned', strategy: 'native', schema });
    expect(planStructuredOutputV3(asked, { ...base, structuredOutput: 'json-object' })).toEqual({ status: 'planned', strategy: 'json-object', schema });
    expect(planStructuredOutputV3(asked, { ...base, structuredOutput: 'forced-tool' })).toEqual({ status: 'planned', strategy: 'forced-tool', schema });
  });

  it('refuses a target without structured output or without forcing', () => {
    expect(planStructuredOutputV3(asked, base)).toEqual({ status: 'refused', reason: 'unsupported' });
    expect(planStructuredOutputV3(asked, { ...base, structuredOutput: 'none' })).toEqual({ status: 'refused', reason: 'unsupported' });
    expect(planStructuredOutputV3(asked, { ...base, structuredOutput: 'forced-tool', forcedToolChoice: false })).toEqual({ status: 'refused', reason: 'unsupported' });
  });

  it('refuses forced-tool beside the task\'s own tools, but not the other strategies', () => {
    const forced = { ...base, structuredOutput: 'forced-tool' } as const;
    expect(planStructuredOutputV3({ ...asked, tools: [tool] }, forced)).toEqual({ status: 'refused', reason: 'tools-conflict' });
    expect(planStructuredOutputV3({ ...asked, toolChoice: { type: 'none' } }, forced)).toEqual({ status: 'refused', reason: 'tools-conflict' });
    expect(planStructuredOutputV3({ ...asked, hostedTools: [{ kind: 'web-search' }] }, forced)).toEqual({ status: 'refused', reason: 'tools-conflict' });
    expect(planStructuredOutputV3({ ...asked, tools: [tool] }, { ...base, structuredOutput: 'json-object' })).toMatchObject({ strategy: 'json-object' });
  });

  it('refuses forced-tool with reasoning unless the target forces while reasoning', () => {
    const forced = { ...base, structuredOutput: 'forced-tool' } as const;
    expect(planStructuredOutputV3({ ...asked, reasoning: { effort: 'high' } }, forced)).toEqual({ status: 'refused', reason: 'reasoning-conflict' });
    expect(planStructuredOutputV3({ ...asked, reasoning: { effort: 'none' } }, forced)).toMatchObject({ strategy: 'forced-tool' });
    expect(planStructuredOutputV3({ ...asked, reasoning: { budgetTokens: 0 } }, forced)).toMatchObject({ strategy: 'forced-tool' });
    expect(planStructuredOutputV3({ ...asked, reasoning: { effort: 'high' } }, { ...forced, forcedToolChoiceWithReasoning: true })).toMatchObject({ strategy: 'forced-tool' });
  });
});
