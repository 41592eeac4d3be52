import { CONTRACT_BOUNDS_V3, describeUsageV3Inconsistency, type UsageV3 } from '@tokenforge/model-protocol';
import { integerCheck, optionalFieldsCheck, stringCheck, type Check, type Loose } from './plain-data-checks.js';

/*
 * A hand-written equivalent of model-protocol's `usageV3Schema` (every field optional, closed objects, the same
 * bounds and consistency rules), for the usage of stream snapshots and terminals: the schema costs more than the
 * rest of a terminal's check. Agreement is proven by property tests in fast-parse-usage-v3.test.ts; change both
 * together.
 */

const count = integerCheck(0, Number.MAX_SAFE_INTEGER);
const countsOf = (...keys: readonly string[]): ((value: unknown) => Loose | undefined) =>
  optionalFieldsCheck(keys.map((key) => [key, count] as const));
const byModality = countsOf('text', 'image', 'audio', 'video', 'document');

/** The fields in the schema's order (the schema's output order). */
export const USAGE_V3_FIELDS: readonly (readonly [string, Check])[] = [
  ['inputTokens', count],
  ['outputTokens', count],
  ['totalTokens', count],
  ['cacheReadInputTokens', count],
  ['cacheWriteInputTokens', count],
  ['cacheWriteInputTokensByTtl', countsOf('fiveMinutes', 'oneHour')],
  ['reasoningOutputTokens', count],
  ['inputTokensByModality', byModality],
  ['outputTokensByModality', byModality],
  ['serverToolRequests', countsOf('webSearch', 'webFetch', 'codeExecution', 'fileSearch')],
  ['serviceTier', stringCheck(1, CONTRACT_BOUNDS_V3.serviceTierMaxLength, /^[A-Za-z0-9_.:-]+$/)],
  ['images', count],
  ['searchUnits', count],
  ['videoSeconds', count],
];

const fields = optionalFieldsCheck(USAGE_V3_FIELDS);

/**
 * The usage as `usageV3Schema` would parse it (a fresh object, not frozen), or `undefined` when the input is not
 * valid plain-data usage (then the schema decides). Never throws for plain data.
 */
export function fastParseUsageV3(value: unknown): UsageV3 | undefined {
  const out = fields(value);
  return out !== undefined && describeUsageV3Inconsistency(out as UsageV3) === undefined ? (out as UsageV3) : undefined;
}
