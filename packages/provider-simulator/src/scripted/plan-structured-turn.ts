import type { AnswerPlan } from '../wire/answer-plan.js';
import { declaredTools } from './declared-tools.js';
import { schemaInstance } from './schema-instance.js';
import type { ScriptedDialect } from './scripted-dialect.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** The name of the tool a request forces, in each dialect's own tool-choice shape. */
function forcedToolName(dialect: ScriptedDialect, body: Json): string | undefined {
  const choice = body.tool_choice;
  switch (dialect) {
    case 'openai-chat':
      return isObject(choice) && choice.type === 'function' && isObject(choice.function) && typeof choice.function.name === 'string' ? choice.function.name : undefined;
    case 'openai-responses':
      return isObject(choice) && choice.type === 'function' && typeof choice.name === 'string' ? choice.name : undefined;
    case 'anthropic-messages':
      return isObject(choice) && choice.type === 'tool' && typeof choice.name === 'string' ? choice.name : undefined;
    case 'gemini': {
      const config = isObject(body.toolConfig) ? body.toolConfig.functionCallingConfig : undefined;
      const names = isObject(config) && config.mode === 'ANY' && Array.isArray(config.allowedFunctionNames) ? config.allowedFunctionNames : [];
      return names.length === 1 && typeof names[0] === 'string' ? names[0] : undefined;
    }
    default: {
      const exhaustive: never = dialect;
      return exhaustive;
    }
  }
}

/** The schema in the dialect's own JSON-schema field, if the request uses it. */
function nativeSchema(dialect: ScriptedDialect, body: Json): unknown {
  switch (dialect) {
    case 'openai-chat': {
      const format = body.response_format;
      return isObject(format) && format.type === 'json_schema' && isObject(format.json_schema) ? format.json_schema.schema : undefined;
    }
    case 'openai-responses': {
      const format = isObject(body.text) ? body.text.format : undefined;
      return isObject(format) && format.type === 'json_schema' ? format.schema : undefined;
    }
    case 'anthropic-messages': {
      const format = isObject(body.output_config) ? body.output_config.format : undefined;
      return isObject(format) && format.type === 'json_schema' ? format.schema : undefined;
    }
    case 'gemini': {
      const config = isObject(body.generationConfig) ? body.generationConfig : {};
      return config.responseJsonSchema ?? config.responseSchema;
    }
    default: {
      const exhaustive: never = dialect;
      return exhaustive;
    }
  }
}

/** Every system text of a request, in order. */
function systemTexts(dialect: ScriptedDialect, body: Json): string[] {
  const texts: string[] = [];
  const add = (content: unknown): void => {
    if (typeof content === 'string') texts.push(content);
    else for (const part of list(content)) if (typeof part.text === 'string') texts.push(part.text);
  };
  switch (dialect) {
    case 'openai-chat':
      for (const message of list(body.messages)) if (message.role === 'system' || message.role === 'developer') add(message.content);
      break;
    case 'openai-responses':
      add(body.instructions);
      for (const item of list(body.input)) if (item.role === 'system' || item.role === 'developer') add(item.content);
      break;
    case 'anthropic-messages':
      add(body.system);
      break;
    case 'gemini':
      add(isObject(body.systemInstruction) ? body.systemInstruction.parts : undefined);
      break;
    default: {
      const exhaustive: never = dialect;
      return exhaustive;
    }
  }
  return texts;
}

/** JSON-object mode: the schema is the last line of a system text that starts with `{` and parses. */
function instructedSchema(dialect: ScriptedDialect, body: Json): unknown {
  let found: unknown;
  for (const text of systemTexts(dialect, body)) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        found = JSON.parse(line) as unknown;
      } catch {
        // Not a schema line.
      }
    }
  }
  return found;
}

/** JSON that breaks the schema: `{}` when it requires properties, else `[]`. */
function badInstance(schema: unknown): unknown {
  return isObject(schema) && Array.isArray(schema.required) && schema.required.length > 0 ? {} : [];
}

function split(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks.length === 0 ? [''] : chunks;
}

/**
 * The `structured` scenario's answer: a small instance of the request's schema (or JSON breaking it, when `bad`),
 * as the forced tool's call when the request forces a declared tool, else as text.
 */
export function planStructuredTurn(input: { readonly dialect: ScriptedDialect; readonly body: Json; readonly bad: boolean; readonly inputTokens: number }): AnswerPlan {
  const { dialect, body, bad, inputTokens } = input;
  const forced = forcedToolName(dialect, body);
  const tool = forced === undefined ? undefined : declaredTools(dialect, body).find((candidate) => candidate.name === forced);
  const schema = tool?.schema ?? nativeSchema(dialect, body) ?? instructedSchema(dialect, body);
  const chunks = split(JSON.stringify(bad ? badInstance(schema) : schemaInstance(schema)));
  const usage = { inputTokens, outputTokens: chunks.length, reasoningTokens: 0 };
  if (tool !== undefined) return { text: [], toolCall: { id: 'call_sim_0001', name: tool.name, argumentChunks: chunks }, usage };
  return { text: chunks, usage };
}
