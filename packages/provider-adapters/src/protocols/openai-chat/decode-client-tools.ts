import type { ToolChoiceV2, ToolDefinitionV2 } from '@tokenforge/model-protocol';
import { createToolNameCheck } from '../../codec-kit/tool-name-check.js';
import {
  invalidClientField,
  isClientObject,
  isUnset,
  optionalClientBoolean,
  optionalClientObject,
  optionalClientString,
  requiredClientString,
  unsupportedClientField,
} from '../openai-common/client-json.js';

/**
 * Decodes function `tools`; a missing `parameters` means a tool without arguments. Other tool types are refused, and
 * so is a name offered twice (the kit's `createToolNameCheck`).
 */
export function decodeOpenAiChatClientTools(value: readonly unknown[]): ToolDefinitionV2[] {
  const checkName = createToolNameCheck();
  return value.map((tool, index) => {
    const path = `tools.${index}`;
    if (!isClientObject(tool)) throw invalidClientField(path, 'must be an object');
    if (tool.type !== 'function') throw unsupportedClientField(`${path}.type`, 'only function tools are supported');
    const fn = optionalClientObject(tool, 'function', `${path}.`);
    if (fn === undefined) throw invalidClientField(`${path}.function`, 'is required');
    const description = optionalClientString(fn, 'description', `${path}.function.`);
    const strict = optionalClientBoolean(fn, 'strict', `${path}.function.`);
    // Omitted parameters mean a tool without arguments.
    const parameters = optionalClientObject(fn, 'parameters', `${path}.function.`) ?? { type: 'object', properties: {} };
    const name = requiredClientString(fn, 'name', `${path}.function.`);
    checkName(name, `${path}.function.name`);
    return {
      name,
      ...(description === undefined ? {} : { description }),
      inputSchema: { ...parameters },
      ...(strict === undefined ? {} : { strict }),
    };
  });
}

/** Decodes `tool_choice`: `auto`, `none`, `required` or a named function; `allowed_tools` and custom choices are refused. */
export function decodeOpenAiChatClientToolChoice(value: unknown): ToolChoiceV2 | undefined {
  if (isUnset(value)) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
  if (isClientObject(value) && value.type === 'function') {
    const fn = optionalClientObject(value, 'function', 'tool_choice.');
    if (fn === undefined) throw invalidClientField('tool_choice.function', 'is required');
    return { type: 'tool', toolName: requiredClientString(fn, 'name', 'tool_choice.function.') };
  }
  if (isClientObject(value)) throw unsupportedClientField('tool_choice.type', 'only auto, none, required and a named function are supported');
  throw invalidClientField('tool_choice', 'must be auto, none, required or an object');
}
