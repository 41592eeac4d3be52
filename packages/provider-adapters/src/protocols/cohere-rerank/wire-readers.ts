import { createWireReaders, isWireRecord as isRecord } from '../../codec-kit/wire-readers.js';

/*
 * Tolerant readers of rerank responses (fact sheet §3). The dialect is chosen by the body's structure, never by a
 * provider name:
 * - an object with a `results` array: Cohere v2 (`results[{index, relevance_score}]`, `meta.billed_units`), and
 *   the Jina-compatible shape shared by Jina, Together (`object: "rerank"`), vLLM and SiliconFlow
 *   (`results[{index, relevance_score, document?}]` with `usage` or SiliconFlow's `tokens`);
 * - an object with a `data` array: Voyage (`object: "list"`, `data[{index, relevance_score, document?}]`, `usage`);
 * - a bare array: Hugging Face TEI (`[{index, score, text?}]`, no usage).
 * A body with both `results` and `data` arrays, or neither, is a protocol violation. `document`, `text`, `id`,
 * `model`, `object` and every unknown key are ignored (the normalized result carries indexes and scores only).
 */

/** Largest token or unit count accepted: three of them still add up below `Number.MAX_SAFE_INTEGER`. */
const MAX_COUNT = 2 ** 51;
/** The readers of this family's wire JSON (messages start with `cohere-rerank`). */
const wire = createWireReaders({ family: 'cohere-rerank', maxCount: MAX_COUNT });
const { violation } = wire;

/** One ranked document as the server sent it. */
export interface RerankWireResult {
  /** Position of the document in the request. */
  readonly index: number;
  /** The score (TEI's `score` is read into this field too). */
  readonly relevance_score: number;
}

/** Every usage figure this family reads, by where it came from. */
export interface RerankWireUsage {
  /** Cohere `meta.billed_units.search_units`. */
  readonly search_units?: number;
  /** `usage.prompt_tokens` (Together, vLLM, some Jina relays), else SiliconFlow `tokens.input_tokens`. */
  readonly input_tokens?: number;
  /** `usage.completion_tokens` (Together), else SiliconFlow `tokens.output_tokens`. */
  readonly output_tokens?: number;
  /** `usage.total_tokens` (Jina, Voyage, Together, vLLM). */
  readonly total_tokens?: number;
}

/** A success body, as far as this family reads it. */
export interface RerankWireResponse {
  /** Which structure the body had. */
  readonly shape: 'results' | 'data' | 'bare-array';
  /** The results in the order sent. */
  readonly results: readonly RerankWireResult[];
  /** The usage figures found (empty when none). */
  readonly usage: RerankWireUsage;
}

function readResults(items: readonly unknown[], path: string, scoreKey: 'relevance_score' | 'score'): RerankWireResult[] {
  const results = new Array<RerankWireResult>(items.length);
  for (let position = 0; position < items.length; position += 1) {
    const item: unknown = items[position];
    const itemPath = `${path}${position}`;
    if (!isRecord(item)) throw violation(itemPath, 'must be an object');
    const index = item.index;
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) throw violation(`${itemPath}.index`, 'must be a non-negative integer');
    const score = item[scoreKey];
    if (typeof score !== 'number' || !Number.isFinite(score)) throw violation(`${itemPath}.${scoreKey}`, 'must be a finite number');
    results[position] = { index, relevance_score: score };
  }
  return results;
}

function readUsage(body: Readonly<Record<string, unknown>>): RerankWireUsage {
  const meta = wire.optionalRecord(body.meta, 'body', 'meta');
  const billed = meta === undefined ? undefined : wire.optionalRecord(meta.billed_units, 'meta', 'billed_units');
  const usage = wire.optionalRecord(body.usage, 'body', 'usage');
  const tokens = wire.optionalRecord(body.tokens, 'body', 'tokens');
  const searchUnits = wire.optionalCount(billed?.search_units, 'meta.billed_units', 'search_units');
  const inputTokens = wire.optionalCount(usage?.prompt_tokens, 'usage', 'prompt_tokens') ?? wire.optionalCount(tokens?.input_tokens, 'tokens', 'input_tokens');
  const outputTokens = wire.optionalCount(usage?.completion_tokens, 'usage', 'completion_tokens') ?? wire.optionalCount(tokens?.output_tokens, 'tokens', 'output_tokens');
  const totalTokens = wire.optionalCount(usage?.total_tokens, 'usage', 'total_tokens');
  return {
    ...(searchUnits === undefined ? {} : { search_units: searchUnits }),
    ...(inputTokens === undefined ? {} : { input_tokens: inputTokens }),
    ...(outputTokens === undefined ? {} : { output_tokens: outputTokens }),
    ...(totalTokens === undefined ? {} : { total_tokens: totalTokens }),
  };
}

/**
 * Reads a rerank response of any of the shapes above: every result needs a non-negative integer `index` and a
 * finite score (`relevance_score`, or TEI's `score`); usage fields, when present, are non-negative integers.
 *
 * @throws {ProtocolViolationError} `invalid-event` naming the path of the first field that breaks the rule.
 */
export function readRerankResponse(value: unknown): RerankWireResponse {
  if (Array.isArray(value)) return { shape: 'bare-array', results: readResults(value, '', 'score'), usage: {} };
  if (!isRecord(value)) throw violation('body', 'must be a JSON object or array');
  const hasResults = Array.isArray(value.results);
  const hasData = Array.isArray(value.data);
  if (hasResults && hasData) throw violation('body', 'must not carry both results and data');
  if (!hasResults && !hasData) throw violation('results', 'must be an array');
  const shape = hasResults ? 'results' : 'data';
  const results = readResults(value[shape] as unknown[], `${shape}.`, 'relevance_score');
  return { shape, results, usage: readUsage(value) };
}
