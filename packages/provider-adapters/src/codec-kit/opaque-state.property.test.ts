import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AdapterTerminalOutcomeV4, EgressCodecV1, EgressContextV1, IngressCodecV1, ProtocolFamily, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { createAnthropicMessagesEgressCodec } from '../protocols/anthropic-messages/egress.js';
import { createAnthropicMessagesIngressCodec } from '../protocols/anthropic-messages/ingress.js';
import { createGeminiGenerateContentEgressCodec } from '../protocols/gemini-generate-content/egress.js';
import { createGeminiGenerateContentIngressCodec } from '../protocols/gemini-generate-content/ingress.js';
import { createOpenAiChatEgressCodec } from '../protocols/openai-chat/egress.js';
import { createOpenAiChatIngressCodec } from '../protocols/openai-chat/ingress.js';
import { createOpenAiResponsesEgressCodec } from '../protocols/openai-responses/egress.js';
import { createOpenAiResponsesIngressCodec } from '../protocols/openai-responses/ingress.js';
import { fitOpaqueStateToTarget } from './fit-opaque-state.js';
import { createOpaqueStateSeal, type OpaqueStateSeal } from './opaque-state-seal.js';
import { sealEgressOpaqueState } from './seal-egress-opaque-state.js';

/*
 * Sessions of generated turns: one client dialect, a target family chosen per turn (same-dialect and
 * cross-dialect targets mixed). Each turn the client's conversation, built from the previous answers exactly as the
 * client received them, is decoded by the real ingress, fitted for the target, answered by the target with fresh
 * opaque values, sealed for the client and written by the real egress.
 */

type Json = Record<string, unknown>;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const context: EgressContextV1 = { responseId: 'resp_1', modelLabel: 'm', createdAtMs: 0 };

interface ClientDialect {
  readonly family: ProtocolFamily;
  readonly ingress: IngressCodecV1;
  readonly egress: EgressCodecV1;
  /** Which answers' opaque values this dialect has a field for. */
  readonly carries: { readonly reasoning: boolean; readonly toolCall: boolean };
  /** The client's next request: its history, then the answer as received, the tool result and a new user turn. */
  request(history: unknown[]): { path: string; body: Json };
  append(history: unknown[], answer: Json, turn: number): unknown[];
}

const dialects: readonly ClientDialect[] = [
  {
    family: 'anthropic-messages/v1',
    ingress: createAnthropicMessagesIngressCodec(),
    egress: createAnthropicMessagesEgressCodec(),
    carries: { reasoning: true, toolCall: false },
    request: (history) => ({ path: '/v1/messages', body: { model: 'm', max_tokens: 100, messages: history } }),
    append: (history, answer, turn) => {
      const call = (answer.content as Json[]).find((block) => block.type === 'tool_use') as Json;
      return [...history, { role: 'assistant', content: answer.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'ok' }, { type: 'text', text: `turn ${turn}` }] }];
    },
  },
  {
    family: 'openai-responses/v1',
    ingress: createOpenAiResponsesIngressCodec(),
    egress: createOpenAiResponsesEgressCodec(),
    carries: { reasoning: true, toolCall: false },
    request: (history) => ({ path: '/v1/responses', body: { model: 'm', input: history, store: false, include: ['reasoning.encrypted_content'] } }),
    append: (history, answer, turn) => {
      // A reasoning item without `encrypted_content` (no key to seal another family's value) names server-side
      // state, which this ingress refuses; such an item has nothing to replay, so the client's copy is left out here.
      const output = (answer.output as Json[]).filter((item) => item.type !== 'reasoning' || item.encrypted_content !== undefined);
      const call = output.find((item) => item.type === 'function_call') as Json;
      return [...history, ...output, { type: 'function_call_output', call_id: call.call_id, output: 'ok' }, { role: 'user', content: `turn ${turn}` }];
    },
  },
  {
    family: 'gemini-generate-content/v1',
    ingress: createGeminiGenerateContentIngressCodec(),
    egress: createGeminiGenerateContentEgressCodec(),
    carries: { reasoning: true, toolCall: true },
    request: (history) => ({ path: '/v1beta/models/m:generateContent', body: { contents: history } }),
    append: (history, answer, turn) => {
      const content = ((answer.candidates as Json[])[0] as Json).content as Json;
      const call = (content.parts as Json[]).find((part) => part.functionCall !== undefined)?.functionCall as Json;
      return [...history, content, { role: 'user', parts: [{ functionResponse: { name: call.name, ...(call.id === undefined ? {} : { id: call.id }), response: { ok: true } } }, { text: `turn ${turn}` }] }];
    },
  },
  {
    family: 'openai-chat/v1',
    ingress: createOpenAiChatIngressCodec(),
    egress: createOpenAiChatEgressCodec(),
    carries: { reasoning: false, toolCall: true },
    request: (history) => ({ path: '/v1/chat/completions', body: { model: 'm', messages: history } }),
    append: (history, answer, turn) => {
      const message = ((answer.choices as Json[])[0] as Json).message as Json;
      const call = (message.tool_calls as Json[])[0] as Json;
      return [...history, message, { role: 'tool', tool_call_id: call.id, content: 'ok' }, { role: 'user', content: `turn ${turn}` }];
    },
  },
];

const firstTurn = (dialect: ClientDialect): unknown[] =>
  dialect.family === 'gemini-generate-content/v1' ? [{ role: 'user', parts: [{ text: 'hi' }] }] : [{ role: 'user', content: 'hi' }];

/** Every opaque value a task would send to its target. */
function opaqueValues(task: TaskEnvelopeV4): { reasoning: string[]; toolCall: string[] } {
  const found = { reasoning: [] as string[], toolCall: [] as string[] };
  if (task.kind !== 'chat') return found;
  for (const message of task.messages) {
    for (const part of message.content) {
      if (part.type === 'reasoning' && part.signature !== undefined) found.reasoning.push(part.signature);
      if (part.type === 'tool-call' && part.signature !== undefined) found.toolCall.push(part.signature);
      if (part.type === 'redacted-reasoning') found.reasoning.push(part.data);
    }
  }
  return found;
}

/** What a target answers: reasoning with a signature, text and a signed tool call, values unique to family and turn. */
function answerOf(family: ProtocolFamily, turn: number, noise: string): AdapterTerminalOutcomeV4 {
  return {
    status: 'completed',
    result: {
      kind: 'chat',
      content: [
        { type: 'reasoning', text: 'thinking', signature: `${family}|reasoning|${turn}|${noise}` },
        { type: 'text', text: 'calling' },
        { type: 'tool-call', toolCallId: `call_${turn}`, toolName: 'lookup', argumentsText: '{"q":1}', signature: `${family}|call|${turn}|${noise}` },
      ],
    },
    finishReason: { unified: 'tool-calls' },
  } as AdapterTerminalOutcomeV4;
}

const families = dialects.map((dialect) => dialect.family);
const seal = createOpaqueStateSeal(encoder.encode('a host key of at least thirty-two bytes'));

function runSession(dialect: ClientDialect, targets: readonly ProtocolFamily[], noise: string, hostSeal: OpaqueStateSeal | undefined): void {
  const produced = new Map<ProtocolFamily, { reasoning: string[]; toolCall: string[] }>(families.map((family) => [family, { reasoning: [], toolCall: [] }]));
  let history = firstTurn(dialect);
  targets.forEach((target, turn) => {
    const wire = dialect.request(history);
    const decoded = dialect.ingress.decodeRequest({ path: wire.path, body: encoder.encode(JSON.stringify(wire.body)) });
    const fitted = fitOpaqueStateToTarget(decoded.task, { clientFamily: dialect.family, targetFamily: target, seal: hostSeal });
    const sent = opaqueValues(fitted.task);
    const own = produced.get(target) as { reasoning: string[]; toolCall: string[] };
    // Nothing another family produced reaches this target; each value is byte-identical to what this family made.
    for (const value of sent.reasoning) expect(own.reasoning).toContain(value);
    for (const value of sent.toolCall) expect(own.toolCall).toContain(value);
    // Every value of this family that the client's dialect can carry comes back, after any number of turns.
    const roundTrips = hostSeal !== undefined || target === dialect.family;
    if (dialect.carries.reasoning && roundTrips) expect(sent.reasoning).toEqual(own.reasoning);
    if (dialect.carries.toolCall && roundTrips) expect(sent.toolCall).toEqual(own.toolCall);
    const outcome = answerOf(target, turn, noise);
    if (outcome.status === 'completed' && outcome.result.kind === 'chat') {
      for (const part of outcome.result.content) {
        if (part.type === 'reasoning' && part.signature !== undefined) own.reasoning.push(part.signature);
        if (part.type === 'tool-call' && part.signature !== undefined) own.toolCall.push(part.signature);
      }
    }
    const egress = sealEgressOpaqueState(dialect.egress, { sourceFamily: target, seal: hostSeal });
    const answer = JSON.parse(decoder.decode(egress.encodeResponse(outcome, context).body)) as Json;
    history = dialect.append(history, answer, turn);
  });
}

describe('opaque reasoning state across dialects', () => {
  for (const dialect of dialects) {
    it(`${dialect.family} clients: values reach only their own family, byte for byte, over any target sequence`, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...families), { minLength: 1, maxLength: 8 }), fc.string({ minLength: 1, maxLength: 40 }), (targets, noise) => {
          runSession(dialect, targets, noise, seal);
        }),
        { numRuns: 60 },
      );
    });

    it(`${dialect.family} clients without a host key: another family's values are dropped, never forwarded`, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...families), { minLength: 1, maxLength: 6 }), (targets) => {
          runSession(dialect, targets, 'n', undefined);
        }),
        { numRuns: 30 },
      );
    });
  }
});
