import { CodecErrorV1, type HostedToolV3, type ToolChoiceV2, type ToolDefinitionV3 as ToolDefinitionV2 } from '@tokenforge/model-protocol';

/** A function tool on the wire (flat, unlike Chat Completions). */
export interface OpenAiResponsesRequestTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly strict: boolean;
  /** Load the definition only through tool search. */
  readonly defer_loading?: boolean;
}

/** The hosted web search tool on the wire. */
export interface OpenAiResponsesRequestWebSearchTool {
  readonly type: 'web_search';
  /** Search only these domains. */
  readonly filters?: { readonly allowed_domains: string[] };
}

/** `tool_choice` on the wire (flat). */
export type OpenAiResponsesRequestToolChoice = 'auto' | 'none' | 'required' | { readonly type: 'function'; readonly name: string };

/**
 * Tools become flat function tools `{type:"function", name, description?, parameters, strict}`. `strict` is always
 * sent: Responses enforces strict schemas when it is omitted, while an absent task `strict` means "not asked", so
 * absent is sent as `false`. A tool's cache-control hint is dropped (prompt caching is automatic in this dialect).
 */
export function encodeOpenAiResponsesTools(tools: readonly ToolDefinitionV2[]): OpenAiResponsesRequestTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.inputSchema,
    strict: tool.strict ?? false,
    ...(tool.deferLoading === undefined ? {} : { defer_loading: tool.deferLoading }),
  }));
}

/**
 * Hosted tools: `web-search` becomes `{type: "web_search"}` with `filters.allowed_domains`; `maxUses` has no
 * Responses field and is dropped (it bounds cost, not the answer).
 *
 * @throws {CodecErrorV1} `unsupported-feature` for blocked domains (Responses cannot exclude domains, and searching
 * them would change the answer).
 */
export function encodeOpenAiResponsesHostedTools(tools: readonly HostedToolV3[]): OpenAiResponsesRequestWebSearchTool[] {
  return tools.map((tool, index) => {
    if (tool.blockedDomains !== undefined && tool.blockedDomains.length > 0) {
      throw new CodecErrorV1('unsupported-feature', 'openai-responses web search cannot block domains', { path: `hostedTools.${index}.blockedDomains` });
    }
    return { type: 'web_search', ...(tool.allowedDomains === undefined ? {} : { filters: { allowed_domains: [...tool.allowedDomains] } }) };
  });
}

/**
 * `auto`, `none` and `required` pass as strings; a named tool becomes `{type:"function", name}`.
 *
 * @throws {CodecErrorV1} `invalid-request` when a named tool is not among the task's tools, or a choice other than
 * `none` comes without tools.
 */
export function encodeOpenAiResponsesToolChoice(
  choice: ToolChoiceV2,
  tools: readonly ToolDefinitionV2[] | undefined,
  hostedTools?: readonly HostedToolV3[],
): OpenAiResponsesRequestToolChoice {
  const hasTools = (tools !== undefined && tools.length > 0) || (hostedTools !== undefined && hostedTools.length > 0);
  switch (choice.type) {
    case 'none':
      return 'none';
    case 'auto':
    case 'required':
      if (!hasTools) throw new CodecErrorV1('invalid-request', `tool choice ${choice.type} needs tools`, { path: 'toolChoice' });
      return choice.type;
    case 'tool':
      if (tools === undefined || !tools.some((tool) => tool.name === choice.toolName)) {
        throw new CodecErrorV1('invalid-request', 'the named tool choice is not among the tools', { path: 'toolChoice.toolName' });
      }
      return { type: 'function', name: choice.toolName };
    default: {
      const unknownChoice: never = choice;
      throw new CodecErrorV1('invalid-request', `unknown tool choice ${String(unknownChoice)}`, { path: 'toolChoice' });
    }
  }
}
