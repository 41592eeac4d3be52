import { describe, expect, it } from 'vitest';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { createDashScopeTasksSuiteEntryV1 } from './suite-entry.js';

describe('createDashScopeTasksSuiteEntryV1', () => {
  it('is a valid async entry with bearer auth, no fixed headers and no direct HTTP', () => {
    const suite = createTokenForgeProtocolSuiteV1({ entries: [createDashScopeTasksSuiteEntryV1()] });
    expect(suite.transportMetadataFor('dashscope-tasks/v1')).toEqual({ auth: { scheme: 'bearer' }, fixedHeaders: {} });
    expect(suite.codecsFor('dashscope-tasks/v1')).toBeUndefined();
    expect(suite.registry.requireAsync('dashscope-tasks/v1').jobOperations).toEqual(['get', 'list', 'cancel']);
  });
});
