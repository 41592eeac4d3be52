import {
  CONTRACT_BOUNDS_V1,
  describeUsageInconsistency,
  usageV1Schema,
  type NormalizedStreamEventV4,
  type UsageV3,
} from '@tokenforge/model-protocol';
import { deepFreeze } from './deep-freeze.js';
import { fastParseUsageV3 } from './fast-parse-usage-v3.js';
import { isIntegerIn, isString, type Loose } from './plain-data-checks.js';

/*
 * The per-event hot path. A hand-written equivalent of model-protocol's `normalizedStreamEventV4Schema`
 * (closed objects, same bounds), several times cheaper than the schema. Usage snapshots in V1 form take the
 * hand-written check; one it refuses (V3 details, or a malformed snapshot) goes to the hand-written `usageV3Schema` equivalent (fast-parse-usage-v3.ts). Its agreement
 * with the schema is proven by property tests in check-stream-event.test.ts; change both together.
 */

const MAX_INDEX = CONTRACT_BOUNDS_V1.streamIndexMax;
const TOOL_CALL_ID_MAX = CONTRACT_BOUNDS_V1.toolCallIdMaxLength;
const TOOL_NAME_MAX = CONTRACT_BOUNDS_V1.toolNameMaxLength;
/** The longest provider item id of a V4 compaction event. */
const ITEM_ID_MAX = 512;
/** The usage fields, taken from the schema itself so the two cannot drift apart. */
const USAGE_KEYS: ReadonlySet<string> = new Set(Object.keys(usageV1Schema.shape));

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return isIntegerIn(value, 0, MAX_INDEX);
}

/** `for...in` like the schema's strict check: every enumerable key (inherited ones too) must be declared. */
function hasOnlyListedKeys(value: Loose, a: string, b: string, c?: string, d?: string, e?: string): boolean {
  for (const key in value) {
    if (key !== a && key !== b && key !== c && key !== d && key !== e) return false;
  }
  return true;
}

/** Validates a V1 usage object and returns a copy without absent fields, or `undefined` when it breaks the schema. */
export function checkUsage(value: unknown): UsageV3 | undefined {
  if (!isObject(value)) return undefined;
  const usage: Record<string, number> = {};
  for (const key in value) {
    if (!USAGE_KEYS.has(key)) return undefined;
    const count = value[key];
    if (count === undefined) continue;
    if (!isIntegerIn(count, 0, Number.MAX_SAFE_INTEGER)) return undefined;
    usage[key] = count;
  }
  return describeUsageInconsistency(usage) === undefined ? Object.freeze(usage as UsageV3) : undefined;
}

/** A usage snapshot the V1 check refused, as `usageV3Schema` parses it (frozen), or `undefined`. */
function checkUsageV3(value: unknown): UsageV3 | undefined {
  const parsed = fastParseUsageV3(value);
  return parsed === undefined ? undefined : deepFreeze(parsed);
}

/**
 * Returns a fresh copy of a valid normalized stream event (optional fields that are `undefined` are dropped),
 * or `undefined` when the value is not one. Never throws for plain data.
 */
export function checkStreamEvent(value: unknown): NormalizedStreamEventV4 | undefined {
  if (!isObject(value)) return undefined;
  const type = value.type;
  const index = value.index;
  switch (type) {
    case 'text-start':
    case 'text-end':
    case 'reasoning-start':
    case 'refusal-start':
    case 'refusal-end':
      if (!isIndex(index) || !hasOnlyListedKeys(value, 'type', 'index')) return undefined;
      return { type, index };
    case 'text-delta':
    case 'reasoning-delta':
    case 'refusal-delta':
    case 'tool-call-delta': {
      const delta = value.delta;
      if (!isIndex(index) || typeof delta !== 'string' || !hasOnlyListedKeys(value, 'type', 'index', 'delta')) return undefined;
      return { type, index, delta };
    }
    case 'reasoning-end': {
      const signature = value.signature;
      if (!isIndex(index) || !hasOnlyListedKeys(value, 'type', 'index', 'signature')) return undefined;
      if (signature === undefined) return { type, index };
      return typeof signature === 'string' && signature.length > 0 ? { type, index, signature } : undefined;
    }
    case 'reasoning-redacted': {
      const data = value.data;
      if (!isIndex(index) || typeof data !== 'string' || data.length === 0 || !hasOnlyListedKeys(value, 'type', 'index', 'data')) return undefined;
      return { type, index, data };
    }
    case 'compaction': {
      const data = value.data;
      const id = value.id;
      const providerFields = value.providerFields;
      if (!isIndex(index) || typeof data !== 'string' || data.length === 0 || !hasOnlyListedKeys(value, 'type', 'index', 'data', 'id', 'providerFields')) return undefined;
      if (providerFields !== undefined && (typeof providerFields !== 'string' || providerFields.length < 2)) return undefined;
      const fields = providerFields === undefined ? {} : { providerFields };
      if (id === undefined) return { type, index, data, ...fields };
      return isString(id, 1, ITEM_ID_MAX) && /^[\x21-\x7E]+$/.test(id) ? { type, index, data, id, ...fields } : undefined;
    }
    case 'tool-call-start': {
      const toolCallId = value.toolCallId;
      const toolName = value.toolName;
      if (
        !isIndex(index) ||
        !isString(toolCallId, 1, TOOL_CALL_ID_MAX) ||
        !isString(toolName, 1, TOOL_NAME_MAX) ||
        !hasOnlyListedKeys(value, 'type', 'index', 'toolCallId', 'toolName')
      ) {
        return undefined;
      }
      return { type, index, toolCallId, toolName };
    }
    case 'tool-call-end': {
      const argumentsText = value.argumentsText;
      const signature = value.signature;
      if (!isIndex(index) || typeof argumentsText !== 'string' || !hasOnlyListedKeys(value, 'type', 'index', 'argumentsText', 'signature')) {
        return undefined;
      }
      if (signature === undefined) return { type, index, argumentsText };
      return typeof signature === 'string' && signature.length > 0 ? { type, index, argumentsText, signature } : undefined;
    }
    case 'usage': {
      if (!hasOnlyListedKeys(value, 'type', 'usage')) return undefined;
      const usage = checkUsage(value.usage) ?? checkUsageV3(value.usage);
      return usage === undefined ? undefined : { type, usage };
    }
    default:
      return undefined;
  }
}
