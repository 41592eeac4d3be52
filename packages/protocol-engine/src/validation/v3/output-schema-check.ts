import { validateJsonOutputTextV3, type AdapterTerminalOutcomeV4, type ProviderDiagnosticV3, type TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { deepFreeze } from '../v1/deep-freeze.js';

/** Turns a validated terminal into the one the host receives: the same, or a failed `output-schema-mismatch`. */
export type OutputSchemaCheck = (outcome: AdapterTerminalOutcomeV4) => AdapterTerminalOutcomeV4;

/** Longest diagnostic text (the contract bound). */
const TEXT_MAX = 512;
/** Finish reasons whose text is not meant as the final answer (cut short, filtered, refused, or a tool turn). */
const NOT_AN_ANSWER = new Set(['length', 'content-filter', 'refusal', 'tool-calls']);

/**
 * The terminal check of a task that asked for a JSON schema, or `undefined` for every other task (so the hot path
 * pays one property read). A completed chat terminal whose answer is final (no tool call or refusal part, finish
 * reason absent, `stop` or `other`) must hold text that parses as JSON and matches the schema; a `mismatch` verdict
 * becomes a failed terminal with code `output-schema-mismatch`, not retryable, usage kept. An `unsupported` verdict
 * (a keyword the bounded validator does not check) passes: the provider or the client decides. Where the output
 * broke the schema goes to the host's diagnostics, never into the terminal.
 */
export function outputSchemaCheckFor(task: TaskEnvelopeV4, report?: (diagnostic: ProviderDiagnosticV3) => void): OutputSchemaCheck | undefined {
  if (task.kind !== 'chat') return undefined;
  const format = task.responseFormat;
  if (format === undefined || format.type !== 'json' || format.schema === undefined) return undefined;
  const schema = format.schema;
  return (outcome) => {
    if (outcome.status !== 'completed' || outcome.result.kind !== 'chat') return outcome;
    const unified = outcome.finishReason?.unified;
    if (unified !== undefined && NOT_AN_ANSWER.has(unified)) return outcome;
    let text = '';
    for (const part of outcome.result.content) {
      if (part.type === 'tool-call' || part.type === 'refusal') return outcome;
      if (part.type === 'text') text += part.text;
    }
    const verdict = validateJsonOutputTextV3(schema, text);
    if (verdict.status !== 'mismatch') return outcome;
    report?.({ code: 'output-schema-mismatch', rule: verdict.rule.slice(0, TEXT_MAX), location: verdict.path.slice(0, TEXT_MAX) });
    const failure = { code: 'output-schema-mismatch', retryable: false } as const;
    return deepFreeze(outcome.usage === undefined ? { status: 'failed', failure } : { status: 'failed', failure, usage: outcome.usage });
  };
}
