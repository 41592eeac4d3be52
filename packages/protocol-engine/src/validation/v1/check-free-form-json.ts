import type { TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError, isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';

const MAX_DEPTH = 256;
const MAX_NODES = 1_000_000;

/**
 * Checks the task's free-form JSON members (each tool's `inputSchema` in chat and token-count tasks, a chat
 * task's `responseFormat.schema`) and replaces
 * them with plain copies, so an adapter serializes exactly the data the engine checked. A value JSON cannot
 * carry as it is (a BigInt, a cycle, a non-finite number, a function or symbol, `undefined` in an array, an
 * object with a `toJSON` function, a class instance, a getter that throws) is INPUT_INVALID here, before any
 * adapter runs, instead of a transport or adapter failure later.
 */
export function checkFreeFormJson(task: TaskEnvelopeV4): TaskEnvelopeV4 {
  if (task.kind === 'token-count') {
    if (task.tools === undefined) return task;
    const copy = { ...task, tools: copyTools(task.tools) };
    return Object.isFrozen(task) ? Object.freeze(copy) : copy;
  }
  if (task.kind !== 'chat' || (task.tools === undefined && task.responseFormat?.type !== 'json')) return task;
  const tools = task.tools === undefined ? undefined : copyTools(task.tools);
  const format = task.responseFormat;
  const responseFormat =
    format?.type === 'json' && format.schema !== undefined ? { ...format, schema: copyMember(format.schema, 'responseFormat.schema') } : format;
  const copy = {
    ...task,
    ...(tools === undefined ? {} : { tools }),
    ...(responseFormat === undefined ? {} : { responseFormat }),
  };
  return Object.isFrozen(task) ? Object.freeze(copy) : copy;
}

function copyTools<T extends { readonly inputSchema: Record<string, unknown> }>(tools: readonly T[]): T[] {
  return tools.map((tool, index) => ({ ...tool, inputSchema: copyMember(tool.inputSchema, `tools.${index}.inputSchema`) }));
}

function copyMember(value: Record<string, unknown>, path: string): Record<string, unknown> {
  try {
    return copyJson(value, path, new Set(), 0, { nodes: 0 }) as Record<string, unknown>;
  } catch (error) {
    if (isProtocolEngineErrorV1(error)) throw error;
    throw engineError(CODES.INPUT_INVALID, `the free-form JSON member ${path} could not be read`, error);
  }
}

function refuse(path: string, what: string): never {
  throw engineError(CODES.INPUT_INVALID, `the free-form JSON member ${path} holds ${what}`);
}

function copyJson(value: unknown, path: string, ancestors: Set<object>, depth: number, budget: { nodes: number }): unknown {
  budget.nodes += 1;
  if (budget.nodes > MAX_NODES) refuse(path, 'too many values');
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) refuse(path, 'a non-finite number');
      return value;
    case 'object':
      break;
    default:
      refuse(path, `a ${typeof value} value`);
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) refuse(path, 'values nested too deeply');
  if (ancestors.has(value)) refuse(path, 'a cycle');
  ancestors.add(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    const length = value.length;
    const items: unknown[] = new Array(length);
    for (let index = 0; index < length; index += 1) {
      const item: unknown = value[index];
      if (item === undefined) refuse(path, 'undefined in an array');
      items[index] = copyJson(item, path, ancestors, depth + 1, budget);
    }
    copy = items;
  } else {
    const prototype: unknown = Object.getPrototypeOf(value);
    // A plain object of any realm: its prototype is null or a realm's Object.prototype (whose own prototype is null).
    if (prototype !== null && Object.getPrototypeOf(prototype) !== null) refuse(path, 'an object that is not plain data');
    const record = value as Record<string, unknown>;
    if (typeof record.toJSON === 'function') refuse(path, 'an object with a toJSON function');
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      const member = record[key];
      if (member === undefined) continue;
      const copied = copyJson(member, path, ancestors, depth + 1, budget);
      if (key === '__proto__') Object.defineProperty(result, key, { value: copied, enumerable: true, writable: true, configurable: true });
      else result[key] = copied;
    }
    copy = result;
  }
  ancestors.delete(value);
  return copy;
}
