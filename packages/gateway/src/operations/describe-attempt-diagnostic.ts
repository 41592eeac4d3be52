import type { OperatorLogAttempt } from './operator-log.js';

/** The longest diagnostic a request record keeps (longer ones are cut, ending with `…`). */
export const ATTEMPT_DIAGNOSTIC_MAX_LENGTH = 1000;

/**
 * One line for operators on why an attempt failed, from the attempt's facts only: the engine's host-private
 * diagnostics (the rule, where, what was expected, the provider's request id: never the offending value), the
 * transport's closed stage and reason, and the wait the provider asked for. Undefined when there is nothing to say.
 */
export function describeAttemptDiagnostic(attempt: OperatorLogAttempt): string | undefined {
  const parts: string[] = [];
  for (const diagnostic of attempt.diagnostics ?? []) {
    parts.push(
      [
        `${diagnostic.code}: ${diagnostic.rule}`,
        diagnostic.location === undefined ? undefined : `at ${diagnostic.location}`,
        diagnostic.expected === undefined ? undefined : `expected ${diagnostic.expected}`,
        diagnostic.providerRequestId === undefined ? undefined : `provider request ${diagnostic.providerRequestId}`,
      ]
        .filter((part) => part !== undefined)
        .join(', '),
    );
  }
  if (attempt.transport !== undefined) parts.push(`transport ${attempt.transport.reason} (${attempt.transport.stage})`);
  if (attempt.retryAfterMs !== undefined) parts.push(`retry after ${attempt.retryAfterMs} ms`);
  if (parts.length === 0) return undefined;
  const text = parts.join('; ');
  return text.length <= ATTEMPT_DIAGNOSTIC_MAX_LENGTH ? text : `${text.slice(0, ATTEMPT_DIAGNOSTIC_MAX_LENGTH - 1)}…`;
}
