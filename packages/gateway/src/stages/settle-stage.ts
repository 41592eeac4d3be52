import type { AdapterTerminalOutcomeV3 } from '@tokenforge/model-protocol';
import type { RequestScope } from '../pipeline/request-scope.js';

/** Folds the outcome of one attempt into the request's facts; a second call for the same attempt does nothing. */
export type SettleAttempt = (terminal: AdapterTerminalOutcomeV3 | undefined) => void;

/**
 * The settlement of one attempt: a completed terminal's usage, cost and finish reason become the request's. Only the
 * first call counts, so an attempt is never settled twice.
 */
export function createSettleStage(scope: RequestScope): SettleAttempt {
  let settled = false;
  return (terminal) => {
    if (settled) return;
    settled = true;
    if (terminal === undefined || terminal.status !== 'completed') return;
    if (terminal.usage !== undefined) scope.facts.usage = terminal.usage;
    if (terminal.cost !== undefined) scope.facts.cost = terminal.cost;
    if (terminal.finishReason !== undefined) scope.facts.finishReason = terminal.finishReason;
  };
}
