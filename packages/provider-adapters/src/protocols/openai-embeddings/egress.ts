import type {
  AdapterTerminalOutcome,
  EgressCodecV1,
  EgressContextV1,
  EgressFailureV3,
  EgressHttpResponseV1,
  UsageV1,
} from '@tokenforge/model-protocol';
import { encodeOpenAiChatError } from '../openai-chat/encode-client-error.js';
import { encodeFloat32Base64 } from './encode-base64-float32.js';
import { OPENAI_EMBEDDINGS_PROTOCOL_FAMILY } from './protocol-family.js';

/** Options of {@link createOpenAiEmbeddingsEgressCodec}. */
export interface OpenAiEmbeddingsEgressOptionsV1 {
  /**
   * How vectors are written: `float` (default: JSON number arrays, the API's default and what a client that sent
   * no `encoding_format` expects) or `base64` (little-endian float32 bytes). A host that serves a client which
   * asked for base64 creates the codec with `base64` (the ingress returns the client's choice).
   */
  readonly encodingFormat?: 'float' | 'base64';
}

const encoder = new TextEncoder();
const CANCELLED_FAILURE: EgressFailureV3 = { source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' };
/** Not an engine code: the error table writes it as a 500 internal error. */
const INTERNAL_FAILURE: EgressFailureV3 = { source: 'engine', code: 'internal' };

function encodeUsage(usage: UsageV1 | undefined): { prompt_tokens: number; total_tokens: number } | undefined {
  if (usage?.inputTokens === undefined) return undefined;
  return { prompt_tokens: usage.inputTokens, total_tokens: usage.totalTokens ?? usage.inputTokens };
}

function encodeResponse(outcome: AdapterTerminalOutcome, context: EgressContextV1, format: 'float' | 'base64'): EgressHttpResponseV1 {
  switch (outcome.status) {
    case 'failed':
      return encodeOpenAiChatError({ source: 'provider', failure: outcome.failure });
    case 'cancelled':
      return encodeOpenAiChatError(CANCELLED_FAILURE);
    case 'completed':
      break;
    default: {
      const unknownOutcome: never = outcome;
      void unknownOutcome;
      return encodeOpenAiChatError(INTERNAL_FAILURE);
    }
  }
  if (outcome.result.kind !== 'embedding') return encodeOpenAiChatError(INTERNAL_FAILURE);
  const data = outcome.result.vectors.map((vector, index) => ({
    object: 'embedding',
    index,
    embedding: format === 'base64' ? encodeFloat32Base64(vector) : Array.from(vector),
  }));
  const usage = encodeUsage(outcome.usage);
  const body = { object: 'list', data, model: context.modelLabel, ...(usage === undefined ? {} : { usage }) };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(body)) };
}

/**
 * Creates the `openai-embeddings/v1` egress codec. A completed embedding terminal becomes
 * `{object:"list", data:[{object:"embedding", index, embedding}], model, usage}` with vectors in input order,
 * written as float arrays or base64 per the `encodingFormat` option, `model` from the context, and `usage`
 * (`prompt_tokens` from `inputTokens`, `total_tokens` from `totalTokens` else `inputTokens`) only when input tokens
 * are known: a count the provider never reported is not invented. Failed and cancelled terminals, and every
 * error, use OpenAI's error envelope with its status, `retry-after` and `x-should-retry` headers (shared with
 * `openai-chat/v1`). The dialect does not stream: the codec has no stream encoder.
 */
export function createOpenAiEmbeddingsEgressCodec(options?: OpenAiEmbeddingsEgressOptionsV1): EgressCodecV1 {
  const format = options?.encodingFormat ?? 'float';
  return Object.freeze({
    protocolFamily: OPENAI_EMBEDDINGS_PROTOCOL_FAMILY,
    encodeResponse: (outcome: AdapterTerminalOutcome, context: EgressContextV1) => encodeResponse(outcome, context, format),
    encodeError: (failure: EgressFailureV3) => encodeOpenAiChatError(failure),
  });
}
