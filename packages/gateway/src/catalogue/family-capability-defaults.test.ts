import { describe, expect, it } from 'vitest';
import { capabilityOfTarget } from './family-capability-defaults.js';
import type { GatewayTargetV1 } from './gateway-catalogue-v1.js';
import { gatewayTargetV1Schema } from './gateway-catalogue-v1.js';

function target(capability?: GatewayTargetV1['capability']): GatewayTargetV1 {
  return gatewayTargetV1Schema.parse({
    provider: 'p',
    family: 'openai-chat/v1',
    model: 'm',
    baseUrl: 'https://example.test/v1',
    credentials: { apiKeyEnv: 'KEY' },
    ...(capability === undefined ? {} : { capability }),
  });
}

const chatDefaults = { protocolFamily: 'openai-chat/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, imageInput: true, reasoning: true };

describe('capabilityOfTarget', () => {
  it('stays V2 without an override or with a boolean structuredOutput', () => {
    expect(capabilityOfTarget(target())).toEqual({ ...chatDefaults, structuredOutput: true });
    expect(capabilityOfTarget(target({ structuredOutput: false }))).toEqual({ ...chatDefaults, structuredOutput: false });
  });

  it('reads the facts as V3 when the override names a structured-output mode', () => {
    expect(capabilityOfTarget(target({ structuredOutput: 'json-object' }))).toEqual({ ...chatDefaults, forcedToolChoice: true, structuredOutput: 'json-object' });
    expect(capabilityOfTarget(target({ structuredOutput: 'none', tools: false }))).toEqual({ ...chatDefaults, tools: false });
  });

  it('reads the facts as V3 with the declared task kinds when a target opts into token-count', () => {
    const counting = capabilityOfTarget(target({ taskKinds: ['chat', 'token-count'] }));
    expect(counting).toEqual({ ...chatDefaults, taskKinds: ['chat', 'token-count'], forcedToolChoice: true, structuredOutput: 'native-json-schema' });
    expect(capabilityOfTarget(target({ taskKinds: ['chat', 'token-count'], structuredOutput: 'json-object' }))).toMatchObject({
      taskKinds: ['chat', 'token-count'],
      structuredOutput: 'json-object',
    });
    expect(capabilityOfTarget(target({ taskKinds: ['chat'] })).taskKinds).toEqual(['chat']);
  });

  it('reads the forced-tool facts as V3: a target that cannot force, and one that forces while reasoning', () => {
    expect(capabilityOfTarget(target({ forcedToolChoice: false }))).toEqual({ ...chatDefaults, structuredOutput: 'native-json-schema', forcedToolChoice: false });
    expect(capabilityOfTarget(target({ structuredOutput: 'forced-tool', forcedToolChoiceWithReasoning: true }))).toEqual({
      ...chatDefaults,
      forcedToolChoice: true,
      forcedToolChoiceWithReasoning: true,
      structuredOutput: 'forced-tool',
    });
  });

  it('refuses a task kind outside the V3 list', () => {
    expect(gatewayTargetV1Schema.safeParse({ ...target(), capability: { taskKinds: ['count'] } }).success).toBe(false);
  });

  it('refuses a structured-output value that is neither a boolean nor a mode', () => {
    expect(gatewayTargetV1Schema.safeParse({ ...target(), capability: { structuredOutput: 'sometimes' } }).success).toBe(false);
  });
});
