import { CONTRACT_BOUNDS_V1 } from '@tokenforge/model-protocol';
import { copyOptional, hasOnlyKeys, isString, nonEmptyString, type Loose } from './plain-data-checks.js';

/*
 * Content parts whose schema is the same in a task message and in a chat result (model-protocol's
 * `toolCallPartV2Schema` / `outputToolCallPartV1Schema`, `reasoningPartV2Schema` / `outputReasoningPartV1Schema`,
 * and the redacted reasoning parts), for the fast parsers. Each takes the part already known to be a plain
 * object of its `type`.
 */

const TOOL_CALL_KEYS = new Set(['type', 'toolCallId', 'toolName', 'argumentsText', 'signature']);
const REASONING_KEYS = new Set(['type', 'text', 'signature']);
const REDACTED_KEYS = new Set(['type', 'data']);
/** The contract's bounds, shared with the schemas and the tool-result check of fast-parse-chat-task.ts. */
export const TOOL_CALL_ID_MAX = CONTRACT_BOUNDS_V1.toolCallIdMaxLength;
export const TOOL_NAME_MAX = CONTRACT_BOUNDS_V1.toolNameMaxLength;

/** `{ type: 'tool-call', toolCallId (1 to TOOL_CALL_ID_MAX), toolName (1 to TOOL_NAME_MAX), argumentsText, signature? (non-empty) }`. */
export function toolCallPart(source: Loose): Loose | undefined {
  const { toolCallId, toolName, argumentsText } = source;
  if (!hasOnlyKeys(source, TOOL_CALL_KEYS) || !isString(toolCallId, 1, TOOL_CALL_ID_MAX) || !isString(toolName, 1, TOOL_NAME_MAX) || typeof argumentsText !== 'string') {
    return undefined;
  }
  const out: Loose = { type: 'tool-call', toolCallId, toolName, argumentsText };
  return copyOptional(source, 'signature', out, nonEmptyString) ? out : undefined;
}

/** `{ type: 'reasoning', text, signature? (non-empty) }`. */
export function reasoningPart(source: Loose): Loose | undefined {
  const text = source.text;
  if (!hasOnlyKeys(source, REASONING_KEYS) || typeof text !== 'string') return undefined;
  const out: Loose = { type: 'reasoning', text };
  return copyOptional(source, 'signature', out, nonEmptyString) ? out : undefined;
}

/** `{ type: 'redacted-reasoning', data (non-empty) }`. */
export function redactedReasoningPart(source: Loose): Loose | undefined {
  const data = source.data;
  return hasOnlyKeys(source, REDACTED_KEYS) && isString(data, 1, Number.MAX_SAFE_INTEGER) ? { type: 'redacted-reasoning', data } : undefined;
}
