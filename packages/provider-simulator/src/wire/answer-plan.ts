import type { SimulatorScenario } from '../scenario.js';

/** A synthesized answer, independent of the dialect that writes it. */
export interface AnswerPlan {
  /** Reasoning deltas and the signature that closes them, when the scenario reasons. */
  readonly reasoning?: { readonly chunks: readonly string[]; readonly signature: string };
  /** Text deltas (possibly none). */
  readonly text: readonly string[];
  /**
   * A tool call, when the scenario calls one. `kind: 'custom'` is a freeform call (Responses `custom_tool_call`):
   * the chunks are its input text rather than JSON arguments.
   */
  readonly toolCall?: { readonly id: string; readonly name: string; readonly argumentChunks: readonly string[]; readonly kind?: 'custom' };
  /**
   * A server-side compaction the answer opens with, when the request asked for one and reached its threshold:
   * Anthropic writes `data` as the `compaction` block's `content`, Responses as the `compaction` item's
   * `encrypted_content` (with id `cmp_sim0001`).
   */
  readonly compaction?: { readonly data: string };
  /** Token counts the answer reports. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly reasoningTokens: number };
}

/** The full text of a plan's deltas. */
export function joined(chunks: readonly string[]): string {
  return chunks.join('');
}

function textChunks(count: number): string[] {
  if (count === 3) return ['Hello', ' from the', ' simulator.'];
  const chunks: string[] = [];
  for (let index = 0; index < count; index += 1) chunks.push(index === 0 ? 'Simulated' : ` token${index}`);
  return chunks;
}

/** The plan of a synthesized scenario (`text`, `tool-call`, `reasoning`; every other kind answers with text). */
export function planFor(scenario: SimulatorScenario, inputTokens: number): AnswerPlan {
  switch (scenario.kind) {
    case 'tool-call':
      return {
        text: [],
        toolCall: { id: 'call_sim_0001', name: 'get_weather', argumentChunks: ['{"ci', 'ty":"Pa', 'ris"}'] },
        usage: { inputTokens, outputTokens: 9, reasoningTokens: 0 },
      };
    case 'reasoning':
      return {
        reasoning: { chunks: ['Let me think', ' about this.'], signature: 'c2lnbmF0dXJlLXNpbQ==' },
        text: ['The answer', ' is 42.'],
        usage: { inputTokens, outputTokens: 14, reasoningTokens: 6 },
      };
    case 'text': {
      const text = textChunks(scenario.chunks);
      return { text, usage: { inputTokens, outputTokens: text.length, reasoningTokens: 0 } };
    }
    default: {
      const text = textChunks(3);
      return { text, usage: { inputTokens, outputTokens: text.length, reasoningTokens: 0 } };
    }
  }
}
