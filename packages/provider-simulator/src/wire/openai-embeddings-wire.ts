import type { SimulatorScenario } from '../scenario.js';
import { parseJsonObject, type SimExchange } from '../sim-exchange.js';
import { openAiErrorBody, openAiRecordedStatus } from './openai-errors.js';
import { serveJson, type JsonWire } from './serve-json.js';

/** Dimensions of a simulated vector when the request names none. */
export const SIMULATOR_DEFAULT_EMBEDDING_DIMENSIONS = 16;

const wire: JsonWire = { fixtureFolder: 'openai-embeddings', errorBody: openAiErrorBody, recordedStatus: openAiRecordedStatus };

function vectorFor(text: string, dimensions: number): Float32Array {
  let seed = 2166136261;
  for (let index = 0; index < text.length; index += 1) seed = Math.imul(seed ^ text.charCodeAt(index), 16777619) >>> 0;
  const vector = new Float32Array(dimensions);
  for (let index = 0; index < dimensions; index += 1) {
    seed = Math.imul(seed ^ (seed >>> 13), 1274126177) >>> 0;
    vector[index] = (seed / 4294967296) * 2 - 1;
  }
  return vector;
}

function inputs(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.length > 0 ? [value] : undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > 2048) return undefined;
  if (value.every((item) => typeof item === 'number')) return [value.join(',')];
  if (value.every((item) => (typeof item === 'string' && item.length > 0) || (Array.isArray(item) && item.length > 0))) {
    return value.map((item) => (typeof item === 'string' ? item : (item as unknown[]).join(',')));
  }
  return undefined;
}

/** `POST /v1/embeddings` (fact sheet §1): float arrays or little-endian float32 base64, usage in tokens. */
export function serveOpenAiEmbeddings(exchange: SimExchange, scenario: SimulatorScenario): Promise<void> {
  return serveJson(wire, exchange, scenario, () => {
    const body = parseJsonObject(exchange.request.body);
    const texts = inputs(body?.input);
    const dimensions = body?.dimensions ?? SIMULATOR_DEFAULT_EMBEDDING_DIMENSIONS;
    const format = body?.encoding_format ?? 'float';
    if (body === undefined || typeof body.model !== 'string' || texts === undefined) {
      return { status: 400, body: openAiErrorBody(400, "'input' must be a non-empty string or array") };
    }
    if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096 || (format !== 'float' && format !== 'base64')) {
      return { status: 400, body: openAiErrorBody(400, 'Invalid dimensions or encoding_format.') };
    }
    const tokens = texts.reduce((sum, text) => sum + Math.max(1, text.split(/\s+/).length), 0);
    return {
      status: 200,
      body: {
        object: 'list',
        data: texts.map((text, index) => {
          const vector = vectorFor(text, dimensions);
          const embedding = format === 'base64' ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') : Array.from(vector);
          return { object: 'embedding', index, embedding };
        }),
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      },
    };
  });
}
