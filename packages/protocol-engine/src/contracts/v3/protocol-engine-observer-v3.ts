import type { ProviderDiagnosticV3 } from '@tokenforge/model-protocol';

/**
 * What a host may listen to while one execution runs (contract revision V3). Every member is optional; the engine
 * calls a member synchronously and ignores what it returns or throws, so an observer can neither change nor break
 * the execution.
 */
export interface ProtocolEngineObserverV3 {
  /**
   * Host-private detail of a provider failure: which rule refused, where and what was expected, never the offending
   * value, with the provider's request id once the response head is known. Called for failed terminals only;
   * the detail never enters the terminal, the events or anything a client sees.
   */
  onDiagnostic?(diagnostic: ProviderDiagnosticV3): void;
}
