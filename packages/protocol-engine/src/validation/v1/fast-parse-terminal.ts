import {
  CONTRACT_BOUNDS_V1,
  FINISH_REASONS_V1,
  PROVIDER_FAILURE_CODES_V1,
  type AdapterTerminalOutcome,
} from '@tokenforge/model-protocol';
import { fastParseUsageV3 } from './fast-parse-usage-v3.js';
import { reasoningPart, redactedReasoningPart, toolCallPart } from './fast-parse-shared-parts.js';
import { booleanCheck, checkArray, copyOptional, hasOnlyKeys, integerCheck, plainObject, stringCheck, type Loose } from './plain-data-checks.js';

/*
 * A hand-written equivalent of model-protocol's `adapterTerminalOutcomeSchema` (with V3 usage, as
 * `adapterTerminalOutcomeV3Schema` has it) for the terminals every stream
 * and most sync calls end with: `cancelled`, `failed`, and `completed` with a chat result. Same contract as
 * fast-parse-chat-task.ts: the schema's output for valid plain data, `undefined` otherwise (and for other result
 * kinds), so the schema decides and words every error. Agreement is proven by property tests in
 * fast-parse-terminal.test.ts: change both together.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const FAILURE_CODES: ReadonlySet<string> = new Set(PROVIDER_FAILURE_CODES_V1);
const FINISH_REASONS: ReadonlySet<string> = new Set(FINISH_REASONS_V1);
const PROVIDER_CODE = /^[A-Za-z0-9_.:-]+$/;
const RAW_FINISH_REASON = /^[A-Za-z0-9_.:-]*$/;
const CANCELLED_KEYS = new Set(['status']);
const FAILED_KEYS = new Set(['status', 'failure', 'usage']);
const COMPLETED_KEYS = new Set(['status', 'result', 'finishReason', 'usage']);
const FAILURE_KEYS = new Set(['code', 'retryable', 'retryAfterMs', 'providerCode']);
const FINISH_REASON_KEYS = new Set(['unified', 'raw']);
const CHAT_RESULT_KEYS = new Set(['kind', 'content']);
const TEXT_KEYS = new Set(['type', 'text']);
const retryAfterMs = integerCheck(0, CONTRACT_BOUNDS_V1.retryAfterMsMax);
const providerCode = stringCheck(1, CONTRACT_BOUNDS_V1.providerCodeMaxLength, PROVIDER_CODE);
const rawFinishReason = stringCheck(0, CONTRACT_BOUNDS_V1.providerCodeMaxLength, RAW_FINISH_REASON);

/** V3 usage (every V1 usage is one): the checked terminal is a V3 terminal. */
function usage(value: unknown): Loose | undefined {
  return fastParseUsageV3(value) as Loose | undefined;
}

function failure(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined || !hasOnlyKeys(source, FAILURE_KEYS)) return undefined;
  const { code, retryable } = source;
  if (typeof code !== 'string' || !FAILURE_CODES.has(code) || booleanCheck(retryable) === undefined) return undefined;
  const out: Loose = { code, retryable };
  return copyOptional(source, 'retryAfterMs', out, retryAfterMs) && copyOptional(source, 'providerCode', out, providerCode) ? out : undefined;
}

function finishReason(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined || !hasOnlyKeys(source, FINISH_REASON_KEYS)) return undefined;
  const unified = source.unified;
  if (typeof unified !== 'string' || !FINISH_REASONS.has(unified)) return undefined;
  const out: Loose = { unified };
  return copyOptional(source, 'raw', out, rawFinishReason) ? out : undefined;
}

function outputPart(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined) return undefined;
  switch (source.type) {
    case 'text':
    case 'refusal': {
      const text = source.text;
      return hasOnlyKeys(source, TEXT_KEYS) && typeof text === 'string' ? { type: source.type, text } : undefined;
    }
    case 'reasoning':
      return reasoningPart(source);
    case 'redacted-reasoning':
      return redactedReasoningPart(source);
    case 'tool-call':
      return toolCallPart(source);
    default:
      return undefined;
  }
}

function chatResult(value: unknown): Loose | undefined {
  const source = plainObject(value);
  if (source === undefined || source.kind !== 'chat' || !hasOnlyKeys(source, CHAT_RESULT_KEYS)) return undefined;
  const content = checkArray(source.content, 0, MAX_SAFE, outputPart);
  return content === undefined ? undefined : { kind: 'chat', content };
}

/**
 * The terminal as `adapterTerminalOutcomeSchema` would parse it, or `undefined` when the input is not a valid
 * plain-data terminal of the covered kinds (then the schema decides). Never throws for plain data.
 */
export function fastParseTerminal(value: unknown): AdapterTerminalOutcome | undefined {
  const source = plainObject(value);
  if (source === undefined) return undefined;
  switch (source.status) {
    case 'cancelled':
      return hasOnlyKeys(source, CANCELLED_KEYS) ? { status: 'cancelled' } : undefined;
    case 'failed': {
      if (!hasOnlyKeys(source, FAILED_KEYS)) return undefined;
      const checked = failure(source.failure);
      if (checked === undefined) return undefined;
      const out: Loose = { status: 'failed', failure: checked };
      return copyOptional(source, 'usage', out, usage) ? (out as AdapterTerminalOutcome) : undefined;
    }
    case 'completed': {
      if (!hasOnlyKeys(source, COMPLETED_KEYS)) return undefined;
      const result = chatResult(source.result);
      if (result === undefined) return undefined;
      const out: Loose = { status: 'completed', result };
      return copyOptional(source, 'finishReason', out, finishReason) && copyOptional(source, 'usage', out, usage) ? (out as AdapterTerminalOutcome) : undefined;
    }
    default:
      return undefined;
  }
}
