import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { runConformanceCaseV1 } from '../../conformance/run-runtime-conformance.js';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { klingVideoConformanceCases } from './conformance-cases.js';
import { createKlingVideoSuiteEntryV1 } from './suite-entry.js';

const engine = createProtocolEngineV1({ registry: createTokenForgeProtocolSuiteV1({ entries: [createKlingVideoSuiteEntryV1()] }).registry });

describe('kling-video/v1 conformance cases', () => {
  for (const conformanceCase of klingVideoConformanceCases) {
    it(conformanceCase.name, async () => {
      expect(await runConformanceCaseV1(engine, conformanceCase)).toEqual([]);
    });
  }

  it('the harness catches a wrong expectation (the cases can fail)', async () => {
    const [first] = klingVideoConformanceCases;
    if (first === undefined) throw new Error('no cases');
    const broken = { ...first, expect: { kind: 'accepted-job' as const, responseMetadata: { providerRequestId: 'req-kling-create-0001' }, providerJobId: 'image2video:1' } };
    expect(await runConformanceCaseV1(engine, broken)).not.toEqual([]);
  });
});
