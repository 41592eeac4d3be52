import {
  planStructuredOutputV3,
  preparedMediaExecutionInputV2Schema,
  STRUCTURED_OUTPUT_TOOL_NAME_V3,
  taskEnvelopeV4Schema,
  type ChatMessageV4,
  type ChatTaskV4,
  type PreparedMediaExecutionInputV2,
  type PreparedMediaItemV2,
  type ProtocolCapabilityV3,
  type TaskEnvelopeV4,
  type TokenCountTaskV4,
} from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError } from '../../error/v1/protocol-engine-error-v1.js';
import { fastParseChatTask } from './fast-parse-chat-task.js';
import { assertNever, describePath, isSafeHttpsUrl } from './input-guards.js';

const MAX_CALLBACK_URL_LENGTH = 2048;

/** The task and the optional execution inputs after validation, as the adapter will receive them. */
export interface CheckedExecutionInputs {
  readonly task: TaskEnvelopeV4;
  readonly preparedMedia?: PreparedMediaExecutionInputV2;
  readonly providerCallbackUrl?: string;
}

/**
 * Validates the task with its schema (the parsed copy is what the engine uses from then on). A plain-data V2 chat
 * task takes the hand-written equivalent; anything it cannot decide (V3 members included) goes to the
 * `TaskEnvelopeV4` schema, which every V2 task also satisfies.
 */
export function parseTask(task: unknown): TaskEnvelopeV4 {
  const fast = fastParseChatTask(task);
  if (fast !== undefined) return fast;
  const parsed = taskEnvelopeV4Schema.safeParse(task);
  if (!parsed.success) {
    throw engineError(CODES.INPUT_INVALID, `the task is not a valid TaskEnvelopeV4${describePath(parsed.error.issues)}`, parsed.error);
  }
  return parsed.data;
}

/**
 * Checks everything the task asks for against what the target declares, before any transport work.
 * Reads only capability facts: never the provider or model name.
 */
export function checkTaskAgainstCapability(
  task: TaskEnvelopeV4,
  capability: ProtocolCapabilityV3,
  options: { readonly preparedMedia: unknown; readonly providerCallbackUrl: unknown },
): CheckedExecutionInputs {
  if (!capability.taskKinds.includes(task.kind)) {
    throw engineError(CODES.TARGET_TASK_MISMATCH, `the target does not accept ${task.kind} tasks`);
  }
  switch (task.kind) {
    case 'chat':
      checkChat(task, capability);
      break;
    case 'token-count':
      checkTokenCount(task, capability);
      break;
    case 'embedding': {
      const space = capability.embedding;
      if (space === undefined) throw engineError(CODES.INPUT_INVALID, 'the target accepts embedding tasks but declares no embedding space');
      if (task.dimensions !== undefined && task.dimensions !== space.defaultDimensions && !(space.allowedDimensions ?? []).includes(task.dimensions)) {
        throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'the target cannot produce vectors of the requested dimensions');
      }
      if (space.maxInputs !== undefined && task.inputs.length > space.maxInputs) {
        throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'the task has more inputs than the target accepts in one request');
      }
      break;
    }
    case 'image-generation':
    case 'image-edit':
    case 'rerank':
    case 'video-generation':
      break;
    default:
      assertNever(task);
  }
  const preparedMedia = checkPreparedMedia(task, capability, options.preparedMedia);
  const providerCallbackUrl = checkCallbackUrl(capability, options.providerCallbackUrl);
  return {
    task,
    ...(preparedMedia === undefined ? {} : { preparedMedia }),
    ...(providerCallbackUrl === undefined ? {} : { providerCallbackUrl }),
  };
}

function checkChat(task: ChatTaskV4, capability: ProtocolCapabilityV3): void {
  if (task.stream && capability.executionMode !== 'stream-capable') {
    throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'the target cannot stream');
  }
  checkTools(task, capability);
  if (task.parallelToolCalls !== undefined && capability.parallelToolCalls !== true) {
    throw engineError(CODES.PARALLEL_TOOL_CALLS_UNSUPPORTED, 'the target has no switch for parallel tool calls');
  }
  if (task.contextManagement !== undefined && capability.contextManagement !== true) {
    throw engineError(CODES.CONTEXT_MANAGEMENT_UNSUPPORTED, 'the target does not support context management');
  }
  checkStructuredOutput(task, capability);
  checkMessages(task.messages, task.reasoning !== undefined, capability);
}

/** A JSON-schema request needs a strategy the target can carry beside the rest of the task. */
function checkStructuredOutput(task: ChatTaskV4, capability: ProtocolCapabilityV3): void {
  const plan = planStructuredOutputV3(task, capability);
  if (plan.status !== 'refused') return;
  switch (plan.reason) {
    case 'unsupported':
      throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'the target does not support schema-constrained output');
    case 'tools-conflict':
      throw engineError(CODES.STRUCTURED_OUTPUT_CONFLICT, 'the target carries a schema as a forced tool call, which the task\'s own tools would conflict with');
    case 'reasoning-conflict':
      throw engineError(CODES.STRUCTURED_OUTPUT_CONFLICT, 'the target carries a schema as a forced tool call, which it cannot force while reasoning');
    default:
      assertNever(plan.reason);
  }
}

function checkTokenCount(task: TokenCountTaskV4, capability: ProtocolCapabilityV3): void {
  checkTools(task, capability);
  checkMessages(task.messages, task.reasoning !== undefined, capability);
}

/** Function tools, tool choice and hosted tools of a chat or token-count task. */
function checkTools(task: ChatTaskV4 | TokenCountTaskV4, capability: ProtocolCapabilityV3): void {
  const toolChoice = task.toolChoice;
  const usesTools = (task.tools !== undefined && task.tools.length > 0) || toolChoice !== undefined;
  if (task.tools?.some((tool) => tool.name === STRUCTURED_OUTPUT_TOOL_NAME_V3) === true) {
    throw engineError(CODES.INPUT_INVALID, 'a task tool uses the name reserved for structured output');
  }
  if (usesTools && capability.tools !== true) throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'the target does not support tools');
  if (toolChoice?.type === 'tool') {
    const toolName = toolChoice.toolName;
    if (!(task.tools ?? []).some((tool) => tool.name === toolName)) {
      throw engineError(CODES.INPUT_INVALID, 'the tool choice names a tool the task does not define');
    }
  }
  if ((toolChoice?.type === 'required' || toolChoice?.type === 'tool') && capability.forcedToolChoice !== true) {
    throw engineError(CODES.FORCED_TOOL_CHOICE_UNSUPPORTED, 'the target cannot force a tool call');
  }
  for (const hosted of task.hostedTools ?? []) {
    if (!(capability.hostedTools ?? []).includes(hosted.kind)) {
      throw engineError(CODES.HOSTED_TOOL_UNSUPPORTED, `the target does not run the ${hosted.kind} hosted tool`);
    }
  }
}

/** Media and reasoning parts of the conversation; `usesReasoning` when the task has reasoning controls. */
function checkMessages(messages: readonly ChatMessageV4[], usesReasoning: boolean, capability: ProtocolCapabilityV3): void {
  let reasoning = usesReasoning;
  for (const message of messages) {
    for (const part of message.content) {
      switch (part.type) {
        case 'image':
          requireFlag(capability.imageInput, 'image input');
          break;
        case 'document':
          requireFlag(capability.documentInput, 'document input');
          break;
        case 'audio':
          requireFlag(capability.audioInput, 'audio input');
          break;
        case 'reasoning':
        case 'redacted-reasoning':
          reasoning = true;
          break;
        case 'tool-result':
          for (const inner of part.content) if (inner.type === 'image') requireFlag(capability.imageInput, 'image input');
          break;
        case 'text':
        case 'tool-call':
        // Another family's compaction never reaches an encoder that could send it: a family without a carrier leaves it out.
        case 'compaction':
          break;
        default:
          assertNever(part);
      }
    }
  }
  if (reasoning) requireFlag(capability.reasoning, 'reasoning');
}

function requireFlag(flag: boolean | undefined, what: string): void {
  if (flag !== true) throw engineError(CODES.CAPABILITY_UNSUPPORTED, `the target does not support ${what}`);
}

function checkPreparedMedia(task: TaskEnvelopeV4, capability: ProtocolCapabilityV3, preparedMedia: unknown): PreparedMediaExecutionInputV2 | undefined {
  if (task.kind !== 'image-edit') {
    if (preparedMedia !== undefined) throw engineError(CODES.INPUT_INVALID, 'prepared media is accepted only for image-edit tasks');
    return undefined;
  }
  if (preparedMedia === undefined) throw engineError(CODES.INPUT_INVALID, 'an image-edit task needs prepared media');
  const parsed = preparedMediaExecutionInputV2Schema.safeParse(preparedMedia);
  if (!parsed.success) {
    throw engineError(CODES.INPUT_INVALID, `the prepared media is malformed${describePath(parsed.error.issues)}`, parsed.error);
  }
  const limit = capability.maxPreparedMediaBytes;
  if (limit === undefined) throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'the target declares no prepared media limit');
  if (parsed.data.totalBytes > limit) throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'the prepared media exceeds the target limit');
  // Rebuild from the validated facts; `open` stays bound to the host's item so class-based items keep working.
  const originals = (preparedMedia as { readonly items: readonly PreparedMediaItemV2[] }).items;
  const items = parsed.data.items.map((item, position): PreparedMediaItemV2 => {
    const original = originals[position] as PreparedMediaItemV2;
    const open = item.open;
    return Object.freeze({
      role: item.role,
      fileName: item.fileName,
      mediaType: item.mediaType,
      sizeBytes: item.sizeBytes,
      sha256: item.sha256,
      open: () => open.call(original),
    });
  });
  return Object.freeze({ items: Object.freeze(items), totalBytes: parsed.data.totalBytes });
}

function checkCallbackUrl(capability: ProtocolCapabilityV3, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CALLBACK_URL_LENGTH) {
    throw engineError(CODES.INPUT_INVALID, 'the provider callback URL must be a non-empty string of at most 2048 characters');
  }
  if (capability.callbackUrl !== true) throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'the target does not accept a provider callback URL');
  if (capability.executionMode !== 'async-job') {
    throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'a provider callback URL needs an async-job target');
  }
  if (!isSafeHttpsUrl(value)) throw engineError(CODES.INPUT_INVALID, 'the provider callback URL must be an https URL without userinfo');
  return value;
}
