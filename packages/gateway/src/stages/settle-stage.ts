import type { AdapterTerminalOutcomeV4, UsageV3 } from '@tokenforge/model-protocol';
import type { RequestScope } from '../pipeline/request-scope.js';

/**
 * Folds the outcome of one attempt into the request's facts (and settles its governance admission); a second call
 * for the same attempt does nothing. `streamedUsage` is the latest usage event of a stream (a stream cut before its
 * terminal has no terminal usage); `outcome` is the operator log outcome of the attempt's answer.
 */
export type SettleAttempt = (terminal: AdapterTerminalOutcomeV4 | undefined, streamedUsage?: UsageV3, outcome?: string) => void;

/** What settles an attempt's governance admission (called once, with the same arguments). */
export type SettleGovernance = (terminal: AdapterTerminalOutcomeV4 | undefined, streamedUsage: UsageV3 | undefined, outcome: string) => void;

/**
 * The settlement of one attempt: a completed terminal's usage, cost and finish reason become the request's, and the
 * attempt's governance admission is settled. Only the first call counts, so an attempt is never settled twice.
 */
export function createSettleStage(scope: RequestScope, settleGovernance?: SettleGovernance): SettleAttempt {
  let settled = false;
  return (terminal, streamedUsage, outcome) => {
    if (settled) return;
    settled = true;
    settleGovernance?.(terminal, streamedUsage, outcome ?? terminal?.status ?? 'cancelled');
    if (terminal === undefined || terminal.status !== 'completed') return;
    if (terminal.usage !== undefined) scope.facts.usage = terminal.usage;
    if (terminal.cost !== undefined) scope.facts.cost = terminal.cost;
    if (terminal.finishReason !== undefined) scope.facts.finishReason = terminal.finishReason;
  };
}
