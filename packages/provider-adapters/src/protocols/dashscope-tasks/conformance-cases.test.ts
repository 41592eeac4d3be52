import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { runConformanceCaseV1 } from '../../conformance/run-runtime-conformance.js';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { dashScopeTasksConformanceCases } from './conformance-cases.js';
import { createDashScopeTasksSuiteEntryV1 } from './suite-entry.js';

const engine = createProtocolEngineV1({ registry: createTokenForgeProtocolSuiteV1({ entries: [createDashScopeTasksSuiteEntryV1()] }).registry });

describe('dashscope-tasks/v1 conformance cases', () => {
  for (const conformanceCase of dashScopeTasksConformanceCases) {
    it(conformanceCase.name, async () => {
      expect(await runConformanceCaseV1(engine, conformanceCase)).toEqual([]);
    });
  }

  it('the harness catches a wrong expectation (the cases can fail)', async () => {
    const [first] = dashScopeTasksConformanceCases;
    if (first === undefined) throw new Error('no cases');
    expect(await runConformanceCaseV1(engine, { ...first, jobSteps: (first.jobSteps ?? []).slice(0, 1) })).not.toEqual([]);
  });
});
