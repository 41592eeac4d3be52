import type { SimulatorScenario } from '../scenario.js';
import { parseJsonObject, type SimExchange } from '../sim-exchange.js';
import type { ChatWire } from './serve-chat.js';
import { serveJson, type JsonWire } from './serve-json.js';

/** The three counting endpoints the simulator answers, by dialect. */
export type CountTokensDialect = 'anthropic-messages' | 'openai-responses' | 'gemini';

/** UTF-8 bytes of counted JSON per simulated token. */
export const SIMULATOR_COUNT_BYTES_PER_TOKEN = 4;

/** The request members each counting endpoint counts, in order (for Gemini, inside `generateContentRequest`). */
export const SIMULATOR_COUNTED_MEMBERS: Readonly<Record<CountTokensDialect, readonly string[]>> = {
  'anthropic-messages': ['system', 'messages', 'tools', 'tool_choice', 'thinking'],
  'openai-responses': ['instructions', 'input', 'tools', 'tool_choice', 'reasoning'],
  gemini: ['systemInstruction', 'contents', 'tools', 'toolConfig', 'generationConfig'],
};

/**
 * The simulated count of a request: one token per {@link SIMULATOR_COUNT_BYTES_PER_TOKEN} UTF-8 bytes of the JSON of
 * its counted members (absent ones as `null`), at least 1. Deterministic: the same input always counts the same,
 * and a longer message, a tool or a system text always counts more.
 */
export function simulatedInputTokens(dialect: CountTokensDialect, counted: Record<string, unknown>): number {
  const members = SIMULATOR_COUNTED_MEMBERS[dialect].map((member) => counted[member] ?? null);
  return Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(members)) / SIMULATOR_COUNT_BYTES_PER_TOKEN));
}

/** What each dialect counts: the members the endpoint reads, or a refusal message. */
function countedOf(dialect: CountTokensDialect, body: Record<string, unknown>): Record<string, unknown> | string {
  switch (dialect) {
    case 'anthropic-messages':
      if (typeof body.model !== 'string') return 'model: Field required';
      if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: Field required';
      return body;
    case 'openai-responses':
      if (body.input === undefined && body.instructions === undefined) return "Missing required parameter: 'input'.";
      return body;
    case 'gemini': {
      const request = body.generateContentRequest;
      if (request !== undefined) {
        if (typeof request !== 'object' || request === null || Array.isArray(request)) return 'generateContentRequest must be an object';
        const inner = request as Record<string, unknown>;
        if (body.contents !== undefined) return 'contents and generateContentRequest are mutually exclusive';
        if (typeof inner.model !== 'string') return 'generateContentRequest.model is required';
        if (!Array.isArray(inner.contents) || inner.contents.length === 0) return 'generateContentRequest.contents is required';
        return inner;
      }
      if (!Array.isArray(body.contents) || body.contents.length === 0) return 'contents is required';
      return { contents: body.contents };
    }
  }
}

function answerOf(dialect: CountTokensDialect, inputTokens: number): unknown {
  switch (dialect) {
    case 'anthropic-messages':
      return { input_tokens: inputTokens };
    case 'openai-responses':
      return { object: 'response.input_tokens', input_tokens: inputTokens };
    case 'gemini':
      return { totalTokens: inputTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: inputTokens }] };
  }
}

/**
 * A counting endpoint (`POST /v1/messages/count_tokens`, `POST /v1/responses/input_tokens`,
 * `POST /v1beta/models/{model}:countTokens`): the dialect's answer with {@link simulatedInputTokens}, the dialect's
 * 400 for a body the endpoint would refuse, and the sync scenarios of `serveJson` (errors, slow first byte, stall,
 * truncation) in the dialect's error envelope.
 */
export function serveCountTokens(dialect: CountTokensDialect, chatWire: ChatWire, exchange: SimExchange, scenario: SimulatorScenario): Promise<void> {
  const wire: JsonWire = { fixtureFolder: chatWire.fixtureFolder, errorBody: (status, message) => chatWire.errorBody(status, message), recordedStatus: () => 200 };
  return serveJson(wire, exchange, scenario, () => {
    const body = parseJsonObject(exchange.request.body);
    if (body === undefined) return { status: 400, body: chatWire.errorBody(400, 'The request body is not a JSON object.') };
    const counted = countedOf(dialect, body);
    if (typeof counted === 'string') return { status: 400, body: chatWire.errorBody(400, counted) };
    return { status: 200, body: answerOf(dialect, simulatedInputTokens(dialect, counted)) };
  });
}
