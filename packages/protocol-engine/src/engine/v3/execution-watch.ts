import type { AdapterTerminalOutcomeV4 } from '@tokenforge/model-protocol';
import type { ProtocolEngineObservationV3 } from '../../contracts/v3/protocol-engine-observer-v3.js';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError, isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import { isRecord } from '../../validation/v1/input-guards.js';
import { createDiagnosticSink, type DiagnosticSink } from './diagnostic-sink.js';

type Observation = ProtocolEngineObservationV3;
/** An observation as the engine writes it; the watch adds the clock reading. */
type Fact = Observation extends infer O ? (O extends Observation ? Omit<O, 'atMs'> : never) : never;

/**
 * What the engine does for a host that observes one operation: the diagnostics sink, and the lifecycle facts with
 * their clock readings. Absent (undefined) when the host passed no observer, so an unobserved execution pays nothing.
 */
export interface ExecutionWatch {
  readonly diagnostics: DiagnosticSink | undefined;
  /** Delivers one fact; a throwing observer changes nothing. */
  observe(fact: Fact): void;
  /** Reports how an execution ended from its terminal (and the failed attempt first, for a failed terminal). */
  finished(terminal: AdapterTerminalOutcomeV4, acceptance: 'accepted' | 'not-accepted' | 'unknown'): void;
  /** Reports an execution that ended with an engine error. */
  failed(error: unknown): void;
}

/** Reads the host's observer (the input stage): `undefined` without one; members present must be functions. */
export function watchOf(observer: unknown): ExecutionWatch | undefined {
  if (observer === undefined) return undefined;
  if (!isRecord(observer)) throw engineError(CODES.INPUT_INVALID, 'the observer must be an object');
  const { onDiagnostic, onObservation } = observer;
  if ((onDiagnostic !== undefined && typeof onDiagnostic !== 'function') || (onObservation !== undefined && typeof onObservation !== 'function')) {
    throw engineError(CODES.INPUT_INVALID, 'the observer members must be functions');
  }
  const diagnostics = createDiagnosticSink(onDiagnostic, observer);
  if (onObservation === undefined) return diagnostics === undefined ? undefined : { ...SILENT, diagnostics };
  // Each fact is a fresh object the host alone receives: the clock reading is written into it (no copy, no freeze).
  const observe = (fact: Fact): void => {
    (fact as { atMs?: number }).atMs = performance.now();
    try {
      (onObservation as (observation: Observation) => void).call(observer, fact as Observation);
    } catch {
      // The observer cannot change or break the execution.
    }
  };
  return {
    diagnostics,
    observe,
    finished: (terminal, acceptance) => {
      if (terminal.status === 'failed') {
        observe({ type: 'attempt-failed', code: terminal.failure.code, retryable: terminal.failure.retryable, acceptance });
      }
      const finishReason = terminal.status === 'completed' ? terminal.finishReason?.unified : undefined;
      observe({
        type: 'execution-finished',
        status: terminal.status,
        ...(terminal.status === 'failed' ? { failureCode: terminal.failure.code } : {}),
        ...(terminal.status !== 'cancelled' && terminal.usage !== undefined ? { usage: terminal.usage } : {}),
        ...(finishReason === undefined ? {} : { finishReason }),
      });
    },
    failed: (error) => observe({ type: 'execution-finished', status: 'error', ...(isProtocolEngineErrorV1(error) ? { failureCode: error.code } : {}) }),
  };
}

const SILENT: Omit<ExecutionWatch, 'diagnostics'> = {
  observe: () => undefined,
  finished: () => undefined,
  failed: () => undefined,
};
