import { describe, expect, it } from 'vitest';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { createOpenAiResponsesSuiteEntryV1 } from './suite-entry.js';

describe('openai-responses suite entry', () => {
  it('declares a direct-HTTP sync family with bearer auth and no fixed headers, accepted by the suite validator', () => {
    const entry = createOpenAiResponsesSuiteEntryV1();
    expect(entry).toMatchObject({
      protocolFamily: 'openai-responses/v1',
      execution: 'sync',
      directHttp: true,
      transportMetadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
    });
    const suite = createTokenForgeProtocolSuiteV1({ entries: [entry] });
    expect(suite.registry.listProtocolFamilies()).toEqual(['openai-responses/v1']);
    expect(suite.registry.require('openai-responses/v1').protocolFamily).toBe('openai-responses/v1');
    expect(suite.codecsFor('openai-responses/v1')?.ingress.protocolFamily).toBe('openai-responses/v1');
    expect(suite.codecsFor('openai-responses/v1')?.egress.protocolFamily).toBe('openai-responses/v1');
  });
});
