import { CONTRACT_BOUNDS_V1, type ProviderAcceptanceFacts, type ProviderResponseMetadata } from '@tokenforge/model-protocol';
import { hasOnlyKeys, optionalFieldsCheck, plainObject, stringCheck } from './plain-data-checks.js';

/*
 * Hand-written equivalents of `providerAcceptanceFactsSchema` and `providerResponseMetadataSchema` for plain
 * data, read once per execution. Same contract as fast-parse-chat-task.ts: the schema's output, or `undefined`
 * so the schema decides. Agreement is proven in fast-parse-execution-facts.test.ts: change both together.
 */

const ACCEPTANCE_KEYS = new Set(['state']);
const bounded = stringCheck(1, CONTRACT_BOUNDS_V1.providerIdentifierMaxLength);
const metadataFields = optionalFieldsCheck([
  ['providerRequestId', bounded],
  ['providerModel', bounded],
]);

/** The acceptance facts as the schema would parse them, or `undefined`. */
export function fastParseAcceptance(value: unknown): ProviderAcceptanceFacts | undefined {
  const source = plainObject(value);
  if (source === undefined || !hasOnlyKeys(source, ACCEPTANCE_KEYS)) return undefined;
  const state = source.state;
  return state === 'accepted' || state === 'not-accepted' || state === 'unknown' ? { state } : undefined;
}

/** The response metadata as the schema would parse it, or `undefined`. */
export function fastParseResponseMetadata(value: unknown): ProviderResponseMetadata | undefined {
  return metadataFields(value);
}
