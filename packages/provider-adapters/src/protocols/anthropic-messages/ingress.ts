import {
  chatTaskV4Schema,
  CodecErrorV1,
  type ChatTaskV4,
  type CompactionControlV4,
  type ClientWireRequestV1,
  type ContextManagementV3,
  type HostedToolV3,
  type IngressCodecV1,
  type IngressDecodedRequestV1,
  type ReasoningControlV2,
  type ReasoningControlV3,
  type ResponseFormatV2,
  type TextPartV2,
  type ToolChoiceV2,
  type ToolDefinitionV3,
} from '@tokenforge/model-protocol';
import { acceptEndUserId, parseSafeJsonBytes, readDomainList } from '../../codec-kit/index.js';
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
import { createToolNameCheck } from '../../codec-kit/tool-name-check.js';

/** A decoded Messages request, with the server tools that were dropped from the offered tools. */
export interface AnthropicMessagesDecodedRequestV1 extends IngressDecodedRequestV1 {
  /** Types of the server tools the client offered (they run at Anthropic, not at the target). */
  readonly droppedHostedTools?: readonly string[];
  /** The client's tool types of the task's `hostedTools`, in the same order (a host names dropped ones by them). */
  readonly hostedToolNames?: readonly string[];
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

/** Anthropic's web search server tool types: `web_search_20250305` and later dated versions. */
const WEB_SEARCH_TOOL_TYPE = /^web_search_\d{8}$/;

/** The tools of a request: function tools, hosted tools the task normalizes (with the client's types) and dropped ones. */
interface ReadTools {
  readonly tools: ToolDefinitionV3[];
  readonly hosted: HostedToolV3[];
  readonly hostedNames: string[];
  readonly hostedToolNames: Set<string>;
}

/**
 * Reads client tools. The web search server tool (`web_search_YYYYMMDD`) becomes a hosted `web-search` tool with
 * `max_uses`, `allowed_domains` and `blocked_domains`; other server tools (code execution, bash, text editor,
 * computer use, web fetch, ...) run at Anthropic and have no normalized kind, so they are dropped from the offered
 * tools and their types reported in `dropped`, never turned into functions. Function tools keep `defer_loading`
 * and `eager_input_streaming`.
 */
function readTools(value: unknown, dropped: { type: string; name: string | undefined }[]): ReadTools {
  const read: ReadTools = { tools: [], hosted: [], hostedNames: [], hostedToolNames: new Set() };
  if (value === undefined || value === null) return read;
  if (!Array.isArray(value)) throw invalid('tools', 'must be an array');
  const checkName = createToolNameCheck();
  value.forEach((entry, index) => {
    const path = `tools.${index}`;
    const tool = requireRecord(entry, path);
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      if (typeof tool.type !== 'string') throw invalid(`${path}.type`, 'must be a string');
      if (typeof tool.name === 'string') read.hostedToolNames.add(tool.name);
      if (WEB_SEARCH_TOOL_TYPE.test(tool.type)) {
        read.hosted.push(
          compact<HostedToolV3>({
            kind: 'web-search',
            maxUses: optionalInteger(tool, 'max_uses', path, 1),
            allowedDomains: readDomainList(tool.allowed_domains),
            blockedDomains: readDomainList(tool.blocked_domains),
          }),
        );
        read.hostedNames.push(tool.type);
        return;
      }
      dropped.push({ type: tool.type, name: typeof tool.name === 'string' ? tool.name : undefined });
      return;
    }
    const inputSchema = tool.input_schema;
    if (!isRecord(inputSchema)) throw invalid(`${path}.input_schema`, 'must be an object');
    const name = requireNonEmptyString(tool, 'name', path);
    checkName(name, `${path}.name`);
    read.tools.push(
      compact<ToolDefinitionV3>({
        name,
        description: optionalString(tool, 'description', path),
        inputSchema,
        strict: optionalBoolean(tool, 'strict', path),
        cacheControl: readCacheControl(tool, path),
        deferLoading: optionalBoolean(tool, 'defer_loading', path),
        eagerInputStreaming: optionalBoolean(tool, 'eager_input_streaming', path),
      }),
    );
  });
  return read;
}

/**
 * Reads `context_management.edits`: `clear_thinking_*` (`keep` `all` or `{type: "thinking_turns", value}`) and
 * `clear_tool_uses_*` (`trigger`, `keep`, `clear_at_least`, `exclude_tools`, `clear_tool_inputs`). Edits of other
 * types and members of unknown shape are left out: context management is a hint.
 */
function readContextManagement(value: unknown): ContextManagementV3 | undefined {
  if (!isRecord(value) || !Array.isArray(value.edits)) return undefined;
  const out: { -readonly [K in keyof ContextManagementV3]: ContextManagementV3[K] } = {};
  for (const edit of value.edits) {
    if (!isRecord(edit) || typeof edit.type !== 'string') continue;
    if (edit.type.startsWith('clear_thinking_')) {
      const keep = edit.keep === 'all' ? 'all' : typedCount(edit.keep, 'thinking_turns');
      out.clearThinking = keep === undefined ? {} : { keep };
    } else if (edit.type.startsWith('clear_tool_uses_')) {
      const exclude = Array.isArray(edit.exclude_tools) ? edit.exclude_tools.filter((name): name is string => typeof name === 'string') : undefined;
      out.clearToolUses = compact<NonNullable<ContextManagementV3['clearToolUses']>>({
        triggerInputTokens: typedCount(edit.trigger, 'input_tokens'),
        keepToolUses: typedCount(edit.keep, 'tool_uses', 0),
        clearAtLeastInputTokens: typedCount(edit.clear_at_least, 'input_tokens'),
        excludeTools: exclude === undefined || exclude.length === 0 ? undefined : exclude,
        clearToolInputs: typeof edit.clear_tool_inputs === 'boolean' ? edit.clear_tool_inputs : undefined,
      });
    }
  }
  return out.clearThinking === undefined && out.clearToolUses === undefined ? undefined : out;
}

/**
 * Reads the `compact_20260112` edit of `context_management.edits` (server-side compaction,
 * https://platform.claude.com/docs/en/build-with-claude/compaction): `trigger` (input tokens),
 * `pause_after_compaction`, `instructions`. Members of unknown shape are left out; `undefined` without the edit.
 */
function readCompactionControl(value: unknown): CompactionControlV4 | undefined {
  if (!isRecord(value) || !Array.isArray(value.edits)) return undefined;
  const edit = value.edits.find((entry): entry is Record<string, unknown> => isRecord(entry) && typeof entry.type === 'string' && entry.type.startsWith('compact_'));
  if (edit === undefined) return undefined;
  return compact<CompactionControlV4>({
    triggerInputTokens: typedCount(edit.trigger, 'input_tokens'),
    pauseAfterCompaction: typeof edit.pause_after_compaction === 'boolean' ? edit.pause_after_compaction : undefined,
    instructions: typeof edit.instructions === 'string' && edit.instructions.trim().length > 0 ? edit.instructions : undefined,
  });
}

/** The `value` of a `{type, value}` count of the given type, when it is a whole number of at least `min`. */
function typedCount(value: unknown, type: string, min = 1): number | undefined {
  if (!isRecord(value) || value.type !== type) return undefined;
  const count = value.value;
  return typeof count === 'number' && Number.isInteger(count) && count >= min ? count : undefined;
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

function readReasoning(body: JsonRecord): ReasoningControlV3 | undefined {
  let budgetTokens: number | undefined;
  let adaptive = false;
  let includeReasoning: boolean | undefined;
  let display: ReasoningControlV3['display'];
  const thinking = body.thinking;
  if (thinking !== undefined && thinking !== null) {
    const record = requireRecord(thinking, 'thinking');
    if (record.type === 'enabled') {
      budgetTokens = optionalInteger(record, 'budget_tokens', 'thinking', 1);
      if (budgetTokens === undefined) throw invalid('thinking.budget_tokens', 'is required');
    } else if (record.type === 'adaptive') {
      adaptive = true;
      const shown = optionalString(record, 'display', 'thinking');
      if (shown !== undefined && !ANTHROPIC_THINKING_DISPLAYS.has(shown)) throw invalid('thinking.display', 'is not a known display');
      includeReasoning = shown !== 'omitted';
      display = shown === 'summarized' || shown === 'omitted' || shown === 'updates' ? shown : undefined;
    } else if (record.type !== 'disabled') {
      throw invalid('thinking.type', 'must be enabled, disabled or adaptive');
    }
  }
  const effort = readEffort(body.output_config);
  // `none` asks for no reasoning: kept as the level alone (a host leaves it out for a target without `none`).
  if (effort === 'none') return { effort: 'none' };
  if (budgetTokens === undefined && effort === undefined && !adaptive) return undefined;
  // Adaptive thinking without an effort is the API's default effort, high.
  const taskEffort = effort ?? (adaptive ? 'high' : undefined);
  // Enabled thinking returns thinking blocks to the client, so the task asks for reasoning output too.
  return compact<ReasoningControlV3>({
    budgetTokens,
    effort: taskEffort,
    includeReasoning: budgetTokens === undefined ? includeReasoning : true,
    adaptive: adaptive ? true : undefined,
    display,
  });
}

const ANTHROPIC_THINKING_DISPLAYS: ReadonlySet<string> = new Set(['summarized', 'omitted', 'updates', 'full']);

/** The client effort scale. */
type AnthropicClientEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * Client effort to V2 task effort (the V2 scale stops at `high`). The decoder now keeps the client's level on the
 * V3 scale; this table remains for hosts that need a V2 effort.
 *
 * @deprecated The task carries the V3 effort unchanged.
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

/** `tool_choice.disable_parallel_tool_use: true` turns parallel tool calls off; `false` keeps them on. */
function readParallelToolCalls(value: unknown): boolean | undefined {
  if (!isRecord(value) || typeof value.disable_parallel_tool_use !== 'boolean') return undefined;
  return !value.disable_parallel_tool_use;
}

/**
 * The JSON response format: `output_config.format`, or the structured-outputs beta's top-level `output_format`
 * (same shape; clients built against the beta still send it). Both at once must agree.
 */
function readResponseFormat(body: JsonRecord): ResponseFormatV2 | undefined {
  let config: unknown;
  if (body.output_config !== undefined && body.output_config !== null) config = requireRecord(body.output_config, 'output_config').format;
  const ga = readJsonSchemaFormat(config, 'output_config.format');
  const beta = readJsonSchemaFormat(body.output_format, 'output_format');
  if (ga !== undefined && beta !== undefined && JSON.stringify(ga) !== JSON.stringify(beta)) {
    throw invalid('output_format', 'differs from output_config.format');
  }
  const schema = ga ?? beta;
  return schema === undefined ? undefined : { type: 'json', schema };
}

/** The schema of a `{type: "json_schema", schema}` format, `undefined` when no format was sent. */
function readJsonSchemaFormat(value: unknown, path: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  const format = requireRecord(value, path);
  if (format.type !== 'json_schema') throw invalid(`${path}.type`, 'must be json_schema');
  if (!isRecord(format.schema)) throw invalid(`${path}.schema`, 'must be an object');
  return format.schema;
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
 * `tools` (client tools with `defer_loading` and `eager_input_streaming`; the web search server tool becomes a
 * hosted `web-search` tool, other server tools are dropped and reported, see `readTools`) and `tool_choice` (forcing
 * a server tool is refused) (`any` → `required`; `disable_parallel_tool_use` → `parallelToolCalls` negated);
 * `thinking.enabled` → `reasoning.budgetTokens` (`disabled` → none); `thinking.adaptive` → `reasoning.adaptive` at
 * `output_config.effort` (high when absent), returned to the client unless `display` is `omitted` (`display`
 * kept); `output_config.effort` over none … max → `reasoning.effort` unchanged (`none` alone when asked);
 * `output_config.format` (json_schema), or the beta's top-level `output_format` (the two must agree when both are
 * sent) → a JSON response format with that schema; `temperature`, `top_p`,
 * `top_k` → sampling; `stop_sequences`; `stream` (default false); `metadata.user_id` → `endUserId` (left out
 * when not a printable string within the bound); `context_management` clearing edits → `contextManagement` and its `compact_20260112` edit → `compaction`
 * (see `readContextManagement`). The rest of `metadata`, `service_tier`, `container`, `inference_geo`, a top-level
 * `cache_control` and unknown
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
  const read = readTools(body.tools, dropped);
  const toolChoice = readToolChoice(body.tool_choice);
  if (toolChoice?.type === 'tool' && read.hostedToolNames.has(toolChoice.toolName)) {
    throw unsupported('tool_choice.name', 'forcing a server tool the target cannot run');
  }
  const metadata = isRecord(body.metadata) ? body.metadata : undefined;
  const candidate = compact<ChatTaskV4>({
    kind: 'chat',
    system: joinSystem(readSystem(body.system), lateSystem),
    messages,
    tools: read.tools.length === 0 ? undefined : read.tools,
    hostedTools: read.hosted.length === 0 ? undefined : read.hosted,
    toolChoice,
    parallelToolCalls: readParallelToolCalls(body.tool_choice),
    contextManagement: readContextManagement(body.context_management),
    compaction: readCompactionControl(body.context_management),
    endUserId: acceptEndUserId(metadata?.user_id),
    responseFormat: readResponseFormat(body),
    sampling,
    maxOutputTokens: maxTokens,
    stopSequences: readStopSequences(body),
    reasoning: readReasoning(body),
    stream,
  });
  const checked = chatTaskV4Schema.safeParse(candidate);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue === undefined ? 'body' : issue.path.map(String).join('.') || 'body';
    throw new CodecErrorV1('invalid-request', `the request does not form a valid task at ${path}`, { path });
  }
  const decoded: AnthropicMessagesDecodedRequestV1 = {
    task: checked.data,
    modelLabel: model,
    ...(dropped.length === 0 ? {} : { droppedHostedTools: dropped.map((tool) => tool.type) }),
    ...(read.hostedNames.length === 0 ? {} : { hostedToolNames: read.hostedNames }),
  };
  return decoded;
}

/** Creates the `anthropic-messages/v1` ingress codec (see {@link decodeAnthropicMessagesRequest}). */
export function createAnthropicMessagesIngressCodec(options?: AnthropicMessagesIngressOptionsV1): IngressCodecV1 {
  return Object.freeze({
    protocolFamily: ANTHROPIC_MESSAGES_PROTOCOL_FAMILY,
    decodeRequest: (request: ClientWireRequestV1) => decodeAnthropicMessagesRequest(request, options),
  });
}
