import { providerDiagnosticV3Schema, type ProviderDiagnosticV3 } from '@tokenforge/model-protocol';
import { deepFreeze } from '../../validation/v1/deep-freeze.js';

/** Where an execution's diagnostics go: the adapter reports, the engine checks and forwards to the host's observer. */
export interface DiagnosticSink {
  /** The callback handed to the adapter as `reportDiagnostic`. */
  readonly report: (diagnostic: ProviderDiagnosticV3) => void;
  /**
   * The response head is known: diagnostics held until now are delivered, with the provider's request id when the
   * adapter gave none, and later ones go straight through. Idempotent.
   */
  open(providerRequestId: string | undefined): void;
}

/**
 * A sink for the host's `onDiagnostic`, or `undefined` when the host does not listen (then the adapter gets no
 * callback and builds no diagnostics). A diagnostic that breaks its schema (an adapter defect) is dropped: it must
 * never fail the execution it describes, nor carry more than the schema allows. The host's callback may throw; the
 * engine ignores that.
 */
export function createDiagnosticSink(onDiagnostic: unknown, receiver: unknown): DiagnosticSink | undefined {
  if (typeof onDiagnostic !== 'function') return undefined;
  let held: ProviderDiagnosticV3[] | undefined = [];
  let requestId: string | undefined;
  const deliver = (diagnostic: ProviderDiagnosticV3): void => {
    const withId = diagnostic.providerRequestId === undefined && requestId !== undefined ? { ...diagnostic, providerRequestId: requestId } : diagnostic;
    try {
      onDiagnostic.call(receiver, deepFreeze(withId));
    } catch {
      // The observer cannot change or break the execution.
    }
  };
  return {
    report: (diagnostic) => {
      const parsed = providerDiagnosticV3Schema.safeParse(diagnostic);
      if (!parsed.success) return;
      if (held === undefined) deliver(parsed.data);
      else held.push(parsed.data);
    },
    open: (providerRequestId) => {
      if (held === undefined) return;
      requestId = providerRequestId;
      const pending = held;
      held = undefined;
      for (const diagnostic of pending) deliver(diagnostic);
    },
  };
}
