import type { ProviderAcceptanceFacts, ProviderResponseMetadata } from '@tokenforge/model-protocol';
import { copyOptional, hasOnlyKeys, plainObject, stringCheck, type Loose } from './plain-data-checks.js';

/*
 * Hand-written equivalents of `providerAcceptanceFactsSchema` and `providerResponseMetadataSchema` for plain
 * data, read once per execution. Same contract as fast-parse-chat-task.ts: the schema's output, or `undefined`
 * so the schema decides. Agreement is proven in fast-parse-execution-facts.test.ts: change both together.
 */

const ACCEPTANCE_KEYS = new Set(['state']);
const METADATA_KEYS = new Set(['providerRequestId', 'providerModel']);
const bounded = stringCheck(1, 256);

/** The acceptance facts as the schema would parse them, or `undefined`. */
export function fastParseAcceptance(value: unknown): ProviderAcceptanceFacts | undefined {
  const source = plainObject(value);
  if (source === undefined || !hasOnlyKeys(source, ACCEPTANCE_KEYS)) return undefined;
  const state = source.state;
  return state === 'accepted' || state === 'not-accepted' || state === 'unknown' ? { state } : undefined;
}

/** The response metadata as the schema would parse it, or `undefined`. */
export function fastParseResponseMetadata(value: unknown): ProviderResponseMetadata | undefined {
  const source = plainObject(value);
  if (source === undefined || !hasOnlyKeys(source, METADATA_KEYS)) return undefined;
  const out: Loose = {};
  return copyOptional(source, 'providerRequestId', out, bounded) && copyOptional(source, 'providerModel', out, bounded) ? out : undefined;
}
