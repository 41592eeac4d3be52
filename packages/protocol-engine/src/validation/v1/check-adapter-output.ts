import {
  adapterTerminalOutcomeV4Schema,
  normalizedProviderFailureV3Schema,
  providerAcceptanceFactsSchema,
  providerAsyncJobListPageV2Schema,
  providerAsyncJobSnapshotV2Schema,
  providerJobIdSchema,
  providerResponseMetadataV3Schema,
  type AdapterTerminalOutcomeV4,
  type NormalizedProviderFailureV3,
  type ProtocolCapabilityV3,
  type ProviderAcceptanceFacts,
  type ProviderAsyncJobListInputV2,
  type ProviderAsyncJobListPageV2,
  type ProviderAsyncJobSnapshotV2,
  type ProviderResponseMetadataV3,
  type TaskEnvelopeV4,
  type TaskResultV4,
} from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError, type ProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import { deepFreeze } from './deep-freeze.js';
import { fastParseAcceptance, fastParseResponseMetadata } from './fast-parse-execution-facts.js';
import { fastParseTerminal } from './fast-parse-terminal.js';
import { describePath, isRecord, isSafeHttpsUrl } from './input-guards.js';

interface SafeParser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { readonly path: readonly PropertyKey[] }[] } };
}

/** An ADAPTER_OUTPUT_INVALID error; the message names the rule, never the offending value. */
export function outputInvalid(rule: string, cause?: unknown): ProtocolEngineErrorV1 {
  return engineError(CODES.ADAPTER_OUTPUT_INVALID, `the adapter output breaks the V1 contract: ${rule}`, cause);
}

function parseOutput<T>(schema: SafeParser<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw outputInvalid(`${what} is malformed${describePath(parsed.error.issues)}`, parsed.error);
  return parsed.data;
}

/** Validates acceptance facts (closed object). */
export function checkAcceptance(value: unknown): ProviderAcceptanceFacts {
  return deepFreeze(fastParseAcceptance(value) ?? parseOutput(providerAcceptanceFactsSchema, value, 'acceptance'));
}

/** Validates response metadata (closed object, V3 revision: rate limits included). */
export function checkResponseMetadata(value: unknown): ProviderResponseMetadataV3 {
  return deepFreeze(fastParseResponseMetadata(value) ?? parseOutput(providerResponseMetadataV3Schema, value, 'response metadata'));
}

/** Validates a normalized provider failure (closed object, V3 vocabulary). */
export function checkFailure(value: unknown): NormalizedProviderFailureV3 {
  return deepFreeze(parseOutput(normalizedProviderFailureV3Schema, value, 'the provider failure'));
}

/**
 * Validates a terminal outcome: its closed shape (V4 revision; the hand-written path covers the V1 shapes), and
 * for a completed one a result of the task's kind whose facts agree with the task and the capability. The
 * returned copy is frozen.
 */
export function checkTerminal(value: unknown, task: TaskEnvelopeV4, capability: ProtocolCapabilityV3): AdapterTerminalOutcomeV4 {
  const outcome: AdapterTerminalOutcomeV4 = fastParseTerminal(value) ?? parseOutput(adapterTerminalOutcomeV4Schema, value, 'the terminal outcome');
  if (outcome.status === 'completed') {
    if (outcome.result.kind !== task.kind) throw outputInvalid('the result kind differs from the task kind');
    checkResult(outcome.result, task, capability);
  }
  return deepFreeze(outcome);
}

function checkResult(result: TaskResultV4, task: TaskEnvelopeV4, capability: ProtocolCapabilityV3): void {
  switch (result.kind) {
    case 'chat':
    case 'token-count':
      return;
    case 'embedding': {
      if (task.kind !== 'embedding') return;
      const space = capability.embedding;
      const expectedDimensions = task.dimensions ?? space?.defaultDimensions;
      if (result.vectors.length !== task.inputs.length) throw outputInvalid('the vector count differs from the input count');
      if (result.dimensions !== expectedDimensions) throw outputInvalid('the vector dimensions differ from the requested dimensions');
      if (result.spaceId !== undefined && result.spaceId !== space?.spaceId) throw outputInvalid('the embedding space differs from the target space');
      for (const vector of result.vectors) {
        if (vector.length !== result.dimensions) throw outputInvalid('a vector length differs from the declared dimensions');
        for (let position = 0; position < vector.length; position += 1) {
          if (!Number.isFinite(vector[position])) throw outputInvalid('a vector holds a non-finite value');
        }
      }
      return;
    }
    case 'image-generation':
    case 'image-edit': {
      if (task.kind !== 'image-generation' && task.kind !== 'image-edit') return;
      if (result.images.length > (task.count ?? 1)) throw outputInvalid('more images than the task requested');
      for (const image of result.images) {
        if (image.base64 === undefined && image.url === undefined) throw outputInvalid('an image has neither base64 nor url');
        if (image.url !== undefined && !isSafeHttpsUrl(image.url)) throw outputInvalid('an image url is not https without userinfo');
      }
      return;
    }
    case 'rerank': {
      if (task.kind !== 'rerank') return;
      const seen = new Set<number>();
      let previousScore = Number.POSITIVE_INFINITY;
      if (result.results.length > (task.topN ?? task.documents.length)) throw outputInvalid('more rerank results than requested');
      for (const item of result.results) {
        if (item.index >= task.documents.length) throw outputInvalid('a rerank index is outside the documents');
        if (seen.has(item.index)) throw outputInvalid('a rerank index repeats');
        if (item.relevanceScore > previousScore) throw outputInvalid('rerank results are not in descending score order');
        seen.add(item.index);
        previousScore = item.relevanceScore;
      }
      return;
    }
    default:
      throw outputInvalid('unknown result kind');
  }
}

/** The validated outcome of an async start. */
export type CheckedStartOutcome =
  | { readonly accepted: true; readonly responseMetadata: ProviderResponseMetadataV3; readonly providerJobId: string }
  | {
      readonly accepted: false;
      readonly state: 'not-accepted' | 'unknown';
      readonly responseMetadata: ProviderResponseMetadataV3;
      readonly failure: NormalizedProviderFailureV3;
    };

/** Validates an async start outcome (closed: exactly acceptance, metadata and a job id or a failure). */
export function checkStartOutcome(value: unknown): CheckedStartOutcome {
  if (!isRecord(value)) throw outputInvalid('the async start outcome is not an object');
  const acceptance = checkAcceptance(value.acceptance);
  const responseMetadata = checkResponseMetadata(value.responseMetadata);
  if (acceptance.state === 'accepted') {
    assertOnlyKeys(value, ['acceptance', 'responseMetadata', 'providerJobId'], 'the accepted start outcome');
    const providerJobId = parseOutput(providerJobIdSchema, value.providerJobId, 'the provider job id');
    return { accepted: true, responseMetadata, providerJobId };
  }
  assertOnlyKeys(value, ['acceptance', 'responseMetadata', 'failure'], 'the rejected start outcome');
  return { accepted: false, state: acceptance.state, responseMetadata, failure: checkFailure(value.failure) };
}

/** Validates a job operation result envelope and returns its value, or throws PROVIDER_FAILED for a provider failure. */
export function unwrapOperationResult(value: unknown): unknown {
  if (!isRecord(value)) throw outputInvalid('the job operation result is not an object');
  if (value.status === 'ok') {
    assertOnlyKeys(value, ['status', 'value'], 'the job operation result');
    return value.value;
  }
  if (value.status === 'failed') {
    assertOnlyKeys(value, ['status', 'failure'], 'the job operation result');
    const failure = checkFailure(value.failure);
    throw engineError(CODES.PROVIDER_FAILED, 'the provider reported a failure for the job operation', failure);
  }
  throw outputInvalid('the job operation result status is neither ok nor failed');
}

/** Validates one job snapshot (closed), including https media URLs. */
export function checkSnapshot(value: unknown): ProviderAsyncJobSnapshotV2 {
  const snapshot = parseOutput(providerAsyncJobSnapshotV2Schema, value, 'the job snapshot');
  checkSnapshotFacts(snapshot);
  return deepFreeze(snapshot);
}

function checkSnapshotFacts(snapshot: ProviderAsyncJobSnapshotV2): void {
  for (const media of snapshot.media ?? []) {
    if (!isSafeHttpsUrl(media.url)) throw outputInvalid('a job media url is not https without userinfo');
  }
  if (snapshot.failure !== undefined && snapshot.state !== 'failed') throw outputInvalid('a job that did not fail carries a failure');
}

/** Validates a job list page against the request: page size, window and total. */
export function checkListPage(value: unknown, request: ProviderAsyncJobListInputV2): ProviderAsyncJobListPageV2 {
  const page = parseOutput(providerAsyncJobListPageV2Schema, value, 'the job list page');
  if (page.items.length > request.pageSize) throw outputInvalid('the job list page holds more items than the page size');
  if (page.total < page.items.length) throw outputInvalid('the job list total is smaller than the page');
  const after = request.createdAfter === undefined ? undefined : Date.parse(request.createdAfter);
  const before = request.createdBefore === undefined ? undefined : Date.parse(request.createdBefore);
  for (const item of page.items) {
    checkSnapshotFacts(item);
    if (item.createdAt === undefined || (after === undefined && before === undefined)) continue;
    const createdAt = Date.parse(item.createdAt);
    if ((after !== undefined && createdAt < after) || (before !== undefined && createdAt >= before)) {
      throw outputInvalid('a listed job lies outside the requested creation window');
    }
  }
  return deepFreeze(page);
}

function assertOnlyKeys(value: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key in value) if (!allowed.includes(key)) throw outputInvalid(`${what} has an undeclared field`);
}
