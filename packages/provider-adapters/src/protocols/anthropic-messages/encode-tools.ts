import { CodecErrorV1, type ChatTaskV4 } from '@tokenforge/model-protocol';
import { encodeAnthropicCacheControl } from './map-cache-control.js';
import type { AnthropicToolChoiceParam, AnthropicToolParam, AnthropicWebSearchToolParam } from './wire-request.js';

/** `tools` and `tool_choice`, both absent when the task has no tools. */
export interface AnthropicToolFields {
  readonly tools?: (AnthropicToolParam | AnthropicWebSearchToolParam)[];
  readonly tool_choice?: AnthropicToolChoiceParam;
}

/**
 * Encodes tool definitions (`name`, `description`, `input_schema`, `strict` when asked, `cache_control`,
 * `defer_loading` and `eager_input_streaming` when set), hosted tools (`web-search` → the `web_search_20250305`
 * server tool with `max_uses`, `allowed_domains`, `blocked_domains`) and the tool choice: `auto` → `auto`,
 * `required` → `any`, `tool` → `tool` with the name, `none` → `none`. `parallelToolCalls: false` is
 * `disable_parallel_tool_use: true` on the choice (`auto` when the task sets no choice; a `none` choice takes no
 * flag). Without any tool nothing is sent, not even the choice (the API refuses a choice without tools, and with
 * no tools the model cannot call one anyway).
 */
export function encodeAnthropicTools(task: Pick<ChatTaskV4, 'tools' | 'toolChoice' | 'hostedTools' | 'parallelToolCalls'>): AnthropicToolFields {
  const functions = (task.tools ?? []).map(
    (tool): AnthropicToolParam => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      input_schema: tool.inputSchema,
      ...(tool.strict === true ? { strict: true } : {}),
      ...(tool.cacheControl === undefined ? {} : { cache_control: encodeAnthropicCacheControl(tool.cacheControl) }),
      ...(tool.deferLoading === undefined ? {} : { defer_loading: tool.deferLoading }),
      ...(tool.eagerInputStreaming === undefined ? {} : { eager_input_streaming: tool.eagerInputStreaming }),
    }),
  );
  const hosted = (task.hostedTools ?? []).map(
    (tool): AnthropicWebSearchToolParam => ({
      type: 'web_search_20250305',
      name: 'web_search',
      ...(tool.maxUses === undefined ? {} : { max_uses: tool.maxUses }),
      ...(tool.allowedDomains === undefined ? {} : { allowed_domains: [...tool.allowedDomains] }),
      ...(tool.blockedDomains === undefined ? {} : { blocked_domains: [...tool.blockedDomains] }),
    }),
  );
  const tools = [...functions, ...hosted];
  if (tools.length === 0) return {};
  const choice = task.toolChoice === undefined ? undefined : encodeToolChoice(task.toolChoice);
  if (task.parallelToolCalls === false) {
    const base = choice ?? { type: 'auto' as const };
    return { tools, tool_choice: base.type === 'none' ? base : { ...base, disable_parallel_tool_use: true } };
  }
  return choice === undefined ? { tools } : { tools, tool_choice: choice };
}

function encodeToolChoice(choice: NonNullable<ChatTaskV4['toolChoice']>): AnthropicToolChoiceParam {
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
