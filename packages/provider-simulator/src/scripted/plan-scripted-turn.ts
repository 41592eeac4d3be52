import type { AnswerPlan } from '../wire/answer-plan.js';
import { conversationEndsWithToolResult } from './conversation-ends-with-tool-result.js';
import { declaredTools } from './declared-tools.js';
import { schemaInstance } from './schema-instance.js';
import type { ScriptedDialect } from './scripted-dialect.js';

/**
 * The JSON arguments of a function call: the scenario's object, or, for scripted text and a schema of exactly one
 * string property (a freeform tool a gateway offers as a function), that property set to the text; else an
 * instance of the schema.
 */
function functionArguments(given: Readonly<Record<string, unknown>> | string | undefined, schema: unknown): unknown {
  if (given !== undefined && typeof given !== 'string') return given;
  if (typeof given === 'string' && typeof schema === 'object' && schema !== null) {
    const properties = (schema as { properties?: unknown }).properties;
    if (typeof properties === 'object' && properties !== null) {
      const entries = Object.entries(properties);
      const only = entries[0];
      if (entries.length === 1 && only !== undefined && typeof only[1] === 'object' && only[1] !== null && (only[1] as { type?: unknown }).type === 'string') return { [only[0]]: given };
    }
  }
  return schemaInstance(schema);
}

/** Arguments the scripted model passes, by tool name: a JSON object for function tools, text for custom tools. */
export type ScriptedToolArguments = Readonly<Record<string, Readonly<Record<string, unknown>> | string>>;

/** The text the scripted model answers once the tool result is back. */
export const SCRIPTED_FINAL_TEXT = ['The tool', ' returned its result.'] as const;

/** A turn of the scripted model: the plan to stream, or why it cannot play the scenario. */
export type ScriptedTurn = { readonly plan: AnswerPlan } | { readonly refusal: string };

function split(text: string, parts: number): string[] {
  if (text.length < parts) return [text];
  const size = Math.ceil(text.length / parts);
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}

/**
 * One turn of the scripted model. A conversation that ends with a tool result gets the final text; otherwise a
 * request that declares tools gets a call of the scenario's tool (the first declared one when the scenario names
 * none), with the arguments given for it or a small value of its schema; a request without tools gets the text.
 */
export function planScriptedTurn(input: {
  readonly dialect: ScriptedDialect;
  readonly body: Record<string, unknown>;
  readonly tool: string | undefined;
  readonly inputTokens: number;
  readonly toolArguments?: ScriptedToolArguments | undefined;
}): ScriptedTurn {
  const { dialect, body, inputTokens } = input;
  const tools = declaredTools(dialect, body);
  if (conversationEndsWithToolResult(dialect, body) || tools.length === 0) {
    return { plan: { text: [...SCRIPTED_FINAL_TEXT], usage: { inputTokens, outputTokens: SCRIPTED_FINAL_TEXT.length, reasoningTokens: 0 } } };
  }
  const tool = input.tool === undefined ? tools[0] : tools.find((candidate) => candidate.name === input.tool);
  if (tool === undefined) return { refusal: 'simulator: the scripted tool is not among the declared tools' };
  const given = input.toolArguments?.[tool.name];
  const text = tool.kind === 'custom' ? (typeof given === 'string' ? given : 'scripted input') : JSON.stringify(functionArguments(given, tool.schema));
  return {
    plan: {
      text: [],
      toolCall: { id: 'call_sim_0001', name: tool.name, argumentChunks: split(text, 3), ...(tool.kind === 'custom' ? { kind: 'custom' as const } : {}) },
      usage: { inputTokens, outputTokens: 9, reasoningTokens: 0 },
    },
  };
}
