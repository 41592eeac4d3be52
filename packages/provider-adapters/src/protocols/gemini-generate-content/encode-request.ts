import {
  CodecErrorV1,
  type ChatTaskV4,
  type ProviderTransportBody,
  type ReasoningControlV3,
  type ReasoningEffortV3,
  type TaskEnvelopeV4,
  type ToolChoiceV2,
} from '@tokenforge/model-protocol';
import { encodeGeminiContents, type GeminiMissingSignaturePolicy } from './encode-contents.js';
import { toGeminiJsonSchema } from './encode-json-schema.js';
import { resolveReasoningEffortV3 } from '../../codec-kit/index.js';
import { buildGeminiModelPath } from './model-path.js';
import { assertNever } from './assert-never.js';

/** How a reasoning effort (without a token budget) goes on the wire. */
export type GeminiEffortEncoding = 'thinking-budget' | 'thinking-level';

/** Options of {@link encodeGeminiRequest} (protocol options of the adapter factory). */
export interface GeminiEncodeOptions {
  /**
   * `thinking-budget` (default; understood by the 2.5 and 3 model generations) sends an effort as
   * `thinkingBudget` by {@link GEMINI_EFFORT_BUDGETS}; `thinking-level` sends it as `thinkingLevel`
   * (`MINIMAL`/`LOW`/`MEDIUM`/`HIGH`, the Gemini 3 control).
   */
  readonly effortEncoding?: GeminiEffortEncoding;
  /**
   * A replayed model turn whose first function call has no signature (a conversation carried through a dialect
   * that drops Gemini's signatures): `omit` (default) sends it as it is, which Gemini 3 models refuse with a
   * 400; `skip-validator` adds Google's documented placeholder signature so that Gemini accepts the history
   * without validating it.
   */
  readonly missingToolCallSignature?: GeminiMissingSignaturePolicy;
}

/** The effort levels Gemini's encodings carry (budgets, or `thinkingLevel` names). */
type GeminiEffort = 'minimal' | 'low' | 'medium' | 'high';
const GEMINI_EFFORTS: readonly GeminiEffort[] = ['minimal', 'low', 'medium', 'high'];

/** The token budget each effort stands for under `thinking-budget`. */
export const GEMINI_EFFORT_BUDGETS: Readonly<Record<GeminiEffort, number>> = {
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24_576,
};

/** Gemini accepts at most this many stop sequences. */
export const GEMINI_MAX_STOP_SEQUENCES = 5;

/** A request for the transport, without the abort signal (the adapter adds it). */
export interface GeminiEncodedRequest {
  /** Always `POST`. */
  readonly method: 'POST';
  /** `/v1beta/models/{model}:generateContent` or `:streamGenerateContent`. */
  readonly path: string;
  /** `{alt: 'sse'}` for streams, absent otherwise. */
  readonly query?: Readonly<Record<string, string>>;
  /** Non-auth headers: only `accept`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body. */
  readonly body: ProviderTransportBody;
}

/**
 * Encodes a chat task as a Gemini generateContent request (pure).
 *
 * Mapping rules beyond `encodeGeminiContents`:
 * - `system` → `systemInstruction.parts`;
 * - `tools` → one `{functionDeclarations}` tool; parameters go in `parametersJsonSchema` through
 *   `toGeminiJsonSchema`; `strict` and cache breakpoints are dropped (no Gemini form);
 * - `toolChoice` → `toolConfig.functionCallingConfig`: auto `AUTO`, none `NONE`, required `ANY`, a named tool
 *   `ANY` + `allowedFunctionNames`; omitted when there are no tools (nothing to choose from);
 * - `responseFormat` json → `responseMimeType: application/json` (+ `responseJsonSchema`); `name` and
 *   `strict` are dropped (a Gemini schema is always enforced);
 * - sampling, `maxOutputTokens`, `stopSequences` (at most 5: more is refused) → `generationConfig`;
 * - reasoning → `thinkingConfig`: `budgetTokens` → `thinkingBudget` (always wins); otherwise the effort by
 *   `options.effortEncoding` (default: `thinking-level` when the target declares `reasoningEfforts`, else
 *   `thinking-budget`); `includeReasoning` → `includeThoughts`;
 * - hosted web search → a `{googleSearch}` tool before the function declarations;
 * - `caching` and `idempotencyKey` are dropped: Gemini has no per-request cache key or idempotency key;
 * - `candidateCount` is never sent (one candidate).
 *
 * @throws {CodecErrorV1} `invalid-request` (unsafe model name, bad arguments or media, unknown tool in the
 * choice) or `unsupported-feature` (a task kind other than chat, too many stop sequences, schema keywords).
 */
export function encodeGeminiRequest(
  task: TaskEnvelopeV4,
  providerModel: string,
  options?: GeminiEncodeOptions,
  reasoningEfforts?: readonly ReasoningEffortV3[],
): GeminiEncodedRequest {
  if (task.kind !== 'chat') {
    throw new CodecErrorV1('unsupported-feature', 'Gemini generateContent runs chat tasks only', { path: 'kind' });
  }
  const path = buildGeminiModelPath(providerModel, task.stream ? 'streamGenerateContent' : 'generateContent');
  const body: Record<string, unknown> = { contents: encodeGeminiContents(task.messages, options?.missingToolCallSignature) };
  if (task.system !== undefined && task.system.length > 0) {
    body.systemInstruction = { parts: task.system.map((part) => ({ text: part.text })) };
  }
  const hosted = encodeHostedTools(task.hostedTools);
  if (hosted.length > 0) body.tools = hosted;
  if (task.tools !== undefined && task.tools.length > 0) {
    body.tools = [
      ...hosted,
      {
        functionDeclarations: task.tools.map((tool, index) => ({
          name: tool.name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          parametersJsonSchema: toGeminiJsonSchema(tool.inputSchema, `tools.${index}.inputSchema`),
        })),
      },
    ];
    if (task.toolChoice !== undefined) {
      body.toolConfig = { functionCallingConfig: encodeToolChoice(task.toolChoice, task) };
    }
  }
  const generationConfig = encodeGenerationConfig(task, options, reasoningEfforts);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return {
    method: 'POST',
    path,
    ...(task.stream ? { query: { alt: 'sse' } } : {}),
    // The transport sets content-type for JSON bodies.
    headers: { accept: task.stream ? 'text/event-stream' : 'application/json' },
    body: { type: 'json', value: body },
  };
}

/**
 * Hosted tools: `web-search` → `{googleSearch: {}}` (blocked domains as `excludeDomains`; `maxUses` has no Gemini
 * field and is dropped).
 *
 * @throws {CodecErrorV1} `unsupported-feature` for allowed domains (Google Search cannot be limited to domains,
 * and searching beyond them would change the answer).
 */
function encodeHostedTools(hostedTools: ChatTaskV4['hostedTools']): Record<string, unknown>[] {
  return (hostedTools ?? []).map((tool, index) => {
    if (tool.allowedDomains !== undefined && tool.allowedDomains.length > 0) {
      throw new CodecErrorV1('unsupported-feature', 'Google Search cannot be limited to allowed domains', { path: `hostedTools.${index}.allowedDomains` });
    }
    return { googleSearch: tool.blockedDomains === undefined || tool.blockedDomains.length === 0 ? {} : { excludeDomains: [...tool.blockedDomains] } };
  });
}

function encodeToolChoice(choice: ToolChoiceV2, task: ChatTaskV4): Record<string, unknown> {
  switch (choice.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      if (!(task.tools ?? []).some((tool) => tool.name === choice.toolName)) {
        throw new CodecErrorV1('invalid-request', 'tool choice names a tool the task does not define', { path: 'toolChoice.toolName' });
      }
      return { mode: 'ANY', allowedFunctionNames: [choice.toolName] };
    default:
      return assertNever(choice, 'tool choice');
  }
}

function encodeGenerationConfig(
  task: ChatTaskV4,
  options: GeminiEncodeOptions | undefined,
  reasoningEfforts: readonly ReasoningEffortV3[] | undefined,
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const sampling = task.sampling;
  if (sampling?.temperature !== undefined) config.temperature = sampling.temperature;
  if (sampling?.topP !== undefined) config.topP = sampling.topP;
  if (sampling?.topK !== undefined) config.topK = sampling.topK;
  if (sampling?.presencePenalty !== undefined) config.presencePenalty = sampling.presencePenalty;
  if (sampling?.frequencyPenalty !== undefined) config.frequencyPenalty = sampling.frequencyPenalty;
  if (sampling?.seed !== undefined) config.seed = sampling.seed;
  if (task.maxOutputTokens !== undefined) config.maxOutputTokens = task.maxOutputTokens;
  if (task.stopSequences !== undefined && task.stopSequences.length > 0) {
    if (task.stopSequences.length > GEMINI_MAX_STOP_SEQUENCES) {
      throw new CodecErrorV1('unsupported-feature', `Gemini accepts at most ${GEMINI_MAX_STOP_SEQUENCES} stop sequences`, {
        path: 'stopSequences',
      });
    }
    config.stopSequences = [...task.stopSequences];
  }
  const format = task.responseFormat;
  if (format?.type === 'json') {
    config.responseMimeType = 'application/json';
    if (format.schema !== undefined) config.responseJsonSchema = toGeminiJsonSchema(format.schema, 'responseFormat.schema');
  }
  // A target that declares its effort levels takes them as levels; otherwise the protocol option decides.
  const encoding = options?.effortEncoding ?? (reasoningEfforts === undefined ? 'thinking-budget' : 'thinking-level');
  const thinking = encodeThinkingConfig(task.reasoning, encoding, reasoningEfforts);
  if (thinking !== undefined) config.thinkingConfig = thinking;
  return config;
}

function encodeThinkingConfig(
  reasoning: ReasoningControlV3 | undefined,
  effortEncoding: GeminiEffortEncoding,
  reasoningEfforts: readonly ReasoningEffortV3[] | undefined,
): Record<string, unknown> | undefined {
  if (reasoning === undefined) return undefined;
  const config: Record<string, unknown> = {};
  if (reasoning.budgetTokens !== undefined) config.thinkingBudget = reasoning.budgetTokens;
  else if (reasoning.effort !== undefined) {
    // `none`, `xhigh` and `max` have no Gemini level or budget: the nearest level the target declares stands in.
    const effort = resolveReasoningEffortV3(reasoning.effort, reasoningEfforts, GEMINI_EFFORTS);
    if (effortEncoding === 'thinking-level') config.thinkingLevel = effort.toUpperCase();
    else config.thinkingBudget = GEMINI_EFFORT_BUDGETS[effort];
  }
  if (reasoning.includeReasoning !== undefined) config.includeThoughts = reasoning.includeReasoning;
  return Object.keys(config).length > 0 ? config : undefined;
}
