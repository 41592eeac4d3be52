import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { readServiceTier } from '../../codec-kit/usage-detail-readers.js';
import { CONTRACT_BOUNDS_V1 as BOUNDS } from '@tokenforge/model-protocol';
import { createWireReaders, isWireRecord, type WireRecord } from '../../codec-kit/wire-readers.js';

/** The readers of this family's wire JSON (messages start with `openai-responses`). */
export const OPENAI_RESPONSES_WIRE = createWireReaders({ family: 'openai-responses' });
const wire = OPENAI_RESPONSES_WIRE;
/** Largest `output_index` / `content_index` / `summary_index` accepted (anything larger is hostile). */
export const OPENAI_RESPONSES_MAX_WIRE_INDEX = 1_000_000;

/*
 * Tolerant readers of what an OpenAI Responses server sends (§2.5 to §2.10 of the chat wire fact sheet). They read
 * only the fields this family uses, allow any extra key, treat `null` like an absent optional field, and throw a
 * ProtocolViolationError naming the JSON path (never the value) when a field we read is missing, mistyped or out of
 * range. Hand-written instead of zod: stream events are read once each, where house-style §14 asks for a check close
 * to the cost of JSON.parse.
 */

/** `usage` of a Response, flattened to the fields we read. */
export interface OpenAiResponsesWireUsage {
  readonly input_tokens?: number;
  readonly cached_tokens?: number;
  readonly cache_write_tokens?: number;
  readonly output_tokens?: number;
  readonly reasoning_tokens?: number;
  readonly total_tokens?: number;
  /** The Response's `service_tier` (`default`, `flex`, `priority`, ...), when readable (a malformed one is left out). */
  readonly service_tier?: string;
}

/** An error object: `response.error` (`{code, message}`), an `error` event (flat or nested) or an HTTP error body. */
export interface OpenAiResponsesWireError {
  readonly code?: string | number;
  readonly type?: string;
  readonly message?: string;
  readonly param?: string;
}

/** One content part of a `message` output item. */
export type OpenAiResponsesWireContentPart =
  | { readonly type: 'output_text'; readonly text: string }
  | { readonly type: 'refusal'; readonly text: string };

/** An output item, reduced to what this family reads. */
export type OpenAiResponsesWireOutputItem =
  | {
      readonly type: 'message';
      readonly id: string | undefined;
      readonly content: readonly OpenAiResponsesWireContentPart[];
    }
  | {
      readonly type: 'reasoning';
      readonly id: string | undefined;
      /** `summary[].text`, in order. */
      readonly summary: readonly string[];
      /** `content[].text` (`reasoning_text` parts), in order. */
      readonly content: readonly string[];
      /** `encrypted_content`, when non-empty. */
      readonly encryptedContent: string | undefined;
    }
  | {
      readonly type: 'function_call';
      readonly id: string | undefined;
      readonly callId: string;
      readonly name: string;
      /** The argument JSON text (`""` on a partial `output_item.added` item; `{}` when a whole item left it out). */
      readonly arguments: string;
    }
  | {
      /**
       * A server-side compaction item (`context_management` compaction): `encrypted_content` is the opaque payload,
       * absent on a partial `output_item.added` item. https://developers.openai.com/api/docs/guides/compaction
       */
      readonly type: 'compaction';
      readonly id: string | undefined;
      readonly encryptedContent: string | undefined;
    }
  | {
      /** An item of a server-side tool (§2.6 "others") that carries no client content: skipped. */
      readonly type: 'server-side';
      readonly id: string | undefined;
    };

/** A Response object, reduced to what this family reads. */
export interface OpenAiResponsesWireResponse {
  readonly status?: string;
  readonly model?: string;
  readonly output: readonly OpenAiResponsesWireOutputItem[];
  readonly error?: OpenAiResponsesWireError;
  /** `incomplete_details.reason`. */
  readonly incompleteReason?: string;
  readonly usage?: OpenAiResponsesWireUsage;
}

/**
 * Output item types of server-side tools and server-run programs. They carry nothing a client answers or reads as
 * chat content (the model's own text about them arrives in `message` items), so they make no block.
 */
export const OPENAI_RESPONSES_SERVER_SIDE_ITEM_TYPES: readonly string[] = Object.freeze([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
  'program',
  'program_output',
  'function_call_output',
  'custom_tool_call_output',
  'tool_search_call',
  'tool_search_output',
]);

/**
 * Output item types that ask the client to act on a tool this family never declares (it sends only function
 * tools). Skipping one would silently drop a call the model expects an answer to, so each is a protocol violation.
 */
export const OPENAI_RESPONSES_CLIENT_ACTION_ITEM_TYPES: readonly string[] = Object.freeze([
  'custom_tool_call',
  'computer_call',
  'local_shell_call',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'local_shell_call_output',
  'computer_call_output',
  'mcp_approval_request',
]);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Most characters of a compaction item id the normalized compaction part carries (printable ASCII). */
const COMPACTION_ID_MAX_LENGTH = 512;
const PRINTABLE_ID = /^[\x21-\x7E]*$/;

/** Reads a `usage` object. */
export function readOpenAiResponsesUsage(value: WireRecord, path: string): OpenAiResponsesWireUsage {
  const usage: Mutable<OpenAiResponsesWireUsage> = {};
  const input = wire.optionalCount(value.input_tokens, path, 'input_tokens');
  if (input !== undefined) usage.input_tokens = input;
  const output = wire.optionalCount(value.output_tokens, path, 'output_tokens');
  if (output !== undefined) usage.output_tokens = output;
  const total = wire.optionalCount(value.total_tokens, path, 'total_tokens');
  if (total !== undefined) usage.total_tokens = total;
  const inputDetails = wire.optionalRecord(value.input_tokens_details, path, 'input_tokens_details');
  if (inputDetails !== undefined) {
    const cached = wire.optionalCount(inputDetails.cached_tokens, `${path}.input_tokens_details`, 'cached_tokens');
    if (cached !== undefined) usage.cached_tokens = cached;
    const cacheWrite = wire.optionalCount(inputDetails.cache_write_tokens, `${path}.input_tokens_details`, 'cache_write_tokens');
    if (cacheWrite !== undefined) usage.cache_write_tokens = cacheWrite;
  }
  const outputDetails = wire.optionalRecord(value.output_tokens_details, path, 'output_tokens_details');
  if (outputDetails !== undefined) {
    const reasoning = wire.optionalCount(outputDetails.reasoning_tokens, `${path}.output_tokens_details`, 'reasoning_tokens');
    if (reasoning !== undefined) usage.reasoning_tokens = reasoning;
  }
  return usage;
}

/**
 * Reads an error object `{code?, type?, message?, param?}` (`code` may be a number on compatible servers; a bare
 * string is taken as the message). `undefined` for `null` or absent.
 */
export function readOpenAiResponsesError(value: unknown, path: string): OpenAiResponsesWireError | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return { message: value };
  if (!isWireRecord(value)) throw wire.violation(path, 'must be an object');
  const code = value.code;
  if (code !== undefined && code !== null && typeof code !== 'string' && typeof code !== 'number') {
    throw wire.violation(`${path}.code`, 'must be a string or a number');
  }
  const error: Mutable<OpenAiResponsesWireError> = {};
  if (typeof code === 'string' || typeof code === 'number') error.code = code;
  const type = wire.optionalString(value.type, path, 'type');
  if (type !== undefined) error.type = type;
  const message = wire.optionalString(value.message, path, 'message');
  if (message !== undefined) error.message = message;
  if (typeof value.param === 'string') error.param = value.param;
  return error;
}

function readContentPart(value: unknown, path: string): OpenAiResponsesWireContentPart {
  if (!isWireRecord(value)) throw wire.violation(path, 'must be an object');
  const type = wire.requiredString(value.type, path, 'type');
  if (type === 'output_text') return { type, text: wire.requiredString(value.text, path, 'text') };
  if (type === 'refusal') return { type, text: wire.requiredString(value.refusal, path, 'refusal') };
  throw new ProtocolViolationError('unexpected-event', 'openai-responses message content part has an unknown type');
}

function readTexts(record: WireRecord, key: string, partType: string, path: string): string[] {
  const list = wire.optionalArray(record[key], path, key) ?? [];
  return list.map((entry, index) => {
    const entryPath = `${path}.${key}.${index}`;
    if (!isWireRecord(entry)) throw wire.violation(entryPath, 'must be an object');
    const type = wire.optionalString(entry.type, entryPath, 'type');
    if (type !== undefined && type !== partType) throw wire.violation(`${entryPath}.type`, `must be ${partType}`);
    return wire.requiredString(entry.text, entryPath, 'text');
  });
}

/**
 * Reads one output item. `partial` is for `response.output_item.added`, whose item may lack its content, summary
 * or arguments (they stream afterwards). A function call always needs `call_id` and `name`.
 *
 * @throws {ProtocolViolationError} `unexpected-event` for an unknown item type; `invalid-event` for a malformed item
 * or an item that asks for a client action this family cannot carry.
 */
export function readOpenAiResponsesOutputItem(value: unknown, path: string, partial: boolean): OpenAiResponsesWireOutputItem {
  if (!isWireRecord(value)) throw wire.violation(path, 'must be an object');
  const type = wire.requiredString(value.type, path, 'type');
  const id = wire.optionalString(value.id, path, 'id');
  switch (type) {
    case 'message': {
      const role = wire.optionalString(value.role, path, 'role');
      if (role !== undefined && role !== 'assistant') throw wire.violation(`${path}.role`, 'must be "assistant"');
      const content = wire.optionalArray(value.content, path, 'content');
      if (content === undefined && !partial) throw wire.violation(`${path}.content`, 'is required');
      return { type, id, content: (content ?? []).map((part, index) => readContentPart(part, `${path}.content.${index}`)) };
    }
    case 'reasoning': {
      const encrypted = wire.optionalString(value.encrypted_content, path, 'encrypted_content');
      return {
        type,
        id,
        summary: readTexts(value, 'summary', 'summary_text', path),
        content: readTexts(value, 'content', 'reasoning_text', path),
        encryptedContent: encrypted === undefined || encrypted.length === 0 ? undefined : encrypted,
      };
    }
    case 'function_call': {
      const callId = wire.requiredString(value.call_id, path, 'call_id');
      const name = wire.requiredString(value.name, path, 'name');
      if (callId.length === 0 || callId.length > BOUNDS.toolCallIdMaxLength) throw wire.violation(`${path}.call_id`, `must be 1 to ${BOUNDS.toolCallIdMaxLength} characters`);
      if (name.length === 0 || name.length > BOUNDS.toolNameMaxLength) throw wire.violation(`${path}.name`, `must be 1 to ${BOUNDS.toolNameMaxLength} characters`);
      const argumentsText = wire.optionalString(value.arguments, path, 'arguments');
      // Tolerance of real traffic (as in openai-chat): a whole call without its `arguments` member is a call with
      // no arguments, `{}`; OpenAI's schema requires the member.
      return { type, id, callId, name, arguments: argumentsText ?? (partial ? '' : '{}') };
    }
    case 'compaction': {
      const encrypted = wire.optionalString(value.encrypted_content, path, 'encrypted_content');
      if ((encrypted === undefined || encrypted.length === 0) && !partial) throw wire.violation(`${path}.encrypted_content`, 'is required');
      if (id !== undefined && (id.length > COMPACTION_ID_MAX_LENGTH || !PRINTABLE_ID.test(id))) throw wire.violation(`${path}.id`, `must be 1 to ${COMPACTION_ID_MAX_LENGTH} printable characters`);
      return { type, id: id === undefined || id.length === 0 ? undefined : id, encryptedContent: encrypted === undefined || encrypted.length === 0 ? undefined : encrypted };
    }
    default:
      if (OPENAI_RESPONSES_SERVER_SIDE_ITEM_TYPES.includes(type)) return { type: 'server-side', id };
      if (OPENAI_RESPONSES_CLIENT_ACTION_ITEM_TYPES.includes(type)) {
        throw wire.violation(`${path}.type`, 'asks for a client tool this family never declares');
      }
      throw new ProtocolViolationError('unexpected-event', 'openai-responses output item has an unknown type');
  }
}

/**
 * Reads a Response object (a sync body, or the `response` of a terminal stream event). `output` is required (§2.10);
 * `status` is tolerated absent (§2.11).
 */
export function readOpenAiResponsesResponse(value: unknown, path: string): OpenAiResponsesWireResponse {
  if (!isWireRecord(value)) throw wire.violation(path, 'must be a JSON object');
  const outputValue = wire.optionalArray(value.output, path, 'output');
  if (outputValue === undefined) throw wire.violation(`${path}.output`, 'is required');
  const response: Mutable<OpenAiResponsesWireResponse> = {
    output: outputValue.map((item, index) => readOpenAiResponsesOutputItem(item, `${path}.output.${index}`, false)),
  };
  const status = wire.optionalString(value.status, path, 'status');
  if (status !== undefined) response.status = status;
  const model = wire.optionalString(value.model, path, 'model');
  if (model !== undefined) response.model = model;
  const error = readOpenAiResponsesError(value.error, `${path}.error`);
  if (error !== undefined) response.error = error;
  const incomplete = wire.optionalRecord(value.incomplete_details, path, 'incomplete_details');
  if (incomplete !== undefined) {
    const reason = wire.optionalString(incomplete.reason, `${path}.incomplete_details`, 'reason');
    if (reason !== undefined) response.incompleteReason = reason;
  }
  const usage = wire.optionalRecord(value.usage, path, 'usage');
  if (usage !== undefined) {
    const serviceTier = readServiceTier(value.service_tier);
    response.usage = { ...readOpenAiResponsesUsage(usage, `${path}.usage`), ...(serviceTier === undefined ? {} : { service_tier: serviceTier }) };
  }
  return response;
}
