import { CodecErrorV1, type ToolChoiceV2, type ToolDefinitionV2 } from '@tokenforge/model-protocol';

/** A function tool definition on the wire. */
export interface OpenAiChatRequestTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: Readonly<Record<string, unknown>>;
    readonly strict?: boolean;
  };
}

/** `tool_choice` on the wire. */
export type OpenAiChatRequestToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { readonly type: 'function'; readonly function: { readonly name: string } };

/**
 * Tools become `{type:"function", function:{name, description?, parameters, strict?}}`. A tool's cache-control
 * hint is dropped (prompt caching is automatic in this dialect). Names pass unchanged: a server with a narrower
 * name rule answers with its own invalid-request error.
 */
export function encodeOpenAiChatTools(tools: readonly ToolDefinitionV2[]): OpenAiChatRequestTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.inputSchema,
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    },
  }));
}

/**
 * `auto`, `none` and `required` pass as strings; a named tool becomes `{type:"function", function:{name}}`.
 *
 * @throws {CodecErrorV1} `invalid-request` when a named tool is not among the task's tools, or a choice other
 * than `none` comes without tools.
 */
export function encodeOpenAiChatToolChoice(
  choice: ToolChoiceV2,
  tools: readonly ToolDefinitionV2[] | undefined,
): OpenAiChatRequestToolChoice {
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
      return { type: 'function', function: { name: choice.toolName } };
    default: {
      const unknownChoice: never = choice;
      throw new CodecErrorV1('invalid-request', `unknown tool choice ${String(unknownChoice)}`, { path: 'toolChoice' });
    }
  }
}
