import {
  chatTaskV2Schema,
  CodecErrorV1,
  type ChatTaskV2,
  type ClientWireRequestV1,
  type IngressCodecV1,
  type IngressDecodedRequestV1,
  type ReasoningControlV2,
  type ResponseFormatV2,
  type TextPartV2,
  type ToolChoiceV2,
  type ToolDefinitionV2,
} from '@tokenforge/model-protocol';
import { parseSafeJsonBytes } from '../../codec-kit/index.js';
import { ANTHROPIC_MESSAGES_PROTOCOL_FAMILY } from './protocol-family.js';
import { readAnthropicMessages, readCacheControl, readTextBlock } from './decode-client-content.js';
import {
  compact,
  invalid,
  isRecord,
  optionalBoolean,
  optionalInteger,
  optionalNumber,
  optionalString,
  requireArray,
  requireNonEmptyString,
  requireRecord,
  unsupported,
  type JsonRecord,
} from './client-readers.js';

/** A decoded Messages request, with the server tools that were dropped from the offered tools. */
export interface AnthropicMessagesDecodedRequestV1 extends IngressDecodedRequestV1 {
  /** Types of the server tools the client offered (they run at Anthropic, not at the target). */
  readonly droppedHostedTools?: readonly string[];
}

/** Options of {@link createAnthropicMessagesIngressCodec}. */
export interface AnthropicMessagesIngressOptionsV1 {
  /** Largest accepted body in bytes (default: the safe parser's 32 MiB). */
  readonly maxBodyBytes?: number;
}

function readSystem(value: unknown): TextPartV2[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.length === 0 ? undefined : [{ type: 'text', text: value }];
  if (!Array.isArray(value)) throw invalid('system', 'must be a string or an array of text blocks');
  return value.map((block, index) => {
    const record = requireRecord(block, `system.${index}`);
    if (record.type !== 'text') throw invalid(`system.${index}.type`, 'must be text');
    return readTextBlock(record, `system.${index}`);
  });
}

function joinSystem(top: TextPartV2[] | undefined, late: readonly TextPartV2[]): TextPartV2[] | undefined {
  if (late.length === 0) return top;
  return [...(top ?? []), ...late];
}

/**
 * Reads client tools; server tools (a `type` other than `custom`: web search, code execution, bash, text editor,
 * computer use, web fetch, ...) run at Anthropic, so they are dropped from the offered tools and their names
 * reported in `dropped`, never turned into functions.
 */
function readTools(value: unknown, dropped: { type: string; name: string | undefined }[]): ToolDefinitionV2[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid('tools', 'must be an array');
  const tools: ToolDefinitionV2[] = [];
  value.forEach((entry, index) => {
    const path = `tools.${index}`;
    const tool = requireRecord(entry, path);
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      if (typeof tool.type !== 'string') throw invalid(`${path}.type`, 'must be a string');
      dropped.push({ type: tool.type, name: typeof tool.name === 'string' ? tool.name : undefined });
      return;
    }
    const inputSchema = tool.input_schema;
    if (!isRecord(inputSchema)) throw invalid(`${path}.input_schema`, 'must be an object');
    tools.push(
      compact<ToolDefinitionV2>({
        name: requireNonEmptyString(tool, 'name', path),
        description: optionalString(tool, 'description', path),
        inputSchema,
        strict: optionalBoolean(tool, 'strict', path),
        cacheControl: readCacheControl(tool, path),
      }),
    );
  });
  return tools.length === 0 ? undefined : tools;
}

function readToolChoice(value: unknown): ToolChoiceV2 | undefined {
  if (value === undefined || value === null) return undefined;
  const choice = requireRecord(value, 'tool_choice');
  switch (choice.type) {
    case 'auto':
      return { type: 'auto' };
    case 'any':
      return { type: 'required' };
    case 'none':
      return { type: 'none' };
    case 'tool':
      return { type: 'tool', toolName: requireNonEmptyString(choice, 'name', 'tool_choice') };
    default:
      throw invalid('tool_choice.type', 'must be auto, any, tool or none');
  }
}

function readReasoning(body: JsonRecord): ReasoningControlV2 | undefined {
  let budgetTokens: number | undefined;
  let adaptive = false;
  let includeReasoning: boolean | undefined;
  const thinking = body.thinking;
  if (thinking !== undefined && thinking !== null) {
    const record = requireRecord(thinking, 'thinking');
    if (record.type === 'enabled') {
      budgetTokens = optionalInteger(record, 'budget_tokens', 'thinking', 1);
      if (budgetTokens === undefined) throw invalid('thinking.budget_tokens', 'is required');
    } else if (record.type === 'adaptive') {
      adaptive = true;
      const display = optionalString(record, 'display', 'thinking');
      if (display !== undefined && !ANTHROPIC_THINKING_DISPLAYS.has(display)) throw invalid('thinking.display', 'is not a known display');
      includeReasoning = display !== 'omitted';
    } else if (record.type !== 'disabled') {
      throw invalid('thinking.type', 'must be enabled, disabled or adaptive');
    }
  }
  const effort = readEffort(body.output_config);
  if (effort === 'none') return undefined;
  if (budgetTokens === undefined && effort === undefined && !adaptive) return undefined;
  // Adaptive thinking without an effort is the API's default effort, high.
  const taskEffort = effort ?? (adaptive ? 'high' : undefined);
  // Enabled thinking returns thinking blocks to the client, so the task asks for reasoning output too.
  return compact<ReasoningControlV2>({
    budgetTokens,
    effort: taskEffort === undefined ? undefined : ANTHROPIC_CLIENT_EFFORT_TO_TASK[taskEffort],
    includeReasoning: budgetTokens === undefined ? includeReasoning : true,
  });
}

const ANTHROPIC_THINKING_DISPLAYS: ReadonlySet<string> = new Set(['summarized', 'omitted', 'updates', 'full']);

/** The client effort scale. */
type AnthropicClientEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * Client effort to task effort: the V2 task scale stops at `high`, so `xhigh` and `max` ask for the task's
 * highest effort (documented in docs/translation-table.md); `none` turns reasoning off.
 */
export const ANTHROPIC_CLIENT_EFFORT_TO_TASK: Readonly<Record<Exclude<AnthropicClientEffort, 'none'>, NonNullable<ReasoningControlV2['effort']>>> = {
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

function readEffort(value: unknown): AnthropicClientEffort | undefined {
  if (!isRecord(value) || value.effort === undefined || value.effort === null) return undefined;
  const effort = value.effort;
  if (effort === 'none' || effort === 'minimal' || effort === 'low' || effort === 'medium' || effort === 'high' || effort === 'xhigh' || effort === 'max') return effort;
  throw invalid('output_config.effort', 'is not a known effort');
}

function readResponseFormat(value: unknown): ResponseFormatV2 | undefined {
  if (value === undefined || value === null) return undefined;
  const config = requireRecord(value, 'output_config');
  if (config.format === undefined || config.format === null) return undefined;
  const format = requireRecord(config.format, 'output_config.format');
  if (format.type !== 'json_schema') throw invalid('output_config.format.type', 'must be json_schema');
  if (!isRecord(format.schema)) throw invalid('output_config.format.schema', 'must be an object');
  return { type: 'json', schema: format.schema };
}

function readStopSequences(body: JsonRecord): string[] | undefined {
  if (body.stop_sequences === undefined || body.stop_sequences === null) return undefined;
  const sequences = requireArray(body, 'stop_sequences', 'body');
  return sequences.map((sequence, index) => {
    if (typeof sequence !== 'string') throw invalid(`stop_sequences.${index}`, 'must be a string');
    return sequence;
  });
}

/**
 * Decodes a client's `POST /v1/messages` body into a chat task (the path is not checked: hosts mount the
 * dialect where they like).
 *
 * Field rules: `model` → `modelLabel`; `max_tokens` (required; 0, the cache pre-warm, cannot be represented)
 * → `maxOutputTokens`; `system` (string or text blocks) → `system`; `messages` per `readAnthropicMessages`;
 * `tools` (client tools; server tools are dropped and reported, see `readTools`) and `tool_choice` (forcing a dropped
 * server tool is refused) (`any` → `required`;
 * `disable_parallel_tool_use` has no normalized counterpart and is dropped; tool `defer_loading` and
 * `eager_input_streaming` are delivery hints and dropped); `thinking.enabled` → `reasoning.budgetTokens`
 * (`disabled` → none); `thinking.adaptive` → reasoning at `output_config.effort` (high when absent), returned to
 * the client unless `display` is `omitted`; `output_config.effort` over none, minimal, low, medium, high, xhigh,
 * max → `reasoning.effort` by {@link ANTHROPIC_CLIENT_EFFORT_TO_TASK} (`none` sends no reasoning);
 * `output_config.format` (json_schema) → a JSON response format with that schema; `temperature`, `top_p`,
 * `top_k` → sampling; `stop_sequences`; `stream` (default false). `metadata` (`user_id` included),
 * `context_management`, `service_tier`, `container`, `inference_geo`, a top-level `cache_control` and unknown
 * fields are ignored: none of them changes the answer. The result must satisfy the task schema.
 *
 * @throws {CodecErrorV1} `body-too-large`, `malformed-json`, `invalid-encoding`, `nesting-too-deep`,
 * `forbidden-key` from the safe parser; `invalid-request` for a malformed request; `unsupported-feature` for
 * what a task cannot represent.
 */
export function decodeAnthropicMessagesRequest(request: ClientWireRequestV1, options?: AnthropicMessagesIngressOptionsV1): AnthropicMessagesDecodedRequestV1 {
  const parsed = parseSafeJsonBytes(request.body, options?.maxBodyBytes === undefined ? undefined : { maxBytes: options.maxBodyBytes });
  const body = requireRecord(parsed, 'body');
  const model = requireNonEmptyString(body, 'model', 'body');
  if (model.length > 256) throw invalid('model', 'must be at most 256 characters');
  const maxTokens = optionalInteger(body, 'max_tokens', 'body', 0);
  if (maxTokens === undefined) throw invalid('max_tokens', 'is required');
  if (maxTokens === 0) throw unsupported('max_tokens', 'a zero max_tokens (cache pre-warm)');
  const lateSystem: TextPartV2[] = [];
  const messages = readAnthropicMessages(requireArray(body, 'messages', 'body'), lateSystem);
  const stream = optionalBoolean(body, 'stream', 'body') ?? false;
  const temperature = optionalNumber(body, 'temperature', 'body', 0, 1);
  const topP = optionalNumber(body, 'top_p', 'body', 0, 1);
  const topK = optionalInteger(body, 'top_k', 'body', 1);
  const sampling = temperature === undefined && topP === undefined && topK === undefined ? undefined : compact({ temperature, topP, topK });
  const dropped: { type: string; name: string | undefined }[] = [];
  const tools = readTools(body.tools, dropped);
  const toolChoice = readToolChoice(body.tool_choice);
  if (toolChoice?.type === 'tool' && dropped.some((tool) => tool.name === toolChoice.toolName)) {
    throw unsupported('tool_choice.name', 'forcing a server tool the target cannot run');
  }
  const candidate = compact<ChatTaskV2>({
    kind: 'chat',
    system: joinSystem(readSystem(body.system), lateSystem),
    messages,
    tools,
    toolChoice,
    responseFormat: readResponseFormat(body.output_config),
    sampling,
    maxOutputTokens: maxTokens,
    stopSequences: readStopSequences(body),
    reasoning: readReasoning(body),
    stream,
  });
  const checked = chatTaskV2Schema.safeParse(candidate);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue === undefined ? 'body' : issue.path.map(String).join('.') || 'body';
    throw new CodecErrorV1('invalid-request', `the request does not form a valid task at ${path}`, { path });
  }
  const decoded: AnthropicMessagesDecodedRequestV1 = { task: checked.data, modelLabel: model, ...(dropped.length === 0 ? {} : { droppedHostedTools: dropped.map((tool) => tool.type) }) };
  return decoded;
}

/** Creates the `anthropic-messages/v1` ingress codec (see {@link decodeAnthropicMessagesRequest}). */
export function createAnthropicMessagesIngressCodec(options?: AnthropicMessagesIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: ANTHROPIC_MESSAGES_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeAnthropicMessagesRequest(request, options),
  });
}
