import { describe, expect, it } from 'vitest';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '../suite/builtin-suite.js';
import { GATEWAY_REFUSALS } from './gateway-refusal-codes.js';

const CLIENT_FAMILIES: readonly `${string}/v${number}`[] = ['openai-chat/v1', 'openai-responses/v1', 'openai-embeddings/v1', 'openai-images/v1', 'anthropic-messages/v1', 'gemini-generate-content/v1', 'cohere-rerank/v1'];
const STATUS = { 'request-timeout': [408], busy: [429], 'unknown-model': [404], unavailable: [503, 529] } as const;

describe('GATEWAY_REFUSALS', () => {
  it('every client-facing egress codec answers each gateway refusal with its status and the fixed message, never a 500', () => {
    const suite = createBuiltinTokenForgeProtocolSuiteV1();
    for (const family of CLIENT_FAMILIES) {
      const egress = suite.codecsFor(family)?.egress;
      expect(egress, family).toBeDefined();
      for (const [code, meaning] of Object.entries(GATEWAY_REFUSALS)) {
        const answer = egress!.encodeError({ source: 'engine', code }, { responseId: 'r', modelLabel: 'm', createdAtMs: 0 });
        expect(STATUS[meaning.kind], `${family} ${code}`).toContain(answer.status);
        expect(new TextDecoder().decode(answer.body), `${family} ${code}`).toContain(meaning.message);
      }
    }
  });
});
