import {
  taskEnvelopeV2Schema,
  type ClientWireRequestV1,
  type IngressCodecV1,
  type IngressDecodedRequestV1,
} from '@tokenforge/model-protocol';
import { parseSafeJsonBytes, type SafeJsonLimits } from '../../codec-kit/index.js';
import {
  invalidClientField,
  isClientObject,
  isUnset,
  optionalClientArray,
  optionalClientBoolean,
  optionalClientNumber,
  requiredClientString,
  unsupportedClientField,
} from '../openai-common/client-json.js';
import { COHERE_RERANK_MAX_DOCUMENTS } from './encode-request.js';
import { COHERE_RERANK_PROTOCOL_FAMILY } from './protocol-family.js';

/** Options of {@link createCohereRerankIngressCodec}. */
export interface CohereRerankIngressOptionsV1 {
  /** Limits of the body parser (defaults: 32 MiB, 64 levels). */
  readonly limits?: SafeJsonLimits;
}

function decodeDocuments(value: readonly unknown[] | undefined): string[] {
  if (value === undefined) throw invalidClientField('documents', 'is required');
  if (value.length === 0 || value.length > COHERE_RERANK_MAX_DOCUMENTS) {
    throw invalidClientField('documents', `must hold 1 to ${COHERE_RERANK_MAX_DOCUMENTS} items`);
  }
  return value.map((document, index) => {
    if (typeof document === 'string') return document;
    if (isClientObject(document)) throw unsupportedClientField(`documents.${index}`, 'structured documents are not supported: send text');
    throw invalidClientField(`documents.${index}`, 'must be a string');
  });
}

/**
 * Decodes a Cohere v2 `POST /v2/rerank` request body into a rerank task. Pure; the body is parsed with the kit's
 * safe JSON parser.
 *
 * Mapping: `model` is the model label; `query`; `documents` (1 to 10,000 strings, in order); `top_n` the task's
 * `topN`. Ignored on purpose: `max_tokens_per_doc` (a truncation bound: the target applies its own default) and
 * `priority` (a scheduling hint), `return_documents: false`, and unknown fields. Refused as
 * `unsupported-feature`: object documents (v1 and Jina multimodal style), `rank_fields`, and
 * `return_documents: true` (the v2 answer carries no documents).
 *
 * @throws {CodecErrorV1} the parser's codes for bad bytes or JSON; `invalid-request` with the JSON path for a
 * malformed request; `unsupported-feature` as listed.
 */
export function decodeCohereRerankClientRequest(request: ClientWireRequestV1, options?: CohereRerankIngressOptionsV1): IngressDecodedRequestV1 {
  const body = parseSafeJsonBytes(request.body, options?.limits);
  if (!isClientObject(body)) throw invalidClientField('body', 'must be a JSON object');
  const modelLabel = requiredClientString(body, 'model', '');
  if (modelLabel.length === 0 || modelLabel.length > 256) throw invalidClientField('model', 'must be 1 to 256 characters');
  if (!isUnset(body.rank_fields)) throw unsupportedClientField('rank_fields', 'rank fields are not supported');
  if (optionalClientBoolean(body, 'return_documents', '') === true) throw unsupportedClientField('return_documents', 'documents are not returned');
  const query = requiredClientString(body, 'query', '');
  const documents = decodeDocuments(optionalClientArray(body, 'documents', ''));
  const topN = optionalClientNumber(body, 'top_n', '');
  const checked = taskEnvelopeV2Schema.safeParse({ kind: 'rerank', query, documents, ...(topN === undefined ? {} : { topN }) });
  if (!checked.success) {
    const wireNames: Readonly<Record<string, string>> = { topN: 'top_n' };
    const issue = checked.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? 'body' : String(issue.path[0]);
    throw invalidClientField(wireNames[field] ?? field, 'is out of range or malformed for a rerank request');
  }
  return { task: checked.data, modelLabel };
}

/** Creates the `cohere-rerank/v1` ingress codec (see {@link decodeCohereRerankClientRequest}). */
export function createCohereRerankIngressCodec(options?: CohereRerankIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: COHERE_RERANK_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeCohereRerankClientRequest(request, options),
  });
}
