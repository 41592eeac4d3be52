import { CodecErrorV1, type ToolChoiceV2, type ToolDefinitionV2 } from '@tokenforge/model-protocol';

/** A function tool on the wire (flat, unlike Chat Completions). */
export interface OpenAiResponsesRequestTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly strict: boolean;
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
  }));
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
): OpenAiResponsesRequestToolChoice {
  const hasTools = tools !== undefined && tools.length > 0;
  switch (choice.type) {
    case 'none':
      return 'none';
    case 'auto':
    case 'required':
      if (!hasTools) throw new CodecErrorV1('invalid-request', `tool choice ${choice.type} needs tools`, { path: 'toolChoice' });
      return choice.type;
    case 'tool':
      if (!hasTools || !tools.some((tool) => tool.name === choice.toolName)) {
        throw new CodecErrorV1('invalid-request', 'the named tool choice is not among the tools', { path: 'toolChoice.toolName' });
      }
      return { type: 'function', name: choice.toolName };
    default: {
      const unknownChoice: never = choice;
      throw new CodecErrorV1('invalid-request', `unknown tool choice ${String(unknownChoice)}`, { path: 'toolChoice' });
    }
  }
}
