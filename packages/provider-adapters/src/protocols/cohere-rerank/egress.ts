import type { AdapterTerminalOutcome, EgressCodecV1, EgressContextV1, EgressFailureV3, EgressHttpResponseV1, UsageV1 } from '@tokenforge/model-protocol';
import { encodeCohereRerankError } from './encode-client-error.js';
import { COHERE_RERANK_PROTOCOL_FAMILY } from './protocol-family.js';

const encoder = new TextEncoder();
const CANCELLED_FAILURE: EgressFailureV3 = { source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' };
/** Not an engine code: the error table writes it as a 500 internal error. */
const INTERNAL_FAILURE: EgressFailureV3 = { source: 'engine', code: 'internal' };

function encodeMeta(usage: UsageV1 | undefined): Record<string, unknown> {
  const tokens = {
    ...(usage?.inputTokens === undefined ? {} : { input_tokens: usage.inputTokens }),
    ...(usage?.outputTokens === undefined ? {} : { output_tokens: usage.outputTokens }),
  };
  return {
    api_version: { version: '2' },
    ...(usage?.searchUnits === undefined ? {} : { billed_units: { search_units: usage.searchUnits } }),
    ...(Object.keys(tokens).length === 0 ? {} : { tokens }),
  };
}

function encodeResponse(outcome: AdapterTerminalOutcome, context: EgressContextV1): EgressHttpResponseV1 {
  switch (outcome.status) {
    case 'failed':
      return encodeCohereRerankError({ source: 'provider', failure: outcome.failure }, context.responseId);
    case 'cancelled':
      return encodeCohereRerankError(CANCELLED_FAILURE, context.responseId);
    case 'completed':
      break;
    default: {
      const unknownOutcome: never = outcome;
      void unknownOutcome;
      return encodeCohereRerankError(INTERNAL_FAILURE, context.responseId);
    }
  }
  if (outcome.result.kind !== 'rerank') return encodeCohereRerankError(INTERNAL_FAILURE, context.responseId);
  const body = {
    id: context.responseId,
    results: outcome.result.results.map((item) => ({ index: item.index, relevance_score: item.relevanceScore })),
    meta: encodeMeta(outcome.usage),
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(body)) };
}

/**
 * Creates the `cohere-rerank/v1` egress codec. A completed rerank terminal becomes a Cohere v2 response:
 * `id` from the context, `results[{index, relevance_score}]` most relevant first, and `meta` with
 * `api_version.version: "2"`, `billed_units.search_units` when search units are known and `tokens` when token
 * counts are (a token total alone has no Cohere field and is not written). Failures use Cohere's `{id, message}`
 * envelope (see `encodeCohereRerankError`). No stream encoder: rerank does not stream.
 */
export function createCohereRerankEgressCodec(): EgressCodecV1 {
  return Object.freeze({
    protocolFamily: COHERE_RERANK_PROTOCOL_FAMILY,
    encodeResponse,
    encodeError: (failure: EgressFailureV3, context: EgressContextV1) => encodeCohereRerankError(failure, context.responseId),
  });
}
