import type { ProtocolFamily, ProviderDiagnosticV3, UsageV3 } from '@tokenforge/model-protocol';

/** How an observed execution ended (contract revision V3). */
export type ProtocolEngineExecutionEndV3 = 'completed' | 'failed' | 'cancelled' | 'accepted-job' | 'rejected' | 'error';

/**
 * One lifecycle fact of an observed execution (contract revision V3). `atMs` is a monotonic clock reading
 * (`performance.now()`), comparable within one process only. Facts only: never a prompt, an output, a credential,
 * a provider name or a provider model.
 */
export type ProtocolEngineObservationV3 =
  | {
      /** The task passed every check and goes to the adapter. */
      readonly type: 'execution-dispatched';
      readonly atMs: number;
      /** The protocol family of the target. */
      readonly protocolFamily: ProtocolFamily;
      /** The task kind. */
      readonly taskKind: string;
      /** Whether the task asked for a stream. */
      readonly streamed: boolean;
    }
  | {
      /** The host's binding returned a transport. */
      readonly type: 'transport-bound';
      readonly atMs: number;
    }
  | {
      /** The host received the stream's first event. */
      readonly type: 'stream-started';
      readonly atMs: number;
    }
  | {
      /** The provider did not do the work: a failed terminal or a rejected start. */
      readonly type: 'attempt-failed';
      readonly atMs: number;
      /** The normalized failure code. */
      readonly code: string;
      /** Whether the same request may succeed when sent again. */
      readonly retryable: boolean;
      /** Whether the provider took the request on. */
      readonly acceptance: 'accepted' | 'not-accepted' | 'unknown';
    }
  | {
      /** The execution ended; for a stream, when its terminal settled. */
      readonly type: 'execution-finished';
      readonly atMs: number;
      /** How it ended; `error` is a thrown or rejected engine error. */
      readonly status: ProtocolEngineExecutionEndV3;
      /** The failure code of a failed terminal or rejected start, or the engine error code. */
      readonly failureCode?: string;
      /** The terminal's usage, when it reported any. */
      readonly usage?: UsageV3;
      /** The unified finish reason of a completed chat. */
      readonly finishReason?: string;
    };

/**
 * What a host may listen to while one execution or job operation runs (contract revision V3). Every member is
 * optional and, when present, must be a function (anything else is INPUT_INVALID). The engine calls members
 * synchronously and ignores what they return or throw, so an observer can neither change nor break the operation.
 */
export interface ProtocolEngineObserverV3 {
  /**
   * Host-private detail of a provider failure: which rule refused, where and what was expected, never the offending
   * value, with the provider's request id once the response head is known. Called for failures only; the detail
   * never enters the terminal, the events or anything a client sees.
   */
  onDiagnostic?(diagnostic: ProviderDiagnosticV3): void;
  /** Lifecycle facts of an execution, in order (see {@link ProtocolEngineObservationV3}). */
  onObservation?(observation: ProtocolEngineObservationV3): void;
}
