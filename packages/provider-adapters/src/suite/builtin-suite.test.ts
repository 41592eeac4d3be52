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
});
