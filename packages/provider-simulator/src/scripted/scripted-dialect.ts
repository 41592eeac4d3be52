/** The chat dialects the scripted model speaks (each read from its own request shape). */
export type ScriptedDialect = 'anthropic-messages' | 'openai-chat' | 'openai-responses' | 'gemini';
