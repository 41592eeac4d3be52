import { createWireReaders, isWireRecord as isRecord } from '../../codec-kit/wire-readers.js';

/*
 * Tolerant readers of what an OpenAI embeddings server sends (fact sheet §1). They read only the fields this
 * family uses, allow any extra key (`object` markers included), treat `null` like an absent optional field, and
 * throw a ProtocolViolationError naming the JSON path (never the value) when a field we read is missing,
 * mistyped or out of range. Hand-written: a body holds up to 2,048 vectors, and the check must stay close to the
 * cost of JSON.parse (house-style §14); the vector values themselves are checked once, while decoding.
 */

/** Largest token count accepted: two of them still add up below `Number.MAX_SAFE_INTEGER`. */
const MAX_COUNT = 2 ** 52;
/** The readers of this family's wire JSON (messages start with `openai-embeddings`). */
export const OPENAI_EMBEDDINGS_WIRE = createWireReaders({ family: 'openai-embeddings', maxCount: MAX_COUNT });
const wire = OPENAI_EMBEDDINGS_WIRE;
const { violation } = wire;

/** One `data[]` element, as far as this family reads it. */
export interface OpenAiEmbeddingsWireItem {
  /** Position of the input this vector belongs to. */
  readonly index: number;
  /** Base64 of little-endian float32 values, or a JSON number array (checked while decoding). */
  readonly embedding: string | readonly unknown[];
}

/** `usage`, the fields we read. */
export interface OpenAiEmbeddingsWireUsage {
  /** Every input token. */
  readonly prompt_tokens?: number;
  /** The server's total (equal to `prompt_tokens` on OpenAI). */
  readonly total_tokens?: number;
}

/** A success body, as far as this family reads it. */
export interface OpenAiEmbeddingsWireResponse {
  /** One item per vector, in the order sent (not necessarily input order). */
  readonly data: readonly OpenAiEmbeddingsWireItem[];
  /** The model the server reported (absent when missing or empty). */
  readonly model?: string;
  /** Absent when the server sent none (some compatible servers omit it). */
  readonly usage?: OpenAiEmbeddingsWireUsage;
}

function readUsage(value: unknown): OpenAiEmbeddingsWireUsage | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw violation('usage', 'must be an object');
  const promptTokens = wire.optionalCount(value.prompt_tokens, 'usage', 'prompt_tokens');
  const totalTokens = wire.optionalCount(value.total_tokens, 'usage', 'total_tokens');
  return {
    ...(promptTokens === undefined ? {} : { prompt_tokens: promptTokens }),
    ...(totalTokens === undefined ? {} : { total_tokens: totalTokens }),
  };
}

/**
 * Reads a `CreateEmbeddingResponse`: `data` (required array of `{index, embedding}`; `index` a non-negative
 * integer, `embedding` a string or an array), optional `model` (a string) and optional `usage`.
 *
 * @throws {ProtocolViolationError} `invalid-event` naming the path of the first field that breaks the rule.
 */
export function readOpenAiEmbeddingsResponse(value: unknown): OpenAiEmbeddingsWireResponse {
  if (!isRecord(value)) throw violation('body', 'must be a JSON object');
  const dataValue = value.data;
  if (!Array.isArray(dataValue)) throw violation('data', 'must be an array');
  const data: OpenAiEmbeddingsWireItem[] = new Array<OpenAiEmbeddingsWireItem>(dataValue.length);
  for (let position = 0; position < dataValue.length; position += 1) {
    const item: unknown = dataValue[position];
    if (!isRecord(item)) throw violation(`data.${position}`, 'must be an object');
    const index = item.index;
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
      throw violation(`data.${position}.index`, 'must be a non-negative integer');
    }
    const embedding = item.embedding;
    if (typeof embedding !== 'string' && !Array.isArray(embedding)) {
      throw violation(`data.${position}.embedding`, 'must be a base64 string or a number array');
    }
    data[position] = { index, embedding };
  }
  const model = value.model;
  if (model !== undefined && model !== null && typeof model !== 'string') throw violation('model', 'must be a string');
  const usage = readUsage(value.usage);
  return {
    data,
    ...(typeof model === 'string' && model.length > 0 ? { model } : {}),
    ...(usage === undefined ? {} : { usage }),
  };
}
