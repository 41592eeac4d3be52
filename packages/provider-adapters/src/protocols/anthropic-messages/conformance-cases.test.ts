import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import { runConformanceCaseV1 } from '../../conformance/run-runtime-conformance.js';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { anthropicMessagesConformanceCases } from './conformance-cases.js';
import { createAnthropicMessagesSuiteEntryV1 } from './suite-entry.js';

// The family's cases through the public engine API, with a suite holding only this family (the builtin suite
// runs them again once the family is registered there).
const suite = createTokenForgeProtocolSuiteV1({ entries: [createAnthropicMessagesSuiteEntryV1()] });
const engine = createProtocolEngineV1({ registry: suite.registry });

describe('anthropic-messages conformance cases', () => {
  it('label every response recorded or constructed, and name cases accordingly', () => {
    for (const conformanceCase of anthropicMessagesConformanceCases) {
      const constructed =
        conformanceCase.responses.some((response) => response.source === 'constructed') || conformanceCase.responses.length === 0;
      expect(conformanceCase.name.includes(constructed ? '(constructed' : '(recorded)')).toBe(true);
    }
  });

  for (const conformanceCase of anthropicMessagesConformanceCases) {
    it(conformanceCase.name, async () => {
      expect(await runConformanceCaseV1(engine, conformanceCase)).toEqual([]);
    });
  }
});
