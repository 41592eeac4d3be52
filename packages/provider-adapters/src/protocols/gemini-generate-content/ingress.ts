import {
  CodecErrorV1,
  taskEnvelopeV2Schema,
  type ChatTaskV2,
  type ClientWireRequestV1,
  type IngressCodecV1,
  type IngressDecodedRequestV1,
  type ReasoningControlV2,
  type ResponseFormatV2,
  type SamplingV2,
  type TextPartV2,
  type ToolChoiceV2,
  type ToolDefinitionV2,
} from '@tokenforge/model-protocol';
import { parseSafeJsonBytes, type SafeJsonLimits } from '../../codec-kit/safe-json.js';
import { decodeClientContents } from './decode-client-contents.js';
import { fromGeminiOpenApiSchema } from './decode-client-schema.js';
import { parseGeminiRequestPath } from './model-path.js';
import { GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY } from './protocol-family.js';
import { isJsonObject } from './wire-schema.js';

/** Top-level request keys the ingress reads. */
const MAPPED_KEYS = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);
/**
 * Top-level keys accepted and dropped: `safetySettings` (provider-side filter thresholds: a policy of the serving
 * provider, not part of the task), `serviceTier` and `labels` (billing and routing metadata), `model` (the path
 * names the model).
 */
const DROPPED_KEYS = new Set(['safetySettings', 'serviceTier', 'labels', 'model']);
/** Top-level keys refused: server-side state or features the task cannot carry. */
const UNSUPPORTED_KEYS = new Set(['cachedContent']);

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

function invalid(message: string, path: string): CodecErrorV1 {
  return new CodecErrorV1('invalid-request', message, { path });
}

function unsupported(message: string, path: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', message, { path });
}

function optionalNumber(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid('field is not a number', path);
  return value;
}

/** Options of {@link createGeminiGenerateContentIngressCodec}. */
export interface GeminiIngressOptionsV1 {
  /** Limits of the body parser (defaults: 32 MiB, 64 levels). */
  readonly jsonLimits?: SafeJsonLimits;
}

/**
 * Decodes a client's Gemini request. The path carries the model (`modelLabel`) and the method:
 * `:generateContent` is a sync task, `:streamGenerateContent` a stream task and requires `alt=sse` (the
 * JSON-array stream form is not served). Only lowerCamelCase keys are read (what `@google/genai` sends); an
 * unknown top-level or `generationConfig` key is refused rather than silently ignored.
 *
 * Mapping (the reverse of `encodeGeminiRequest`, see also `decodeClientContents`):
 * - `systemInstruction.parts[].text` → `system` (other part kinds are refused);
 * - `tools[].functionDeclarations` → `tools` (`parametersJsonSchema` as is, `parameters` through
 *   `fromGeminiOpenApiSchema`, none → an empty object schema); `response` schemas and `behavior` are dropped;
 *   other tool kinds (search, code execution, URL context, ...) are refused;
 * - `toolConfig.functionCallingConfig`: `AUTO` → auto, `NONE` → none, `ANY` → required (or the named tool when
 *   `allowedFunctionNames` holds one name, or names every tool), `VALIDATED` → auto with every tool strict;
 *   any other name subset is refused;
 * - `generationConfig`: sampling, `maxOutputTokens`, `stopSequences`; `candidateCount` above 1 is refused;
 *   `responseMimeType` `application/json` with `responseJsonSchema` or `responseSchema` → a JSON response
 *   format; `thinkingConfig` → reasoning (`thinkingBudget` -1, dynamic, sets no budget; `thinkingLevel` →
 *   effort; `includeThoughts` → `includeReasoning`); `responseModalities` other than text only is refused.
 *
 * @throws {CodecErrorV1}
 */
export function decodeGeminiClientRequest(request: ClientWireRequestV1, options?: GeminiIngressOptionsV1): IngressDecodedRequestV1 {
  const { model, method } = parseGeminiRequestPath(request.path);
  const stream = method === 'streamGenerateContent';
  const alt = request.query?.alt;
  if (alt !== undefined && alt !== 'sse' && alt !== 'json') throw unsupported('alt must be sse or json', 'query.alt');
  if (stream && alt !== 'sse') throw unsupported('streaming is served as server-sent events only (alt=sse)', 'query.alt');
  const body = parseSafeJsonBytes(request.body, options?.jsonLimits);
  if (!isJsonObject(body)) throw invalid('request body is not a JSON object', '');
  for (const key of Object.keys(body)) {
    if (UNSUPPORTED_KEYS.has(key)) throw unsupported('field is not supported', key);
    if (!MAPPED_KEYS.has(key) && !DROPPED_KEYS.has(key)) throw invalid('unknown request field', key);
  }
  const task: ChatTaskV2 = { kind: 'chat', stream, messages: decodeClientContents(body.contents) };
  const system = decodeSystemInstruction(body.systemInstruction);
  if (system !== undefined) task.system = system;
  const tools = decodeTools(body.tools);
  if (tools !== undefined) task.tools = tools;
  const toolChoice = decodeToolConfig(body.toolConfig, task);
  if (toolChoice !== undefined) task.toolChoice = toolChoice;
  decodeGenerationConfig(body.generationConfig, task);
  const checked = taskEnvelopeV2Schema.safeParse(task);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw invalid('request does not make a valid task', issue === undefined ? '' : issue.path.join('.'));
  }
  return { task: checked.data, modelLabel: model };
}

function decodeSystemInstruction(value: unknown): TextPartV2[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value) || !Array.isArray(value.parts)) throw invalid('systemInstruction needs parts', 'systemInstruction');
  return value.parts.map((part: unknown, index) => {
    if (!isJsonObject(part) || typeof part.text !== 'string') {
      throw unsupported('systemInstruction may only hold text parts', `systemInstruction.parts.${index}`);
    }
    return { type: 'text', text: part.text };
  });
}

function decodeTools(value: unknown): ToolDefinitionV2[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid('tools is not an array', 'tools');
  const tools: ToolDefinitionV2[] = [];
  value.forEach((tool: unknown, toolIndex) => {
    const path = `tools.${toolIndex}`;
    if (!isJsonObject(tool)) throw invalid('tool is not an object', path);
    for (const key of Object.keys(tool)) {
      if (key !== 'functionDeclarations') throw unsupported('only function declarations are supported', `${path}.${key}`);
    }
    if (!Array.isArray(tool.functionDeclarations)) throw invalid('functionDeclarations is not an array', `${path}.functionDeclarations`);
    tool.functionDeclarations.forEach((declaration: unknown, index) => {
      const declarationPath = `${path}.functionDeclarations.${index}`;
      if (!isJsonObject(declaration) || typeof declaration.name !== 'string') throw invalid('function declaration needs a name', declarationPath);
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        throw invalid('parameters and parametersJsonSchema are mutually exclusive', declarationPath);
      }
      let inputSchema: Record<string, unknown> = { type: 'object', properties: {} };
      if (declaration.parametersJsonSchema !== undefined) {
        if (!isJsonObject(declaration.parametersJsonSchema)) throw invalid('parametersJsonSchema is not an object', `${declarationPath}.parametersJsonSchema`);
        inputSchema = declaration.parametersJsonSchema;
      } else if (declaration.parameters !== undefined) {
        inputSchema = fromGeminiOpenApiSchema(declaration.parameters, `${declarationPath}.parameters`);
      }
      if (declaration.description !== undefined && typeof declaration.description !== 'string') {
        throw invalid('description is not a string', `${declarationPath}.description`);
      }
      tools.push({
        name: declaration.name,
        ...(typeof declaration.description === 'string' ? { description: declaration.description } : {}),
        inputSchema,
      });
    });
  });
  return tools.length === 0 ? undefined : tools;
}

function decodeToolConfig(value: unknown, task: ChatTaskV2): ToolChoiceV2 | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw invalid('toolConfig is not an object', 'toolConfig');
  const config = value.functionCallingConfig;
  if (config === undefined || config === null) return undefined;
  if (!isJsonObject(config)) throw invalid('functionCallingConfig is not an object', 'toolConfig.functionCallingConfig');
  const mode = config.mode ?? 'AUTO';
  const names = config.allowedFunctionNames;
  if (names !== undefined && (!Array.isArray(names) || names.some((name) => typeof name !== 'string'))) {
    throw invalid('allowedFunctionNames is not a list of names', 'toolConfig.functionCallingConfig.allowedFunctionNames');
  }
  const allowed = (names ?? []) as string[];
  const path = 'toolConfig.functionCallingConfig';
  switch (mode) {
    case 'AUTO':
    case 'MODE_UNSPECIFIED':
      if (allowed.length > 0) throw invalid('allowedFunctionNames needs mode ANY', `${path}.allowedFunctionNames`);
      return { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY': {
      const declared = new Set((task.tools ?? []).map((tool) => tool.name));
      if (allowed.length === 0 || (allowed.length === declared.size && allowed.every((name) => declared.has(name)))) return { type: 'required' };
      if (allowed.length === 1) return { type: 'tool', toolName: allowed[0] as string };
      throw unsupported('a subset of several allowed functions is not supported', `${path}.allowedFunctionNames`);
    }
    case 'VALIDATED':
      if (allowed.length > 0) throw unsupported('allowedFunctionNames with VALIDATED is not supported', `${path}.allowedFunctionNames`);
      if (task.tools !== undefined) task.tools = task.tools.map((tool) => ({ ...tool, strict: true }));
      return { type: 'auto' };
    default:
      throw invalid('unknown function calling mode', `${path}.mode`);
  }
}

function decodeGenerationConfig(value: unknown, task: ChatTaskV2): void {
  if (value === undefined || value === null) return;
  if (!isJsonObject(value)) throw invalid('generationConfig is not an object', 'generationConfig');
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
        sampling[key] = optionalNumber(field, fieldPath) as number;
        break;
      case 'maxOutputTokens':
        task.maxOutputTokens = optionalNumber(field, fieldPath) as number;
        break;
      case 'candidateCount':
        if (optionalNumber(field, fieldPath) !== 1) throw unsupported('only one candidate is supported', fieldPath);
        break;
      case 'stopSequences':
        if (!Array.isArray(field) || field.some((item) => typeof item !== 'string')) throw invalid('stopSequences is not a list of strings', fieldPath);
        if (field.length > 0) task.stopSequences = field as string[];
        break;
      case 'responseMimeType':
        if (typeof field !== 'string') throw invalid('responseMimeType is not a string', fieldPath);
        if (field !== 'text/plain' && field !== 'application/json') throw unsupported('response MIME type is not supported', fieldPath);
        mimeType = field;
        break;
      case 'responseJsonSchema':
        if (!isJsonObject(field)) throw invalid('responseJsonSchema is not an object', fieldPath);
        if (schema !== undefined) throw invalid('responseSchema and responseJsonSchema are mutually exclusive', fieldPath);
        schema = field;
        break;
      case 'responseSchema':
        if (schema !== undefined) throw invalid('responseSchema and responseJsonSchema are mutually exclusive', fieldPath);
        schema = fromGeminiOpenApiSchema(field, fieldPath);
        break;
      case 'responseModalities':
        if (!Array.isArray(field) || field.some((modality) => modality !== 'TEXT')) throw unsupported('only text output is supported', fieldPath);
        break;
      case 'thinkingConfig':
        decodeThinkingConfig(field, fieldPath, task);
        break;
      default:
        if (UNSUPPORTED_GENERATION_KEYS.has(key)) throw unsupported('generation option is not supported', fieldPath);
        if (!DROPPED_GENERATION_KEYS.has(key)) throw invalid('unknown generation option', fieldPath);
    }
  }
  if (Object.keys(sampling).length > 0) task.sampling = sampling;
  if (schema !== undefined && mimeType !== 'application/json') throw invalid('a response schema needs responseMimeType application/json', `${path}.responseMimeType`);
  if (mimeType === 'application/json') {
    const format: ResponseFormatV2 = schema === undefined ? { type: 'json' } : { type: 'json', schema };
    task.responseFormat = format;
  }
}

function decodeThinkingConfig(value: unknown, path: string, task: ChatTaskV2): void {
  if (!isJsonObject(value)) throw invalid('thinkingConfig is not an object', path);
  const reasoning: ReasoningControlV2 = {};
  const budget = optionalNumber(value.thinkingBudget, `${path}.thinkingBudget`);
  if (budget !== undefined && budget !== -1) {
    if (!Number.isInteger(budget) || budget < 0) throw invalid('thinkingBudget is not -1 or a non-negative integer', `${path}.thinkingBudget`);
    reasoning.budgetTokens = budget;
  }
  if (value.thinkingLevel !== undefined && value.thinkingLevel !== null && value.thinkingLevel !== 'THINKING_LEVEL_UNSPECIFIED') {
    const effort = typeof value.thinkingLevel === 'string' ? THINKING_LEVELS[value.thinkingLevel.toUpperCase()] : undefined;
    if (effort === undefined) throw invalid('unknown thinkingLevel', `${path}.thinkingLevel`);
    reasoning.effort = effort;
  }
  if (value.includeThoughts !== undefined && value.includeThoughts !== null) {
    if (typeof value.includeThoughts !== 'boolean') throw invalid('includeThoughts is not a boolean', `${path}.includeThoughts`);
    reasoning.includeReasoning = value.includeThoughts;
  }
  if (Object.keys(reasoning).length > 0) task.reasoning = reasoning;
}

/** Creates the `gemini-generate-content/v1` ingress codec ({@link decodeGeminiClientRequest}). */
export function createGeminiGenerateContentIngressCodec(options?: GeminiIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeGeminiClientRequest(request, options),
  });
}
