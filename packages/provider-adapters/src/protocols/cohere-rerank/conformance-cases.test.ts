import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { runConformanceCaseV1 } from '../../conformance/run-runtime-conformance.js';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { cohereRerankConformanceCases } from './conformance-cases.js';
import { createCohereRerankSuiteEntryV1 } from './suite-entry.js';

// Runs this family's cases on their own, so they are proven before (and independently of) the builtin registry.
const engine = createProtocolEngineV1({ registry: createTokenForgeProtocolSuiteV1({ entries: [createCohereRerankSuiteEntryV1()] }).registry });

describe('cohere-rerank conformance cases', () => {
  for (const conformanceCase of cohereRerankConformanceCases) {
    it(conformanceCase.name, async () => {
      expect(await runConformanceCaseV1(engine, conformanceCase)).toEqual([]);
    });
  }
});
