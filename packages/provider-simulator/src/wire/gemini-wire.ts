import type { SseFrame } from '../sim-exchange.js';
import { joined, type AnswerPlan } from './answer-plan.js';
import type { ChatWire } from './serve-chat.js';

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Google's error envelope (fact sheet §4.6); a 429 carries a `RetryInfo` detail. */
export function geminiErrorBody(status: number, message: string): unknown {
  const details = status === 429 ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }] : undefined;
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'), ...(details === undefined ? {} : { details }) } };
}

function usageMetadata(plan: AnswerPlan, outputSoFar: number): Record<string, unknown> {
  const { inputTokens, reasoningTokens } = plan.usage;
  const candidates = outputSoFar;
  return {
    promptTokenCount: inputTokens,
    candidatesTokenCount: candidates,
    ...(reasoningTokens > 0 ? { thoughtsTokenCount: reasoningTokens } : {}),
    totalTokenCount: inputTokens + candidates + reasoningTokens,
  };
}

function envelope(parts: unknown[], plan: AnswerPlan, model: string, outputSoFar: number, finish: boolean): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, ...(finish ? { finishReason: 'STOP' } : {}), index: 0 }],
    usageMetadata: usageMetadata(plan, outputSoFar),
    modelVersion: model,
    responseId: 'sim-response-0001',
  };
}

function visibleTokens(plan: AnswerPlan): number {
  return plan.usage.outputTokens - plan.usage.reasoningTokens;
}

function functionCallPart(plan: AnswerPlan): Record<string, unknown> | undefined {
  if (plan.toolCall === undefined) return undefined;
  return { functionCall: { name: plan.toolCall.name, args: JSON.parse(joined(plan.toolCall.argumentChunks)) as unknown } };
}

/** Gemini generateContent (fact sheet §4): whole envelopes per chunk, the last one carries `finishReason`. */
export const geminiWire: ChatWire = {
  fixtureFolder: 'gemini-generate-content',
  errorBody: geminiErrorBody,
  recordedStatus(body) {
    const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'number' && code >= 400 && code <= 599 ? code : 200;
  },
  syncBody(plan, model) {
    const parts: unknown[] = [];
    if (plan.reasoning !== undefined) parts.push({ text: joined(plan.reasoning.chunks), thought: true, thoughtSignature: plan.reasoning.signature });
    if (plan.text.length > 0) parts.push({ text: joined(plan.text) });
    const call = functionCallPart(plan);
    if (call !== undefined) parts.push(call);
    return envelope(parts, plan, model, visibleTokens(plan), true);
  },
  streamFrames(plan, model) {
    const bodies: { parts: unknown[] }[] = [];
    const reasoning = plan.reasoning;
    if (reasoning !== undefined) {
      reasoning.chunks.forEach((text, position) => {
        const last = position === reasoning.chunks.length - 1;
        bodies.push({ parts: [{ text, thought: true, ...(last ? { thoughtSignature: reasoning.signature } : {}) }] });
      });
    }
    for (const text of plan.text) bodies.push({ parts: [{ text }] });
    const call = functionCallPart(plan);
    if (call !== undefined) bodies.push({ parts: [call] });
    const visible = visibleTokens(plan);
    const frames = bodies.map((body, position): SseFrame => {
      const last = position === bodies.length - 1;
      const soFar = last ? visible : Math.min(visible, position + 1);
      return { data: JSON.stringify(envelope(body.parts, plan, model, soFar, last)) };
    });
    return { frames, terminalFrames: 1 };
  },
  midStreamErrorFrames() {
    return [{ data: JSON.stringify(geminiErrorBody(503, 'The model is overloaded. Please try again later.')) }];
  },
  recordedFrame: (line) => ({ data: line }),
  recordedTrailer: [],
};
