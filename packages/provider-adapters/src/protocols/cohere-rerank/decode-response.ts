import { diagnosticForError, reportDiagnostic, type DiagnosticReport } from '../../codec-kit/diagnostic-for-error.js';
import {
  describeUsageInconsistency,
  type AdapterTerminalOutcome,
  type NormalizedProviderFailureV1,
  type RerankResultV1,
} from '@tokenforge/model-protocol';
import { isProtocolViolationError, ProtocolViolationError } from '../../codec-kit/index.js';
import { convertCohereRerankUsage } from './convert-usage.js';
import { readRerankResponse } from './wire-readers.js';

/** What the decoder checks the body against (from the task). */
export interface CohereRerankExpectation {
  /** How many documents were sent: every index must be below it. */
  readonly documentCount: number;
  /** The task's `topN`, when it set one. */
  readonly topN?: number;
}

const PROTOCOL_VIOLATION_FAILURE: NormalizedProviderFailureV1 = Object.freeze({ code: 'protocol-violation', retryable: false });

function decode(body: unknown, expectation: CohereRerankExpectation): AdapterTerminalOutcome {
  const response = readRerankResponse(body);
  const seen = new Set<number>();
  const results: RerankResultV1['results'] = response.results.map((item, position) => {
    if (item.index >= expectation.documentCount) {
      throw new ProtocolViolationError('invalid-event', `cohere-rerank result ${position} index is outside the documents`);
    }
    if (seen.has(item.index)) throw new ProtocolViolationError('invalid-event', `cohere-rerank result ${position} index repeats`);
    seen.add(item.index);
    return { index: item.index, relevanceScore: item.relevance_score };
  });
  // Stable: equal scores keep the provider's order.
  results.sort((left, right) => right.relevanceScore - left.relevanceScore);
  const limit = Math.min(expectation.topN ?? expectation.documentCount, expectation.documentCount);
  if (results.length > limit) results.length = limit;
  const usage = convertCohereRerankUsage(response.usage);
  if (usage !== undefined && describeUsageInconsistency(usage) !== undefined) {
    throw new ProtocolViolationError('usage-inconsistent', 'cohere-rerank usage figures contradict each other');
  }
  return { status: 'completed', result: { kind: 'rerank', results }, ...(usage === undefined ? {} : { usage }) };
}

/**
 * Decodes a parsed rerank response (any shape `readRerankResponse` knows) into a completed rerank terminal.
 *
 * Every index must be below the document count and appear once; every score must be finite. Results are sorted
 * by descending score (Cohere, Jina and Voyage already answer that way; TEI and some vLLM versions may not),
 * keeping the provider's order between equal scores, then cut to `topN` (clamped to the document count): servers
 * that ignore the limit (TEI has none) still give the task what it asked for, the best results first. A body
 * that breaks these rules is a failed `protocol-violation` terminal, never a throw.
 */
export function decodeCohereRerankResponse(body: unknown, expectation: CohereRerankExpectation, report?: DiagnosticReport): AdapterTerminalOutcome {
  try {
    return decode(body, expectation);
  } catch (error) {
    if (isProtocolViolationError(error)) {
      reportDiagnostic(report, diagnosticForError(error, 'protocol-violation'));
      return { status: 'failed', failure: PROTOCOL_VIOLATION_FAILURE };
    }
    throw error;
  }
}
