import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '../index.js';

const CREDENTIAL_LIKE = /apikey|api_key|api-key|secret|password|credential|token/i;
/** Usage counters are the only keys allowed to mention tokens. */
const TOKEN_COUNTER_EXCEPTIONS = new Set([
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'cacheReadInputTokens',
  'cacheWriteInputTokens',
  'reasoningOutputTokens',
  'maxOutputTokens',
  'budgetTokens',
  'cacheWriteInputTokensByTtl',
  'inputTokensByModality',
  'outputTokensByModality',
  'triggerInputTokens',
  'clearAtLeastInputTokens',
  'tokens',
]);

function collectKeys(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectKeys(item, into);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const name of Object.keys(value)) into.add(name);
    }
    collectKeys(value, into);
  }
}

function exportedSchemas(): Array<[string, z.ZodType]> {
  return Object.entries(contracts as Record<string, unknown>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);
}

describe('schema keys', () => {
  it('finds a useful number of schemas to scan', () => {
    expect(exportedSchemas().length).toBeGreaterThan(30);
  });

  it('no schema key anywhere looks like a credential (usage token counters excepted)', () => {
    const keys = new Set<string>();
    for (const [, schema] of exportedSchemas()) {
      collectKeys(z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }), keys);
    }
    expect(keys.size).toBeGreaterThan(50);
    const offending = [...keys].filter((key) => CREDENTIAL_LIKE.test(key) && !TOKEN_COUNTER_EXCEPTIONS.has(key));
    expect(offending).toEqual([]);
  });

  it('the scan itself catches a planted credential key', () => {
    const planted = z.strictObject({ nested: z.strictObject({ apiKey: z.string() }) });
    const keys = new Set<string>();
    collectKeys(z.toJSONSchema(planted), keys);
    expect([...keys].filter((key) => CREDENTIAL_LIKE.test(key))).toEqual(['apiKey']);
  });
});
