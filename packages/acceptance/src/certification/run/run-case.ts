import { PROVIDER_FAILURE_CODES_V3, usageV1Schema, type AdapterTerminalOutcomeV4, type ProviderAsyncJobSnapshotV2, type UsageV1, type UsageV3 } from '@tokenforge/model-protocol';
import { isProtocolEngineErrorV1, type ProtocolEngineTargetBindingV1, type ProtocolEngineV1 } from '@tokenforge/protocol-engine';
import type { CaseEvidenceV1, CaseOutcomeV1, OperationCountsV1 } from '../evidence/certification-evidence-v1.js';
import { fingerprint } from '../evidence/fingerprint.js';
import type { ManifestCaseV1 } from '../manifest/certification-manifest-v1.js';
import type { TransportTally } from './certification-network.js';

/** Clock skew tolerated when a job list is filtered by the submission window, in milliseconds. */
export const SUBMISSION_WINDOW_SKEW_MS = 5 * 60 * 1000;

/** What a case runner needs from the run. */
export interface CaseContext {
  readonly engine: ProtocolEngineV1;
  readonly binding: ProtocolEngineTargetBindingV1;
  readonly signal: AbortSignal;
  readonly tally: TransportTally;
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Called before every engine operation; throws to stop the run (request cap). */
  readonly beforeOperation: (kind: keyof OperationCountsV1) => void;
}

type Counts = CaseEvidenceV1['counts'];
type Job = NonNullable<CaseEvidenceV1['job']>;

const TERMINAL_STATES = new Set(['succeeded', 'failed', 'cancelled']);

/** Fingerprint of a provider job id, as evidence stores it. */
export function jobIdFingerprintOf(providerJobId: string): `sha256:${string}` {
  return fingerprint('provider-job-id', providerJobId);
}

/** Fingerprint of an idempotency key, as evidence stores it. */
export function idempotencyKeyFingerprintOf(key: string): `sha256:${string}` {
  return fingerprint('idempotency-key', key);
}

/** ISO UTC timestamp of epoch milliseconds. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** Counts of a terminal's result (no content). */
export function countsOfTerminal(terminal: AdapterTerminalOutcomeV4): Counts {
  if (terminal.status !== 'completed') return {};
  const result = terminal.result;
  switch (result.kind) {
    case 'chat': {
      let textCharacters = 0;
      let toolCalls = 0;
      for (const part of result.content) {
        if (part.type === 'text') textCharacters += part.text.length;
        if (part.type === 'tool-call') toolCalls += 1;
      }
      return { textCharacters, toolCalls };
    }
    case 'embedding':
      return { vectors: result.vectors.length, dimensions: result.dimensions };
    case 'image-generation':
    case 'image-edit':
      return { images: result.images.length };
    case 'rerank':
      return { rankedItems: result.results.length };
    case 'token-count':
      return {};
    default: {
      const unknownResult: never = result;
      return unknownResult;
    }
  }
}

function terminalFacts(terminal: AdapterTerminalOutcomeV4): NonNullable<CaseEvidenceV1['terminal']> {
  if (terminal.status === 'completed') return { status: 'completed', ...(terminal.finishReason === undefined ? {} : { finishReason: terminal.finishReason.unified }) };
  if (terminal.status === 'failed') return { status: 'failed', failureCode: terminal.failure.code };
  return { status: 'cancelled' };
}

const USAGE_V1_FIELDS = Object.keys(usageV1Schema.shape) as (keyof UsageV1)[];

/** The V1 figures of a usage (the evidence format records those; V3 details are left out). */
function usageOf(usage: UsageV3 | undefined): { usage?: UsageV1 } {
  if (usage === undefined) return {};
  const figures: UsageV1 = {};
  for (const field of USAGE_V1_FIELDS) if (usage[field] !== undefined) figures[field] = usage[field];
  return { usage: figures };
}

/** The partial evidence a case produces; `run-certification` adds the fingerprint and family facts. */
export interface CaseRunResult {
  readonly outcome: CaseOutcomeV1;
  readonly terminal?: CaseEvidenceV1['terminal'];
  readonly job?: Job;
  readonly usage?: UsageV1;
  readonly counts: Counts;
  readonly error?: CaseEvidenceV1['error'];
}

/** Describes an error of an engine operation as a bounded code (the transport reason wins when one was seen). */
export function errorFacts(error: unknown, tally: TransportTally): NonNullable<CaseEvidenceV1['error']> {
  if (tally.lastFailure !== undefined) return { kind: 'transport', code: tally.lastFailure.reason };
  if (isProtocolEngineErrorV1(error)) return { kind: 'engine', code: error.code };
  return { kind: 'certification', code: 'UNEXPECTED_ERROR' };
}

async function runSyncOrStream(manifestCase: ManifestCaseV1, context: CaseContext, operations: OperationCountsV1): Promise<CaseRunResult> {
  context.beforeOperation('executionStarts');
  operations.executionStarts += 1;
  const execution = await context.engine.execute({ binding: context.binding, task: manifestCase.task, signal: context.signal });
  if (execution.kind === 'response') {
    const terminal = execution.terminal;
    return {
      outcome: terminal.status === 'completed' ? 'succeeded' : 'failed',
      terminal: terminalFacts(terminal),
      ...usageOf(terminal.status === 'cancelled' ? undefined : terminal.usage),
      counts: countsOfTerminal(terminal),
    };
  }
  if (execution.kind === 'stream') {
    let streamEvents = 0;
    try {
      for await (const _event of execution.events) streamEvents += 1;
    } catch (error) {
      execution.abort(error);
      throw error;
    }
    const terminal = await execution.terminal;
    return {
      outcome: terminal.status === 'completed' ? 'succeeded' : 'failed',
      terminal: terminalFacts(terminal),
      ...usageOf(terminal.status === 'cancelled' ? undefined : terminal.usage),
      counts: { streamEvents, ...countsOfTerminal(terminal) },
    };
  }
  return { outcome: 'error', counts: {}, error: { kind: 'certification', code: 'UNEXPECTED_EXECUTION_KIND' } };
}

function snapshotCounts(snapshot: ProviderAsyncJobSnapshotV2): Counts {
  return snapshot.media === undefined ? {} : { media: snapshot.media.length };
}

async function runAsync(manifestCase: ManifestCaseV1, context: CaseContext, operations: OperationCountsV1): Promise<CaseRunResult> {
  const bounds = manifestCase.async;
  if (bounds === undefined) return { outcome: 'error', counts: {}, error: { kind: 'certification', code: 'ASYNC_BOUNDS_MISSING' } };
  const idempotencyKey = manifestCase.task.idempotencyKey;
  const keyFacts = idempotencyKey === undefined ? {} : { idempotencyKeyFingerprint: idempotencyKeyFingerprintOf(idempotencyKey) };
  const submittedAfterMs = context.now();
  context.beforeOperation('executionStarts');
  operations.executionStarts += 1;
  const execution = await context.engine.execute({ binding: context.binding, task: manifestCase.task, signal: context.signal });
  const submittedBefore = isoOf(context.now());
  const window = { submittedAfter: isoOf(submittedAfterMs), submittedBefore };
  if (execution.kind === 'rejected') {
    return {
      outcome: 'rejected',
      job: { acceptance: execution.acceptance.state, ...keyFacts, ...window, polls: 0, ...failureCodeFacts(execution.failureCode) },
      counts: {},
    };
  }
  if (execution.kind !== 'accepted-job') return { outcome: 'error', counts: {}, error: { kind: 'certification', code: 'UNEXPECTED_EXECUTION_KIND' } };
  const providerJobId = execution.providerJobId;
  const job: { -readonly [K in keyof Job]: Job[K] } = { acceptance: 'accepted', jobIdFingerprint: jobIdFingerprintOf(providerJobId), ...keyFacts, ...window, polls: 0 };
  let snapshot: ProviderAsyncJobSnapshotV2 | undefined;
  try {
    for (let poll = 0; poll < bounds.maxPolls; poll += 1) {
      await context.sleep(bounds.pollIntervalMs, context.signal);
      context.beforeOperation('asyncGetObservations');
      operations.asyncGetObservations += 1;
      job.polls += 1;
      snapshot = (await context.engine.jobs.get({ binding: context.binding, providerJobId, signal: context.signal })).snapshot;
      job.finalState = snapshot.state;
      if (TERMINAL_STATES.has(snapshot.state)) break;
    }
  } catch (error) {
    if (isStopSignal(error)) throw error;
    return { outcome: 'error', job, counts: {}, error: errorFacts(error, context.tally) };
  }
  if (snapshot === undefined || !TERMINAL_STATES.has(snapshot.state)) return { outcome: 'polling-exhausted', job, counts: {} };
  if (snapshot.failure !== undefined) job.failureCode = snapshot.failure.code;
  const facts = { job, ...usageOf(snapshot.usage), counts: snapshotCounts(snapshot) };
  if (snapshot.state !== 'succeeded') return { outcome: 'failed', ...facts };
  if (bounds.listAfterSuccess === true) {
    context.beforeOperation('asyncListObservations');
    operations.asyncListObservations += 1;
    try {
      const page = await context.engine.jobs.list({
        binding: context.binding,
        pageNum: 1,
        pageSize: 50,
        createdAfter: isoOf(submittedAfterMs - SUBMISSION_WINDOW_SKEW_MS),
        signal: context.signal,
      });
      job.listed = page.items.some((item) => item.providerJobId === providerJobId);
    } catch (error) {
      if (isStopSignal(error)) throw error;
      return { outcome: 'error', ...facts, error: errorFacts(error, context.tally) };
    }
    if (!job.listed) return { outcome: 'failed', ...facts };
  }
  return { outcome: 'succeeded', ...facts };
}

function failureCodeFacts(code: string): { failureCode?: Job['failureCode'] } {
  return (PROVIDER_FAILURE_CODES_V3 as readonly string[]).includes(code) ? { failureCode: code as NonNullable<Job['failureCode']> } : {};
}

/** Runs one case through the public engine API. Never cancels a job. Throws only what `beforeOperation` throws. */
export async function runCase(manifestCase: ManifestCaseV1, context: CaseContext, operations: OperationCountsV1): Promise<CaseRunResult> {
  context.tally.lastFailure = undefined;
  try {
    return manifestCase.target.capability.executionMode === 'async-job' ? await runAsync(manifestCase, context, operations) : await runSyncOrStream(manifestCase, context, operations);
  } catch (error) {
    if (isStopSignal(error)) throw error;
    return { outcome: 'error', counts: {}, error: errorFacts(error, context.tally) };
  }
}

const STOP_MARKER = Symbol.for('tokenforge.certification-stop.v1');

/** Thrown by `beforeOperation` to stop the run. */
export class RunStop extends Error {
  readonly reason: 'request-cap';
  constructor(reason: 'request-cap') {
    super(`run stopped: ${reason}`);
    this.reason = reason;
    Object.defineProperty(this, STOP_MARKER, { value: true });
  }
}

/** Whether `error` is a {@link RunStop}. */
export function isStopSignal(error: unknown): error is RunStop {
  return typeof error === 'object' && error !== null && (error as Record<PropertyKey, unknown>)[STOP_MARKER] === true;
}
