import type { SimulatorScenario } from '../scenario.js';
import { parseJsonObject, type SimExchange } from '../sim-exchange.js';
import { serveJson, type JsonWire } from './serve-json.js';

const ALLOWED_FIELDS = new Set(['model', 'query', 'documents', 'top_n', 'max_tokens_per_doc', 'priority']);

/** Cohere's error body: `{id, message}`. */
export function cohereErrorBody(_status: number, message: string): unknown {
  return { id: 'sim-error-0001', message };
}

const wire: JsonWire = {
  fixtureFolder: 'cohere-rerank',
  errorBody: cohereErrorBody,
  recordedStatus(body) {
    const record = body as { message?: unknown; results?: unknown } | null;
    return typeof record?.message === 'string' && record.results === undefined ? 400 : 200;
  },
};

function score(query: string, document: string): number {
  const terms = new Set(query.toLowerCase().split(/\W+/).filter(Boolean));
  const words = document.toLowerCase().split(/\W+/).filter(Boolean);
  const hits = words.filter((word) => terms.has(word)).length;
  return Math.round((hits / (hits + 1) + 1 / (words.length + 2) / 10) * 1e6) / 1e6;
}

/**
 * `POST /v2/rerank` (fact sheet §3a): string documents only, unknown fields refused with 422 (as Cohere v2 does),
 * results sorted by score with the input `index`, billing in `meta.billed_units.search_units`.
 */
export function serveCohereRerank(exchange: SimExchange, scenario: SimulatorScenario): Promise<void> {
  return serveJson(wire, exchange, scenario, () => {
    const body = parseJsonObject(exchange.request.body);
    if (body === undefined) return { status: 400, body: cohereErrorBody(400, 'invalid request: could not parse the body') };
    const unknown = Object.keys(body).find((key) => !ALLOWED_FIELDS.has(key));
    if (unknown !== undefined) return { status: 422, body: cohereErrorBody(422, 'invalid request: unknown field in the body') };
    const { query, documents, top_n: topN } = body;
    if (typeof body.model !== 'string' || typeof query !== 'string' || !Array.isArray(documents) || documents.length === 0 || !documents.every((item) => typeof item === 'string')) {
      return { status: 400, body: cohereErrorBody(400, 'invalid request: model, query and string documents are required') };
    }
    if (topN !== undefined && (typeof topN !== 'number' || !Number.isInteger(topN) || topN < 1)) {
      return { status: 400, body: cohereErrorBody(400, 'invalid request: top_n must be a positive integer') };
    }
    const results = (documents as string[])
      .map((document, index) => ({ index, relevance_score: score(query, document) }))
      .sort((left, right) => right.relevance_score - left.relevance_score || left.index - right.index)
      .slice(0, topN ?? documents.length);
    return {
      status: 200,
      body: { id: 'sim-rerank-0001', results, meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } } },
    };
  });
}
