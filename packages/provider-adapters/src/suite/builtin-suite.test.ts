import { createProtocolEngineV1, type ProtocolEngineAdapterRegistryPortV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { builtinProtocolSuiteEntriesV1 } from './builtin-entries.js';
import { createBuiltinTokenForgeProtocolSuiteV1 } from './builtin-suite.js';

describe('createBuiltinTokenForgeProtocolSuiteV1', () => {
  it('validates the builtin entries and lists exactly their families', () => {
    const suite = createBuiltinTokenForgeProtocolSuiteV1();
    const declared = builtinProtocolSuiteEntriesV1.map((entry) => entry.protocolFamily).sort();
    expect(suite.registry.listProtocolFamilies()).toEqual(declared);
    expect(suite.entries).toHaveLength(builtinProtocolSuiteEntriesV1.length);
  });

  it('is a registry the engine consumes: its family snapshot equals the suite families', () => {
    const suite = createBuiltinTokenForgeProtocolSuiteV1();
    const registry: ProtocolEngineAdapterRegistryPortV1 = suite.registry;
    expect(createProtocolEngineV1({ registry }).protocolFamilies).toEqual(suite.registry.listProtocolFamilies());
  });
});
