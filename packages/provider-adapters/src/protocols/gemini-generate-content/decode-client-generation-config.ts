import type { ChatTaskV2, ReasoningControlV2, ResponseFormatV2, SamplingV2 } from '@tokenforge/model-protocol';
import { invalidClientRequest, optionalClientNumber, unsupportedClientFeature } from './client-readers.js';
import { fromGeminiOpenApiSchema } from './decode-client-schema.js';
import { isJsonObject } from './wire-readers.js';

/** `generationConfig` keys refused because the task has no equivalent and dropping them changes the answer. */
const UNSUPPORTED_GENERATION_KEYS = new Set([
  'responseLogprobs',
  'logprobs',
  'speechConfig',
  'imageConfig',
  'audioTimestamp',
  'enableAffectiveDialog',
  'routingConfig',
  'modelSelectionConfig',
  'responseFormat',
]);
/** `generationConfig` keys accepted and dropped: rendering hints with no effect on the text. */
const DROPPED_GENERATION_KEYS = new Set(['mediaResolution']);

const THINKING_LEVELS: Readonly<Record<string, NonNullable<ReasoningControlV2['effort']>>> = {
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
};

/**
 * Reads `generationConfig` onto the task: sampling, `maxOutputTokens`, `stopSequences`; `candidateCount` above 1
 * is refused; `responseMimeType` `application/json` with `responseJsonSchema` or `responseSchema` (through
 * `fromGeminiOpenApiSchema`) → a JSON response format; `thinkingConfig` → reasoning (`thinkingBudget` -1,
 * dynamic, sets no budget; `thinkingLevel` → effort; `includeThoughts` → `includeReasoning`);
 * `responseModalities` other than text only, logprobs, speech and image options are refused; `mediaResolution`
 * is dropped; an unknown key is refused.
 *
 * @throws {CodecErrorV1}
 */
export function decodeClientGenerationConfig(value: unknown, task: ChatTaskV2): void {
  if (value === undefined || value === null) return;
  if (!isJsonObject(value)) throw invalidClientRequest('generationConfig is not an object', 'generationConfig');
  const path = 'generationConfig';
  const sampling: SamplingV2 = {};
  let mimeType: string | undefined;
  let schema: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const fieldPath = `${path}.${key}`;
    if (field === undefined || field === null) continue;
    switch (key) {
      case 'temperature':
      case 'topP':
      case 'topK':
      case 'presencePenalty':
      case 'frequencyPenalty':
      case 'seed':
        sampling[key] = optionalClientNumber(field, fieldPath) as number;
        break;
      case 'maxOutputTokens':
        task.maxOutputTokens = optionalClientNumber(field, fieldPath) as number;
        break;
      case 'candidateCount':
        if (optionalClientNumber(field, fieldPath) !== 1) throw unsupportedClientFeature('only one candidate is supported', fieldPath);
        break;
      case 'stopSequences':
        if (!Array.isArray(field) || field.some((item) => typeof item !== 'string')) throw invalidClientRequest('stopSequences is not a list of strings', fieldPath);
        if (field.length > 0) task.stopSequences = field as string[];
        break;
      case 'responseMimeType':
        if (typeof field !== 'string') throw invalidClientRequest('responseMimeType is not a string', fieldPath);
        if (field !== 'text/plain' && field !== 'application/json') throw unsupportedClientFeature('response MIME type is not supported', fieldPath);
        mimeType = field;
        break;
      case 'responseJsonSchema':
        if (!isJsonObject(field)) throw invalidClientRequest('responseJsonSchema is not an object', fieldPath);
        if (schema !== undefined) throw invalidClientRequest('responseSchema and responseJsonSchema are mutually exclusive', fieldPath);
        schema = field;
        break;
      case 'responseSchema':
        if (schema !== undefined) throw invalidClientRequest('responseSchema and responseJsonSchema are mutually exclusive', fieldPath);
        schema = fromGeminiOpenApiSchema(field, fieldPath);
        break;
      case 'responseModalities':
        if (!Array.isArray(field) || field.some((modality) => modality !== 'TEXT')) throw unsupportedClientFeature('only text output is supported', fieldPath);
        break;
      case 'thinkingConfig':
        decodeThinkingConfig(field, fieldPath, task);
        break;
      default:
        if (UNSUPPORTED_GENERATION_KEYS.has(key)) throw unsupportedClientFeature('generation option is not supported', fieldPath);
        if (!DROPPED_GENERATION_KEYS.has(key)) throw invalidClientRequest('unknown generation option', fieldPath);
    }
  }
  if (Object.keys(sampling).length > 0) task.sampling = sampling;
  if (schema !== undefined && mimeType !== 'application/json') throw invalidClientRequest('a response schema needs responseMimeType application/json', `${path}.responseMimeType`);
  if (mimeType === 'application/json') {
    const format: ResponseFormatV2 = schema === undefined ? { type: 'json' } : { type: 'json', schema };
    task.responseFormat = format;
  }
}

function decodeThinkingConfig(value: unknown, path: string, task: ChatTaskV2): void {
  if (!isJsonObject(value)) throw invalidClientRequest('thinkingConfig is not an object', path);
  const reasoning: ReasoningControlV2 = {};
  const budget = optionalClientNumber(value.thinkingBudget, `${path}.thinkingBudget`);
  if (budget !== undefined && budget !== -1) {
    if (!Number.isInteger(budget) || budget < 0) throw invalidClientRequest('thinkingBudget is not -1 or a non-negative integer', `${path}.thinkingBudget`);
    reasoning.budgetTokens = budget;
  }
  if (value.thinkingLevel !== undefined && value.thinkingLevel !== null && value.thinkingLevel !== 'THINKING_LEVEL_UNSPECIFIED') {
    const effort = typeof value.thinkingLevel === 'string' ? THINKING_LEVELS[value.thinkingLevel.toUpperCase()] : undefined;
    if (effort === undefined) throw invalidClientRequest('unknown thinkingLevel', `${path}.thinkingLevel`);
    reasoning.effort = effort;
  }
  if (value.includeThoughts !== undefined && value.includeThoughts !== null) {
    if (typeof value.includeThoughts !== 'boolean') throw invalidClientRequest('includeThoughts is not a boolean', `${path}.includeThoughts`);
    reasoning.includeReasoning = value.includeThoughts;
  }
  if (Object.keys(reasoning).length > 0) task.reasoning = reasoning;
}
