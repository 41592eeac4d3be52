import type { ScriptedDialect } from './scripted-dialect.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const last = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : undefined);
const blocks = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/**
 * Whether the conversation's last turn hands tool results back (so the scripted model answers with text): an
 * Anthropic user turn with a `tool_result` block (system-role messages after it do not count), a chat `tool` message, a Responses `function_call_output` or
 * `custom_tool_call_output` item, a Gemini content with a `functionResponse` part.
 */
export function conversationEndsWithToolResult(dialect: ScriptedDialect, body: Json): boolean {
  switch (dialect) {
    case 'anthropic-messages': {
      // Claude Code puts `system`-role messages inside the conversation: they are not the turn that hands back results.
      const message = last(blocks(body.messages).filter((candidate) => candidate.role !== 'system'));
      return isObject(message) && message.role === 'user' && blocks(message.content).some((block) => block.type === 'tool_result');
    }
    case 'openai-chat': {
      const message = last(body.messages);
      return isObject(message) && message.role === 'tool';
    }
    case 'openai-responses': {
      const item = last(body.input);
      return isObject(item) && (item.type === 'function_call_output' || item.type === 'custom_tool_call_output');
    }
    case 'gemini': {
      const content = last(body.contents);
      return isObject(content) && blocks(content.parts).some((part) => isObject(part.functionResponse));
    }
    default: {
      const exhaustive: never = dialect;
      return exhaustive;
    }
  }
}
