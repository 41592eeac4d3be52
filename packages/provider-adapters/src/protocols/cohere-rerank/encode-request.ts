import { CodecErrorV1, type ProviderAdapterTargetV1, type TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { resolveCohereRerankProtocolOptions, type CohereRerankProtocolOptionsV1 } from './protocol-options.js';

/** Most documents one request may carry (Cohere's hard maximum; it recommends at most 1,000). */
export const COHERE_RERANK_MAX_DOCUMENTS = 10_000;

/** The request body this family sends: only the documented v2 fields (Cohere refuses unknown keys with 422). */
export interface CohereRerankRequestBody {
  /** The target's wire model name. */
  readonly model: string;
  /** The query. */
  readonly query: string;
  /** The documents, in task order (plain strings: v2 takes nothing else). */
  readonly documents: readonly string[];
  /** The result limit, clamped to the document count; absent when the task sets none (all documents come back). */
  readonly top_n?: number;
  /** The same limit under Voyage's name, when the `topNField` option asks for it. */
  readonly top_k?: number;
}

/** A request ready for the transport, without the abort signal the adapter adds. */
export interface CohereRerankEncodedRequest {
  /** Always `POST`. */
  readonly method: 'POST';
  /** The configured path (default `/v2/rerank`). */
  readonly path: string;
  /** `accept` only: content type and credentials belong to the transport. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body. */
  readonly body: { readonly type: 'json'; readonly value: CohereRerankRequestBody };
}

/**
 * Encodes a rerank task as Cohere v2 `{model, query, documents, top_n}`. Pure.
 *
 * `top_n` is clamped to the number of documents: what servers do with a larger value is undocumented (some
 * refuse it), and no server can return more results than documents anyway. It is omitted when the task sets no
 * `topN`. The `topNField` option renames it `top_k` for Voyage.
 *
 * @throws {CodecErrorV1} `unsupported-feature` for a task of another kind; `invalid-request` for more than
 * 10,000 documents or a malformed `path` option.
 */
export function encodeCohereRerankRequest(
  task: TaskEnvelopeV4,
  target: ProviderAdapterTargetV1,
  options?: CohereRerankProtocolOptionsV1,
): CohereRerankEncodedRequest {
  const resolved = resolveCohereRerankProtocolOptions(options);
  if (task.kind !== 'rerank') {
    throw new CodecErrorV1('unsupported-feature', `cohere-rerank cannot run ${task.kind} tasks`, { path: 'kind' });
  }
  if (task.documents.length === 0 || task.documents.length > COHERE_RERANK_MAX_DOCUMENTS) {
    throw new CodecErrorV1('invalid-request', `documents must hold 1 to ${COHERE_RERANK_MAX_DOCUMENTS} items`, { path: 'documents' });
  }
  const topN = task.topN === undefined ? undefined : Math.min(task.topN, task.documents.length);
  return {
    method: 'POST',
    path: resolved.path,
    headers: { accept: 'application/json' },
    body: {
      type: 'json',
      value: {
        model: target.providerModel,
        query: task.query,
        documents: [...task.documents],
        ...(topN === undefined ? {} : { [resolved.topNField]: topN }),
      },
    },
  };
}
