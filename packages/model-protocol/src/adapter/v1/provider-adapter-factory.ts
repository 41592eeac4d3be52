import type { ProtocolFamily } from '../../protocol-family/protocol-family.js';
import type { ProtocolCapabilityV3 } from '../../capability/v3/protocol-capability-v3.js';
import type { TaskEnvelopeV4 } from '../../task/v4/task-envelope-v4.js';
import type { ProviderTransport } from '../../transport/v1/provider-transport.js';
import type { PreparedMediaExecutionInputV2 } from '../../media/v2/prepared-media-v2.js';
import type { NormalizedStreamEventV4 } from '../../stream/v4/normalized-stream-event-v4.js';
import type { AdapterTerminalOutcomeV4 } from '../../outcome/v4/adapter-terminal-outcome-v4.js';
import type { NormalizedProviderFailureV3, ProviderDiagnosticV3 } from '../../outcome/v3/adapter-terminal-outcome-v3.js';
import type { ProviderAcceptanceFacts } from '../../outcome/v1/provider-acceptance-facts.js';
import type { ProviderResponseMetadataV3 } from '../../outcome/v3/provider-response-metadata-v3.js';
import type {
  ProviderAsyncJobListInputV2,
  ProviderAsyncJobListPageV2,
  ProviderAsyncJobSnapshotV2,
} from '../../job/v2/provider-async-job-v2.js';

/*
 * The adapter port. Its names keep their V1 spelling; the shapes it carries are the V3 revision of the contracts
 * (task, capability, events, terminal, metadata, failure), each a superset of its V1/V2 twin: every V1/V2 value
 * an adapter used to receive or return is still a valid one.
 */

/** The dispatch facts an adapter may read: the wire model name and the capability. Never credentials. */
export interface ProviderAdapterTargetV1 {
  /** Model name to put on the wire. */
  readonly providerModel: string;
  /**
   * The target's declared capability, always in V3 form: the engine reads a host's V2 capability as V3
   * (`protocolCapabilityFromV2`) before any adapter sees it.
   */
  readonly capability: ProtocolCapabilityV3;
}

/** Everything one sync or stream execution needs. */
export interface ProviderAdapterExecuteInputV1 {
  /** The validated task (V4 revision: every V2 and V3 task is one). */
  readonly task: TaskEnvelopeV4;
  /** Dispatch facts. */
  readonly target: ProviderAdapterTargetV1;
  /** The host's credential-bound transport for this request. */
  readonly transport: ProviderTransport;
  /** Aborts the execution (host signal combined with stream abort). */
  readonly signal: AbortSignal;
  /** Prepared media (image edits). */
  readonly preparedMedia?: PreparedMediaExecutionInputV2;
  /**
   * Host-private diagnostics sink. An adapter calls it for wire oddities it tolerated (and may call it to explain
   * a failure it reports): which rule, where, what was expected, never the offending value. What it receives is
   * not a fact: it never enters a terminal, an event or evidence. Absent when the host keeps no diagnostics; an
   * adapter must not depend on it being called or on what it does, and must not let a throw from it escape.
   */
  readonly reportDiagnostic?: (diagnostic: ProviderDiagnosticV3) => void;
}

/** One item an adapter stream yields: a normalized event, or the terminal outcome (exactly once, last). */
export type AdapterStreamPartV1 =
  | NormalizedStreamEventV4
  | { readonly type: 'terminal'; readonly outcome: AdapterTerminalOutcomeV4 };

/**
 * Optional fast path of a stream's parts iterator, under this registered symbol (the same in every realm and
 * package copy). `iterator[ADAPTER_STREAM_TAKE_BUFFERED_V1]()` returns the next part when the adapter already
 * holds it (decoded from bytes that have arrived), without a pull: the part `next()` would have resolved with,
 * consumed as if `next()` had been called. It returns `undefined`, consuming nothing, when the next part needs
 * a read; the caller then calls `next()`. Throwing is a failed pull, as a rejected `next()` would be. An
 * adapter without it is served by `next()` alone; the engine's behaviour is the same either way, only cheaper
 * per event.
 *
 * Why it is part of the contract: the engine and the adapters share nothing but model-protocol, so the one way
 * for the engine to skip a promise and its microtask turns per event is a name both sides import from here. It
 * was added with the stream work that took the engine + openai-chat adapter text stream (2,000 chunks, 1,400-byte
 * reads) from 1.60x to 1.35x its floor in the pooled benchmark report (`docs/benchmarks.md`, commits 392ed34 and
 * 0e7cb6e); without it every event would cost an awaited `next()` however much the adapter already holds.
 */
export const ADAPTER_STREAM_TAKE_BUFFERED_V1: unique symbol = Symbol.for('tokenforge.adapter-stream.take-buffered.v1');

/** The optional method behind {@link ADAPTER_STREAM_TAKE_BUFFERED_V1}, on an adapter stream's parts iterator. */
export interface AdapterStreamTakeBufferedV1 {
  /** The next part if the adapter already holds it, else `undefined` (nothing consumed). */
  [ADAPTER_STREAM_TAKE_BUFFERED_V1]?(): AdapterStreamPartV1 | undefined;
}

/** What a sync or stream execution produced, before the engine validates it. */
export type ProviderAdapterExecutionV1 =
  | {
      readonly kind: 'response';
      readonly acceptance: ProviderAcceptanceFacts;
      readonly responseMetadata: ProviderResponseMetadataV3;
      readonly terminal: AdapterTerminalOutcomeV4;
    }
  | {
      readonly kind: 'stream';
      readonly acceptance: ProviderAcceptanceFacts;
      readonly responseMetadata: ProviderResponseMetadataV3;
      /**
       * Pull-based parts: events, then exactly one terminal. Calling `return()` on its iterator must release
       * the transport body.
       */
      readonly parts: AsyncIterable<AdapterStreamPartV1>;
    };

/** A sync or stream adapter for one request. */
export interface ProviderAdapterV1 {
  /**
   * Runs the task. Provider failures are returned as a `failed` terminal. A transport failure before any
   * response head arrives rejects with the transport's {@link ProviderTransportFailureV1}.
   */
  execute(input: ProviderAdapterExecuteInputV1): Promise<ProviderAdapterExecutionV1>;
}

/** Creates sync or stream adapters for one protocol family. */
export interface ProviderAdapterFactory {
  /** The family this factory implements; must equal the family the engine asked for. */
  readonly protocolFamily: ProtocolFamily;
  /** Creates an adapter. Must not perform I/O. */
  createAdapter(): ProviderAdapterV1;
}

/** Async job operations after the start. */
export const ASYNC_JOB_OPERATIONS_V1 = ['get', 'list', 'cancel'] as const;
export type AsyncJobOperationV1 = (typeof ASYNC_JOB_OPERATIONS_V1)[number];

/** Everything one async start needs. */
export interface ProviderAsyncJobStartInputV1 extends ProviderAdapterExecuteInputV1 {
  /** The callback URL the host chose, when the capability allows callbacks. */
  readonly providerCallbackUrl?: string;
}

/** The outcome of an async start, before the engine validates it. */
export type ProviderAsyncJobStartOutcomeV1 =
  | {
      readonly acceptance: { readonly state: 'accepted' };
      readonly responseMetadata: ProviderResponseMetadataV3;
      /** The provider's job id. */
      readonly providerJobId: string;
    }
  | {
      readonly acceptance: { readonly state: 'not-accepted' | 'unknown' };
      readonly responseMetadata: ProviderResponseMetadataV3;
      /** Why the start was not accepted (or may not have been). `unknown` starts are never retryable. */
      readonly failure: NormalizedProviderFailureV3;
    };

/** Input of get and cancel. */
export interface ProviderAsyncJobOperationInputV1 {
  /** Dispatch facts. */
  readonly target: ProviderAdapterTargetV1;
  /** The provider job id from the accepted start. */
  readonly providerJobId: string;
  /** The host's transport. */
  readonly transport: ProviderTransport;
  /** Aborts the operation. */
  readonly signal: AbortSignal;
  /** Host-private detail of a failure the adapter answers (as on the execute input). Added by contract revision V3. */
  readonly reportDiagnostic?: (diagnostic: ProviderDiagnosticV3) => void;
}

/** Input of list. */
export interface ProviderAsyncJobListOperationInputV1 {
  /** Dispatch facts. */
  readonly target: ProviderAdapterTargetV1;
  /** Which page and window. */
  readonly list: ProviderAsyncJobListInputV2;
  /** The host's transport. */
  readonly transport: ProviderTransport;
  /** Aborts the operation. */
  readonly signal: AbortSignal;
  /** Host-private detail of a failure the adapter answers (as on the execute input). Added by contract revision V3. */
  readonly reportDiagnostic?: (diagnostic: ProviderDiagnosticV3) => void;
}

/** Result of a job operation: the value, or a normalized provider failure. */
export type ProviderAsyncJobOperationResultV1<T> =
  | { readonly status: 'ok'; readonly value: T }
  | { readonly status: 'failed'; readonly failure: NormalizedProviderFailureV3 };

/** An async job adapter for one request. Operations it does not declare are absent. */
export interface ProviderAsyncJobAdapterV1 {
  /** Submits the job. Never throws for provider or transport failures: they become `not-accepted` or `unknown`. */
  start(input: ProviderAsyncJobStartInputV1): Promise<ProviderAsyncJobStartOutcomeV1>;
  /** Reads one job. */
  get?(input: ProviderAsyncJobOperationInputV1): Promise<ProviderAsyncJobOperationResultV1<ProviderAsyncJobSnapshotV2>>;
  /** Reads one page of jobs. */
  list?(input: ProviderAsyncJobListOperationInputV1): Promise<ProviderAsyncJobOperationResultV1<ProviderAsyncJobListPageV2>>;
  /** Asks the provider to cancel one job. */
  cancel?(input: ProviderAsyncJobOperationInputV1): Promise<ProviderAsyncJobOperationResultV1<null>>;
}

/** Creates async job adapters for one protocol family. */
export interface ProviderAsyncJobAdapterFactory {
  /** The family this factory implements. */
  readonly protocolFamily: ProtocolFamily;
  /** The operations after start that the family supports; the engine refuses the others before binding. */
  readonly jobOperations: readonly AsyncJobOperationV1[];
  /** Creates an adapter. Must not perform I/O. */
  createAdapter(): ProviderAsyncJobAdapterV1;
}
