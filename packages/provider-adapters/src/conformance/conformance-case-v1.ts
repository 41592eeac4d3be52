import type {
  AdapterTerminalOutcomeV3,
  NormalizedStreamEventV3,
  PreparedMediaExecutionInputV2,
  ProtocolFamily,
  ProviderAcceptanceFacts,
  ProviderAsyncJobListInputV2,
  ProviderAsyncJobSnapshotV2,
  ProviderDispatchTargetV2,
  ProviderResponseMetadataV3,
  ProviderTransportRequest,
  TaskEnvelopeV2,
} from '@tokenforge/model-protocol';
import type { ProtocolEngineErrorCodeV1, ProtocolEngineErrorPhaseV1 } from '@tokenforge/protocol-engine';
import type { FixtureResponseV1 } from '../testing/fixture-transport.js';
import type { RecordedRequestBodyV1 } from '../testing/record-transport-request.js';

/** One response the fixture transport replays, labelled with its origin. */
export interface ConformanceResponseV1 extends FixtureResponseV1 {
  /** What the response is: the fixture file name, or a short description of a constructed response. */
  readonly label: string;
  /** `recorded`: real provider traffic from a `__fixtures__` file (see its NOTICE); `constructed`: written for an edge case. */
  readonly source: 'recorded' | 'constructed';
}

/**
 * A request the adapter must send, compared exactly with what the fixture transport recorded. Headers are the
 * adapter's own (never credentials: the harness fails any request carrying an authentication header).
 */
export interface ConformanceExpectedRequestV1 {
  /** HTTP method. */
  readonly method: ProviderTransportRequest['method'];
  /** Path below the base URL. */
  readonly path: string;
  /** Query parameters; absent means the adapter sends none. */
  readonly query?: Readonly<Record<string, string>>;
  /** Every header the adapter sends, exactly. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as recorded: JSON after a serialize/parse round trip; multipart fields whole and files by size and SHA-256. */
  readonly body: RecordedRequestBodyV1;
}

/** An engine operation that must fail with a `ProtocolEngineErrorV1`. */
export interface ConformanceEngineErrorExpectationV1 {
  readonly kind: 'engine-error';
  /** The stable engine error code. */
  readonly code: ProtocolEngineErrorCodeV1;
  /** The phase of that code. */
  readonly phase: ProtocolEngineErrorPhaseV1;
  /**
   * Whether the engine asked the binding for a transport before failing. `false` proves a refusal happened
   * before any credential lookup or network (an undeclared job operation). Absent: not checked.
   */
  readonly transportBound?: boolean;
}

/** What the start of a case (`engine.execute`) must produce. `responseMetadata` absent means `{}`. */
export type ConformanceExecutionExpectationV1 =
  | {
      readonly kind: 'response';
      readonly acceptance: ProviderAcceptanceFacts['state'];
      readonly responseMetadata?: ProviderResponseMetadataV3;
      readonly terminal: AdapterTerminalOutcomeV3;
    }
  | {
      readonly kind: 'stream';
      readonly acceptance: ProviderAcceptanceFacts['state'];
      readonly responseMetadata?: ProviderResponseMetadataV3;
      /** Every normalized event, in order (with `abortAfterEvents`, the events received before the abort). */
      readonly events: readonly NormalizedStreamEventV3[];
      /** The settled terminal after the events were drained (`cancelled` after an abort). */
      readonly terminal: AdapterTerminalOutcomeV3;
      /**
       * Abort the stream through `execution.abort` after this many events, to prove the abort path: the terminal
       * must settle and the transport body must be released. Absent: the events are drained.
       */
      readonly abortAfterEvents?: number;
    }
  | {
      readonly kind: 'accepted-job';
      readonly responseMetadata?: ProviderResponseMetadataV3;
      readonly providerJobId: string;
    }
  | {
      readonly kind: 'rejected';
      readonly acceptance: 'not-accepted' | 'unknown';
      readonly responseMetadata?: ProviderResponseMetadataV3;
      readonly failureCode: string;
      readonly retryable: boolean;
    }
  | ConformanceEngineErrorExpectationV1;

/** One job operation after the start of an async case, with its expected outcome. */
export type ConformanceJobStepV1 =
  | {
      readonly operation: 'get';
      readonly providerJobId: string;
      readonly expect: { readonly kind: 'observation'; readonly snapshot: ProviderAsyncJobSnapshotV2 } | ConformanceEngineErrorExpectationV1;
    }
  | {
      readonly operation: 'list';
      readonly list: ProviderAsyncJobListInputV2;
      readonly expect:
        | {
            readonly kind: 'page';
            readonly items: readonly ProviderAsyncJobSnapshotV2[];
            readonly total: number;
            /** `exact` when the provider reported the total, `lower-bound` when the adapter counted it. */
            readonly totalKind: 'exact' | 'lower-bound';
            /** Pages a full reconciliation of the window needs, when the adapter knows. */
            readonly pagesForWindow?: number;
          }
        | ConformanceEngineErrorExpectationV1;
    }
  | {
      readonly operation: 'cancel';
      readonly providerJobId: string;
      readonly expect: { readonly kind: 'cancelled' } | ConformanceEngineErrorExpectationV1;
    };

/**
 * One conformance case of a protocol family: a target, a task, the responses to replay, and every fact the public
 * engine API must report, plus every request the adapter must send. The harness runs it through
 * `createProtocolEngineV1` with a fixture transport; nothing reaches into the adapter.
 */
export interface ConformanceCaseV1 {
  /** Unique within its family; names the behaviour (`stream with tool call and usage`). */
  readonly name: string;
  /** The resolved target and its capability facts; `capability.protocolFamily` must be the family the case is listed under. */
  readonly target: ProviderDispatchTargetV2;
  /** The task. */
  readonly task: TaskEnvelopeV2;
  /** Prepared media (image edits). */
  readonly preparedMedia?: PreparedMediaExecutionInputV2;
  /** The callback URL to pass with an async start. */
  readonly providerCallbackUrl?: string;
  /** Responses the fixture transport replays in order, across the start and every job step; all must be consumed. */
  readonly responses: readonly ConformanceResponseV1[];
  /** What `engine.execute` must produce. */
  readonly expect: ConformanceExecutionExpectationV1;
  /** Async families: job operations after the start, in order, each on the same binding. */
  readonly jobSteps?: readonly ConformanceJobStepV1[];
  /** Every request the adapter must send, in order, across the start and the job steps. */
  readonly requests: readonly ConformanceExpectedRequestV1[];
}

/** Conformance cases by family. Every family in `engine.protocolFamilies` needs at least one case. */
export type ConformanceCaseMapV1 = Readonly<Partial<Record<ProtocolFamily, readonly ConformanceCaseV1[]>>>;
