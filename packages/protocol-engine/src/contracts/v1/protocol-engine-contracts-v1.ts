import type {
  AdapterTerminalOutcomeV4,
  NormalizedStreamEventV4,
  PreparedMediaExecutionInputV2,
  ProtocolFamily,
  ProviderAcceptanceFacts,
  ProviderAdapterFactory,
  ProviderAsyncJobAdapterFactory,
  ProviderAsyncJobListInputV2,
  ProviderAsyncJobListPageV2,
  ProviderAsyncJobSnapshotV2,
  ProviderDispatchTargetV2,
  ProviderDispatchTargetV3,
  ProviderResponseMetadataV3,
  ProviderTransport,
  TaskEnvelopeV4,
} from '@tokenforge/model-protocol';
import type { ProtocolEngineApiVersion } from './api-version.js';
import type { ProtocolEngineObserverV3 } from '../v3/protocol-engine-observer-v3.js';

/** The optional observer every public operation takes since contract revision V3. */
interface ObservedV3 {
  /** Listens to this operation (see `ProtocolEngineObserverV3`). */
  readonly observer?: ProtocolEngineObserverV3;
}

/**
 * The resolved target the engine dispatches to: provider identity (opaque), wire model, connection, capability.
 * The capability may be V2 or V3; the engine reads a valid V2 target's capability with `protocolCapabilityFromV2`,
 * so every V2 target behaves as before.
 */
export type ProtocolEngineDispatchTargetV1 = ProviderDispatchTargetV2 | ProviderDispatchTargetV3;

/**
 * A request-scoped pairing of one resolved target with the host's transport factory. Build it with
 * `createProtocolEngineTargetBindingV1`, which refuses connection substitution before the host factory runs.
 */
export interface ProtocolEngineTargetBindingV1 {
  /** The resolved target (dispatch facts only: no credentials, base URLs, tenants or prices). */
  readonly target: ProtocolEngineDispatchTargetV1;
  /**
   * Binds a credential-bound transport for `connectionRef`, which must equal `target.connectionRef`.
   * Called at most once per engine operation, after every input and capability check passed.
   */
  bindTransport(connectionRef: string, signal: AbortSignal): Promise<ProviderTransport>;
}

/** Input of `createProtocolEngineTargetBindingV1`. */
export interface CreateProtocolEngineTargetBindingInputV1 {
  /** The target the host resolved for this request. */
  readonly target: ProtocolEngineDispatchTargetV1;
  /**
   * The host's factory: looks up credentials for `target.connectionRef` and returns a transport for this request.
   * Receives the operation's abort signal. Never runs for a mismatched connection reference.
   */
  bindTransport(signal: AbortSignal): Promise<ProviderTransport> | ProviderTransport;
}

/** The adapter registry the engine dispatches through. */
export interface ProtocolEngineAdapterRegistryPortV1 {
  /** Every family the registry serves. Read once, when the engine is created; the snapshot is the dispatch authority. */
  listProtocolFamilies(): readonly ProtocolFamily[];
  /** The sync/stream factory of a family (targets whose capability says `sync` or `stream-capable`). */
  require(protocolFamily: ProtocolFamily): ProviderAdapterFactory;
  /** The async job factory of a family (targets whose capability says `async-job`). Optional without async families. */
  requireAsync?(protocolFamily: ProtocolFamily): ProviderAsyncJobAdapterFactory;
}

/** Input of `engine.execute`. */
export interface ProtocolEngineExecuteInputV1 {
  /** The resolved target and the request's transport binder. */
  readonly binding: ProtocolEngineTargetBindingV1;
  /** The normalized task (validated again by the engine against `TaskEnvelopeV4`; every V2 task is one). */
  readonly task: TaskEnvelopeV4;
  /** The request's abort signal, passed to the transport binder and the adapter. */
  readonly signal: AbortSignal;
  /** Media the host prepared (image edits only). */
  readonly preparedMedia?: PreparedMediaExecutionInputV2;
  /** Callback URL for an async provider job (https, no userinfo; needs the `callbackUrl` capability). */
  readonly providerCallbackUrl?: string;
}

interface ProtocolEngineExecutionBaseV1 {
  /** Always `tokenforge-protocol-engine/v1`. */
  readonly apiVersion: ProtocolEngineApiVersion;
  /** Whether the provider took the request on. */
  readonly acceptance: ProviderAcceptanceFacts;
  /** Operator-facing facts about the provider response (request id, served model, rate limits). */
  readonly responseMetadata: ProviderResponseMetadataV3;
}

/** A sync execution: the validated terminal outcome (a provider failure is a `failed` terminal, not an error). */
export interface ProtocolEngineResponseV1 extends ProtocolEngineExecutionBaseV1 {
  /** Discriminant: a sync execution. */
  readonly kind: 'response';
  /** The validated, frozen terminal outcome. */
  readonly terminal: AdapterTerminalOutcomeV4;
}

/**
 * A stream execution. The host must either iterate `events` to the end or call `abort`: until one of them
 * happens the transport stays bound and `terminal` stays pending.
 */
export interface ProtocolEngineStreamV1 extends ProtocolEngineExecutionBaseV1 {
  /** Discriminant: a stream execution. */
  readonly kind: 'stream';
  /**
   * Validated events, pulled one adapter part per consumer pull. Iterable once; a second iteration throws
   * `STREAM_MISUSE`. Its iterator also offers `ADAPTER_STREAM_TAKE_BUFFERED_V1` (from model-protocol): the next
   * event, validated, when the adapter already holds it, else `undefined` (the next event needs a pull, the stream
   * ended, or the take failed; `next()` then says which), so a host can gather the events of one upstream read
   * into one write.
   */
  readonly events: AsyncIterable<NormalizedStreamEventV4>;
  /**
   * Settles when the events are drained (the adapter's terminal), on abort or early exit (`cancelled`), or
   * rejects with the same `ProtocolEngineErrorV1` the event iterator threw. Never an unhandled rejection.
   */
  readonly terminal: Promise<AdapterTerminalOutcomeV4>;
  /** Stops the stream: releases the transport and settles `terminal` as `cancelled`. No-op once settled. */
  abort(reason: unknown): void;
}

/** An async start the provider durably accepted. Persist `providerJobId` to observe it later. */
export interface ProtocolEngineAcceptedJobV1 extends ProtocolEngineExecutionBaseV1 {
  /** Discriminant: an accepted async start. */
  readonly kind: 'accepted-job';
  /** Always `accepted`. */
  readonly acceptance: { readonly state: 'accepted' };
  /** The provider's opaque job id. */
  readonly providerJobId: string;
}

/**
 * An async start that was not accepted (`not-accepted`) or may have been (`unknown`). Never blindly retry an
 * `unknown` start: it could create a duplicate paid job.
 */
export interface ProtocolEngineRejectedV1 extends ProtocolEngineExecutionBaseV1 {
  /** Discriminant: an async start that was not (or may not have been) accepted. */
  readonly kind: 'rejected';
  /** `not-accepted`: no job exists. `unknown`: a job may exist; do not resend blindly. */
  readonly acceptance: { readonly state: 'not-accepted' | 'unknown' };
  /** The normalized provider failure code (one of model-protocol's `PROVIDER_FAILURE_CODES_V3`). */
  readonly failureCode: string;
  /** Whether resending may succeed; always `false` when the state is `unknown`. */
  readonly retryable: boolean;
}

/** What `engine.execute` resolves with. Handle every kind. */
export type ProtocolEngineExecutionV1 =
  | ProtocolEngineResponseV1
  | ProtocolEngineStreamV1
  | ProtocolEngineAcceptedJobV1
  | ProtocolEngineRejectedV1;

/** An engine over one registry snapshot. Stateless per request; share it freely. */
export interface ProtocolEngineV1 {
  /** Always `tokenforge-protocol-engine/v1`. */
  readonly apiVersion: ProtocolEngineApiVersion;
  /** The sorted, frozen registry snapshot: the only families the engine dispatches to. */
  readonly protocolFamilies: readonly ProtocolFamily[];
  /**
   * Validates the task against the target, dispatches it and validates what the adapter returns. Takes the V3
   * input (`ProtocolEngineExecuteInputV3`: a V1 input with an optional observer) since contract revision V3.
   */
  execute(input: ProtocolEngineExecuteInputV1 & ObservedV3): Promise<ProtocolEngineExecutionV1>;
  /** Operations on accepted async jobs. */
  readonly jobs: ProtocolEngineAsyncJobsV1;
}

/** Input of `engine.jobs.get` and `engine.jobs.cancel`. */
export interface ProtocolEngineAsyncJobInputV1 {
  /** The binding of the target that accepted the job. */
  readonly binding: ProtocolEngineTargetBindingV1;
  /** The id from the `accepted-job` execution. */
  readonly providerJobId: string;
  /** Aborts the operation. */
  readonly signal: AbortSignal;
}

/** Input of `engine.jobs.list`: the page and window, the binding and the signal. */
export interface ProtocolEngineAsyncJobListRequestV1 extends ProviderAsyncJobListInputV2 {
  /** The binding of the target whose jobs to list. */
  readonly binding: ProtocolEngineTargetBindingV1;
  /** Aborts the operation. */
  readonly signal: AbortSignal;
}

/** The validated snapshot of one job. */
export interface ProtocolEngineAsyncJobObservationV1 {
  /** Always `tokenforge-protocol-engine/v1`. */
  readonly apiVersion: ProtocolEngineApiVersion;
  /** What the provider says about the job now. */
  readonly snapshot: ProviderAsyncJobSnapshotV2;
}

/** One validated page of jobs. */
export interface ProtocolEngineAsyncJobListResultV1 {
  /** Always `tokenforge-protocol-engine/v1`. */
  readonly apiVersion: ProtocolEngineApiVersion;
  /** The jobs on the page (inside the requested creation window). */
  readonly items: readonly ProviderAsyncJobSnapshotV2[];
  /** The provider's total, or the number of items through this page (see `totalKind`). */
  readonly total: number;
  /** `exact` when the provider reported the total, `lower-bound` when the adapter counted it. */
  readonly totalKind?: ProviderAsyncJobListPageV2['totalKind'];
  /** Pages a full reconciliation of the window needs at this page size, when known. */
  readonly pagesForWindow?: number;
}

/** A provider acknowledged a cancellation request (the job may still finish; observe it with `get`). */
export interface ProtocolEngineAsyncJobCancellationV1 {
  /** Always `tokenforge-protocol-engine/v1`. */
  readonly apiVersion: ProtocolEngineApiVersion;
}

/** Async job operations. An operation the family's factory does not declare fails before any transport is bound. */
export interface ProtocolEngineAsyncJobsV1 {
  /** Reads one job. */
  get(input: ProtocolEngineAsyncJobInputV1 & ObservedV3): Promise<ProtocolEngineAsyncJobObservationV1>;
  /** Reads one page of jobs. */
  list(input: ProtocolEngineAsyncJobListRequestV1 & ObservedV3): Promise<ProtocolEngineAsyncJobListResultV1>;
  /** Asks the provider to cancel one job. */
  cancel(input: ProtocolEngineAsyncJobInputV1 & ObservedV3): Promise<ProtocolEngineAsyncJobCancellationV1>;
}
