import type { ScriptedDialect } from './scripted-dialect.js';

/** A tool the client declared: its name, whether it takes JSON arguments or freeform input, and its JSON schema. */
export interface DeclaredTool {
  readonly name: string;
  /** `function` tools take a JSON object; `custom` (freeform) tools of the Responses API take text. */
  readonly kind: 'function' | 'custom';
  readonly schema: unknown;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

function responsesTools(tools: Json[], out: DeclaredTool[]): void {
  for (const tool of tools) {
    if (tool.type === 'namespace') responsesTools(list(tool.tools), out);
    else if (typeof tool.name === 'string' && (tool.type === 'function' || tool.type === 'custom')) out.push({ name: tool.name, kind: tool.type, schema: tool.parameters });
  }
}

/**
 * The tools a request declares, in declaration order. Responses tools may also arrive in `additional_tools` input
 * items and inside `namespace` groups; hosted tools (web search and the like) are not callable and are left out.
 */
export function declaredTools(dialect: ScriptedDialect, body: Json): DeclaredTool[] {
  const out: DeclaredTool[] = [];
  switch (dialect) {
    case 'anthropic-messages':
      for (const tool of list(body.tools)) if (typeof tool.name === 'string' && (tool.type === undefined || tool.type === 'custom')) out.push({ name: tool.name, kind: 'function', schema: tool.input_schema });
      break;
    case 'openai-chat':
      for (const tool of list(body.tools)) {
        const fn = tool.function;
        if (tool.type === 'function' && isObject(fn) && typeof fn.name === 'string') out.push({ name: fn.name, kind: 'function', schema: fn.parameters });
      }
      break;
    case 'openai-responses':
      responsesTools(list(body.tools), out);
      for (const item of list(body.input)) if (item.type === 'additional_tools') responsesTools(list(item.tools), out);
      break;
    case 'gemini':
      for (const tool of list(body.tools)) {
        for (const declaration of list(tool.functionDeclarations)) {
          if (typeof declaration.name === 'string') out.push({ name: declaration.name, kind: 'function', schema: declaration.parametersJsonSchema ?? declaration.parameters });
        }
      }
      break;
    default: {
      const exhaustive: never = dialect;
      return exhaustive;
    }
  }
  return out;
}
