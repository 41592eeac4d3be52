import { describe, expect, it } from 'vitest';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { createOpenAiChatSuiteEntryV1 } from './suite-entry.js';

describe('openai-chat suite entry', () => {
  it('declares a direct-HTTP sync family with bearer auth and no fixed headers, accepted by the suite validator', () => {
    const entry = createOpenAiChatSuiteEntryV1();
    expect(entry).toMatchObject({
      protocolFamily: 'openai-chat/v1',
      execution: 'sync',
      directHttp: true,
      transportMetadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
    });
    const suite = createTokenForgeProtocolSuiteV1({ entries: [entry] });
    expect(suite.registry.listProtocolFamilies()).toEqual(['openai-chat/v1']);
    expect(suite.registry.require('openai-chat/v1').protocolFamily).toBe('openai-chat/v1');
    expect(suite.codecsFor('openai-chat/v1')?.ingress.protocolFamily).toBe('openai-chat/v1');
    expect(suite.codecsFor('openai-chat/v1')?.egress.protocolFamily).toBe('openai-chat/v1');
  });
});
