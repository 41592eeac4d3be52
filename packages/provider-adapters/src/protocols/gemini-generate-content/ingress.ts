import {
  chatTaskV3Schema,
  type ChatTaskV2,
  type ClientWireRequestV1,
  type IngressCodecV1,
  type IngressDecodedRequestV1,
  type TextPartV2,
} from '@tokenforge/model-protocol';
import { clientFieldPath, type ClientFieldNames } from '../../codec-kit/client-field-path.js';
import { parseSafeJsonBytes, type SafeJsonLimits } from '../../codec-kit/safe-json.js';

/** Task fields under `generationConfig`'s names (for the refused field's path). */
const GEMINI_FIELD_NAMES: ClientFieldNames = {
  'sampling.temperature': 'generationConfig.temperature',
  'sampling.topP': 'generationConfig.topP',
  'sampling.topK': 'generationConfig.topK',
  'sampling.frequencyPenalty': 'generationConfig.frequencyPenalty',
  'sampling.presencePenalty': 'generationConfig.presencePenalty',
  'sampling.seed': 'generationConfig.seed',
  maxOutputTokens: 'generationConfig.maxOutputTokens',
  stopSequences: 'generationConfig.stopSequences',
};
import { invalidClientRequest, unsupportedClientFeature } from './client-readers.js';
import { decodeClientContents } from './decode-client-contents.js';
import { decodeClientGenerationConfig } from './decode-client-generation-config.js';
import { decodeClientHostedTools, decodeClientToolConfig, decodeClientTools } from './decode-client-tools.js';
import { parseGeminiRequestPath } from './model-path.js';
import { GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY } from './protocol-family.js';
import { isJsonObject } from './wire-readers.js';

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

/** Options of {@link createGeminiGenerateContentIngressCodec}. */
export interface GeminiIngressOptionsV1 {
  /** Limits of the body parser (defaults: 32 MiB, 64 levels). */
  readonly jsonLimits?: SafeJsonLimits;
}

/**
 * How a Gemini client asked for its stream:
 * - `sse`: each `GenerateContentResponse` is an SSE `data:` event (`streamGenerateContent?alt=sse`);
 * - `json-array`: the responses are the elements of one JSON array, written as they come (`[` before the first, `,`
 *   and CRLF between them, `]` after the last), which is what `streamGenerateContent` without `alt=sse` sends.
 */
export type GeminiStreamFramingV1 = 'sse' | 'json-array';

/** A decoded Gemini request, with the client's names of the task's hosted tools. */
export interface GeminiDecodedRequestV1 extends IngressDecodedRequestV1 {
  /** `googleSearch` for each of the task's hosted tools (a host names a dropped one by it). */
  readonly hostedToolNames?: readonly string[];
  /**
   * `json-array` for a `:streamGenerateContent` call without `alt=sse` (or with `alt=json`): Google then streams one
   * JSON array of `GenerateContentResponse` objects, and the host answers with the egress built for that framing
   * (`createGeminiGenerateContentEgressCodec({ streamFraming: 'json-array' })`). Absent for SSE and sync calls.
   */
  readonly clientStreamFraming?: 'json-array';
}

/**
 * Decodes a client's Gemini request. The path carries the model (`modelLabel`) and the method:
 * `:generateContent` is a sync task, `:streamGenerateContent` a stream task: with `alt=sse` as server-sent events,
 * without it (or with `alt=json`) as one JSON array written progressively (`clientStreamFraming: 'json-array'`);
 * any other `alt` is refused. Only lowerCamelCase keys are read (what `@google/genai` sends); an
 * unknown top-level or `generationConfig` key is refused rather than silently ignored.
 *
 * Mapping (the reverse of `encodeGeminiRequest`): `systemInstruction.parts[].text` → `system` (other part kinds
 * are refused); `contents` by `decodeClientContents`; `tools` and `toolConfig` by `decodeClientTools` and
 * `decodeClientToolConfig` (`googleSearch` → a hosted `web-search` tool by `decodeClientHostedTools`); `generationConfig` by `decodeClientGenerationConfig`. The result is checked against
 * the task schema.
 *
 * @throws {CodecErrorV1}
 */
export function decodeGeminiClientRequest(request: ClientWireRequestV1, options?: GeminiIngressOptionsV1): GeminiDecodedRequestV1 {
  const { model, method } = parseGeminiRequestPath(request.path);
  const stream = method === 'streamGenerateContent';
  const alt = request.query?.alt;
  if (alt !== undefined && alt !== 'sse' && alt !== 'json') throw unsupportedClientFeature('alt must be sse or json', 'query.alt');
  const jsonArrayStream = stream && alt !== 'sse';
  const body = parseSafeJsonBytes(request.body, options?.jsonLimits);
  if (!isJsonObject(body)) throw invalidClientRequest('request body is not a JSON object', '');
  for (const key of Object.keys(body)) {
    if (UNSUPPORTED_KEYS.has(key)) throw unsupportedClientFeature('field is not supported', key);
    if (!MAPPED_KEYS.has(key) && !DROPPED_KEYS.has(key)) throw invalidClientRequest('unknown request field', key);
  }
  const task: ChatTaskV2 = { kind: 'chat', stream, messages: decodeClientContents(body.contents) };
  const system = decodeSystemInstruction(body.systemInstruction);
  if (system !== undefined) task.system = system;
  const tools = decodeClientTools(body.tools);
  if (tools !== undefined) task.tools = tools;
  const hostedTools = decodeClientHostedTools(body.tools);
  const toolChoice = decodeClientToolConfig(body.toolConfig, task);
  if (toolChoice !== undefined) task.toolChoice = toolChoice;
  decodeClientGenerationConfig(body.generationConfig, task);
  const checked = chatTaskV3Schema.safeParse(hostedTools === undefined ? task : { ...task, hostedTools });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw invalidClientRequest('request does not make a valid task', issue === undefined ? '' : clientFieldPath(issue.path, GEMINI_FIELD_NAMES));
  }
  const decoded: GeminiDecodedRequestV1 = {
    task: checked.data,
    modelLabel: model,
    ...(hostedTools === undefined ? {} : { hostedToolNames: hostedTools.map(() => 'googleSearch') }),
    ...(jsonArrayStream ? { clientStreamFraming: 'json-array' as const } : {}),
  };
  return decoded;
}

function decodeSystemInstruction(value: unknown): TextPartV2[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value) || !Array.isArray(value.parts)) throw invalidClientRequest('systemInstruction needs parts', 'systemInstruction');
  return value.parts.map((part: unknown, index) => {
    if (!isJsonObject(part) || typeof part.text !== 'string') {
      throw unsupportedClientFeature('systemInstruction may only hold text parts', `systemInstruction.parts.${index}`);
    }
    return { type: 'text', text: part.text };
  });
}

/** Creates the `gemini-generate-content/v1` ingress codec ({@link decodeGeminiClientRequest}). */
export function createGeminiGenerateContentIngressCodec(options?: GeminiIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: GEMINI_GENERATE_CONTENT_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeGeminiClientRequest(request, options),
  });
}
