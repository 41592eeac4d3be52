import { CodecErrorV1 } from '@tokenforge/model-protocol';

/**
 * Options of the `cohere-rerank/v1` family for compatible servers whose request differs from Cohere v2. They are
 * facts a host configures about a server, never guessed from a provider or model name.
 */
export interface CohereRerankProtocolOptionsV1 {
  /**
   * The endpoint path below the connection's base URL (default {@link COHERE_RERANK_DEFAULT_PATH}, for a base URL
   * of `https://api.cohere.com`). Jina, Voyage, Together and vLLM serve `/rerank` below a `/v1` base URL.
   */
  readonly path?: string;
  /** The field that carries the result limit: `top_n` (default; Cohere, Jina, Together, vLLM) or `top_k` (Voyage). */
  readonly topNField?: 'top_n' | 'top_k';
}

/** Cohere's current rerank endpoint. */
export const COHERE_RERANK_DEFAULT_PATH = '/v2/rerank';

const SAFE_PATH = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/** The options with their defaults filled in. */
export interface ResolvedCohereRerankProtocolOptionsV1 {
  /** The endpoint path. */
  readonly path: string;
  /** The field that carries the result limit. */
  readonly topNField: 'top_n' | 'top_k';
}

/**
 * Fills in the defaults.
 *
 * @throws {CodecErrorV1} `invalid-request` for a path that is not `/segment[/segment...]` of unreserved characters
 * (no query, no `..` tricks reach the transport).
 */
export function resolveCohereRerankProtocolOptions(options?: CohereRerankProtocolOptionsV1): ResolvedCohereRerankProtocolOptionsV1 {
  const path = options?.path ?? COHERE_RERANK_DEFAULT_PATH;
  if (!SAFE_PATH.test(path) || path.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new CodecErrorV1('invalid-request', 'the rerank path option must be a plain absolute path', { path: 'path' });
  }
  return { path, topNField: options?.topNField ?? 'top_n' };
}
