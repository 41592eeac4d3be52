import { CodecErrorV1, type ChatTaskV2 } from '@tokenforge/model-protocol';
import { encodeAnthropicCacheControl } from './map-cache-control.js';
import type { AnthropicToolChoiceParam, AnthropicToolParam } from './wire-request.js';

/** `tools` and `tool_choice`, both absent when the task has no tools. */
export interface AnthropicToolFields {
  readonly tools?: AnthropicToolParam[];
  readonly tool_choice?: AnthropicToolChoiceParam;
}

/**
 * Encodes tool definitions (`name`, `description`, `input_schema`, `strict` when asked, `cache_control`) and
 * the tool choice: `auto` → `auto`, `required` → `any`, `tool` → `tool` with the name, `none` → `none`.
 * Without tools nothing is sent, not even the choice (the API refuses a choice without tools, and with no
 * tools the model cannot call one anyway).
 */
export function encodeAnthropicTools(task: Pick<ChatTaskV2, 'tools' | 'toolChoice'>): AnthropicToolFields {
  if (task.tools === undefined || task.tools.length === 0) return {};
  const tools = task.tools.map(
    (tool): AnthropicToolParam => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      input_schema: tool.inputSchema,
      ...(tool.strict === true ? { strict: true } : {}),
      ...(tool.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(tool.cacheControl) }),
    }),
  );
  if (task.toolChoice === undefined) return { tools };
  return { tools, tool_choice: encodeToolChoice(task.toolChoice) };
}

function encodeToolChoice(choice: NonNullable<ChatTaskV2['toolChoice']>): AnthropicToolChoiceParam {
  switch (choice.type) {
    case 'auto':
      return { type: 'auto' };
    case 'required':
      return { type: 'any' };
    case 'none':
      return { type: 'none' };
    case 'tool':
      return { type: 'tool', name: choice.toolName };
    default: {
      const unknownChoice: never = choice;
      throw new CodecErrorV1('invalid-request', `unknown tool choice ${String((unknownChoice as { type: unknown }).type)}`, { path: 'toolChoice' });
    }
  }
}
