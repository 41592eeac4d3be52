import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '../suite/builtin-suite.js';
import { builtinConformanceCasesV1 } from './conformance-cases.js';
import { checkConformanceCoverageV1, runConformanceCaseV1 } from './run-runtime-conformance.js';

// The engine's family snapshot of the builtin suite is the authority: every family in it needs cases.
const suite = createBuiltinTokenForgeProtocolSuiteV1();
const engine = createProtocolEngineV1({ registry: suite.registry });

describe('runtime conformance of the builtin suite', () => {
  it('the engine snapshot holds exactly the builtin suite families', () => {
    expect(engine.protocolFamilies).toEqual(suite.registry.listProtocolFamilies());
  });

  it('every registered family has cases, and every family with cases is registered', () => {
    expect(checkConformanceCoverageV1(engine.protocolFamilies, builtinConformanceCasesV1)).toEqual([]);
  });

  for (const protocolFamily of engine.protocolFamilies) {
    describe(protocolFamily, () => {
      for (const conformanceCase of builtinConformanceCasesV1[protocolFamily] ?? []) {
        it(conformanceCase.name, async () => {
          expect(await runConformanceCaseV1(engine, conformanceCase)).toEqual([]);
        });
      }
    });
  }
});
