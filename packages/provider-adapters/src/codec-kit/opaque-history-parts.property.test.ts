import fc from 'fast-check';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import type { ProtocolFamily, ProviderDispatchTargetV2, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { createAnthropicMessagesSuiteEntryV1 } from '../protocols/anthropic-messages/suite-entry.js';
import { createOpenAiChatSuiteEntryV1 } from '../protocols/openai-chat/suite-entry.js';
import { createOpenAiResponsesSuiteEntryV1 } from '../protocols/openai-responses/suite-entry.js';
import { createTokenForgeProtocolSuiteV1 } from '../suite/create-protocol-suite-v1.js';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../testing/fixture-transport.js';
import { fitOpaqueStateToTarget } from './fit-opaque-state.js';
import { createOpaqueStateSeal } from './opaque-state-seal.js';

/*
 * Generated conversations whose assistant turns carry the opaque history items of long sessions, in the documented
 * wire shapes of each dialect:
 * - Anthropic `compaction` blocks (compaction beta, https://platform.claude.com/docs/en/build-with-claude/compaction:
 *   `{"type":"compaction","content":"<summary>"}`, optional `cache_control`);
 * - Responses `compaction` items (https://platform.openai.com/docs/api-reference/responses/compact:
 *   `{"type":"compaction","id":"cmp_…","encrypted_content":"…"}`) and `reasoning` items sent back without
 *   `encrypted_content` (https://platform.openai.com/docs/guides/reasoning, "keeping reasoning items in context":
 *   `{"type":"reasoning","id":"rs_…","summary":[…]}`).
 * Each conversation goes client bytes → the real ingress → the gateway's fit for the target → the real engine (its
 * task validation included) → the target's real adapter → the request a fixture transport records. Same dialect:
 * the opaque payload arrives byte for byte. Another dialect: it never arrives, and the fit names what it left out.
 */

type Json = Record<string, unknown>;
const encoder = new TextEncoder();
const suite = createTokenForgeProtocolSuiteV1({
  entries: [createAnthropicMessagesSuiteEntryV1(), createOpenAiResponsesSuiteEntryV1(), createOpenAiChatSuiteEntryV1()],
});
const engine = createProtocolEngineV1({ registry: suite.registry });
const seal = createOpaqueStateSeal(new Uint8Array(32).fill(7));

const ANSWERS: Readonly<Record<string, FixtureResponseV1>> = {
  'anthropic-messages/v1': {
    body: {
      type: 'json',
      value: { id: 'msg_1', type: 'message', role: 'assistant', model: 'p', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } },
    },
  },
  'openai-responses/v1': {
    body: {
      type: 'json',
      value: {
        id: 'resp_1',
        object: 'response',
        created_at: 1,
        model: 'p',
        status: 'completed',
        output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      },
    },
  },
  'openai-chat/v1': {
    body: {
      type: 'json',
      value: {
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'p',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    },
  },
};

function targetOf(family: ProtocolFamily): ProviderDispatchTargetV2 {
  return {
    provider: 'p',
    providerModel: 'p',
    connectionRef: 'c',
    capability: { protocolFamily: family, executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, reasoning: true },
  };
}

/** Decodes the client body, fits it for the target like the gateway, runs it through the engine; the sent body. */
async function send(clientFamily: ProtocolFamily, path: string, clientBody: Json, targetFamily: ProtocolFamily) {
  const codecs = suite.codecsFor(clientFamily);
  if (codecs === undefined) throw new Error(`${clientFamily} takes part in direct HTTP`);
  const { task } = codecs.ingress.decodeRequest({ path, body: encoder.encode(JSON.stringify(clientBody)) });
  const fitted = fitOpaqueStateToTarget(task, { clientFamily, targetFamily, seal });
  const answer = ANSWERS[targetFamily];
  if (answer === undefined) throw new Error(`no answer for ${targetFamily}`);
  const transport = createFixtureTransportV1({ responses: [answer] });
  const binding = createProtocolEngineTargetBindingV1({ target: targetOf(targetFamily), bindTransport: () => transport });
  const execution = await engine.execute({ binding, task: fitted.task, signal: new AbortController().signal });
  if (execution.kind !== 'response' || execution.terminal.status !== 'completed') throw new Error(`the turn failed: ${JSON.stringify(execution)}`);
  const request = transport.requests[0];
  if (request?.body.type !== 'json') throw new Error('no JSON request was sent');
  return { task: fitted.task, sent: request.body.value as Json, headers: request.headers, droppedParts: fitted.droppedParts };
}

/** Conversation text never holds `#` or `_`, so a payload or an id (which always does) is told apart from it. */
const text = fc.stringMatching(/^[a-z .,]{1,40}$/);
/** Opaque payloads as providers make them: base64-like and free text (a summary), never empty. */
const payload = fc.oneof(fc.base64String({ minLength: 4, maxLength: 200 }), fc.string({ minLength: 1, maxLength: 200 })).map((value) => `#${value}`);
const itemId = (prefix: string) => fc.stringMatching(/^[A-Za-z0-9]{4,24}$/).map((tail) => `${prefix}${tail}`);

/** An Anthropic conversation: user, then assistant turns each holding a compaction block and text, then user. */
const anthropicConversation = fc.array(fc.record({ summary: payload, cached: fc.boolean(), answer: text, question: text }), { minLength: 1, maxLength: 4 }).map((turns) => {
  const messages: Json[] = [{ role: 'user', content: 'start' }];
  for (const turn of turns) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'compaction', content: turn.summary, ...(turn.cached ? { cache_control: { type: 'ephemeral' } } : {}) }, { type: 'text', text: turn.answer }],
    });
    messages.push({ role: 'user', content: turn.question });
  }
  return { model: 'm', max_tokens: 64, messages };
});

/** A Responses conversation: compaction items and stored reasoning items between user and assistant messages. */
const responsesConversation = fc
  .array(
    fc.record({ compaction: payload, compactionId: fc.option(itemId('cmp_'), { nil: undefined }), reasoningId: itemId('rs_'), summary: fc.array(text, { maxLength: 1 }), answer: text, question: text }),
    { minLength: 1, maxLength: 4 },
  )
  .map((turns) => {
    const input: Json[] = [{ role: 'user', content: 'start' }];
    for (const turn of turns) {
      input.push({ type: 'compaction', ...(turn.compactionId === undefined ? {} : { id: turn.compactionId }), encrypted_content: turn.compaction });
      input.push({ type: 'reasoning', id: turn.reasoningId, summary: turn.summary.map((entry) => ({ type: 'summary_text', text: entry })) });
      input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.answer }] });
      input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.question }] });
    }
    return { model: 'm', input };
  });

const blocksOfType = (messages: unknown, type: string): Json[] =>
  (messages as { content: string | Json[] }[]).flatMap((message) => (typeof message.content === 'string' ? [] : message.content.filter((block) => block.type === type)));
const itemsOfType = (input: unknown, type: string): Json[] => (input as Json[]).filter((item) => item.type === type);

describe('compaction and stored reasoning through ingress, fit, engine and adapter', () => {
  it('Anthropic client → Anthropic target: every compaction block arrives byte for byte, with the compaction beta flag', async () => {
    await fc.assert(
      fc.asyncProperty(anthropicConversation, async (client) => {
        const { sent, headers, droppedParts } = await send('anthropic-messages/v1', '/v1/messages', client, 'anthropic-messages/v1');
        expect(JSON.stringify(blocksOfType(sent.messages, 'compaction'))).toBe(JSON.stringify(blocksOfType(client.messages, 'compaction')));
        expect(headers['anthropic-beta']).toBe('compact-2026-01-12');
        expect(droppedParts).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('Responses client → Responses target: compaction and stored reasoning items arrive as they came', async () => {
    await fc.assert(
      fc.asyncProperty(responsesConversation, async (client) => {
        const { sent, droppedParts } = await send('openai-responses/v1', '/v1/responses', client, 'openai-responses/v1');
        expect(JSON.stringify(itemsOfType(sent.input, 'compaction'))).toBe(JSON.stringify(itemsOfType(client.input, 'compaction')));
        expect(JSON.stringify(itemsOfType(sent.input, 'reasoning'))).toBe(JSON.stringify(itemsOfType(client.input, 'reasoning')));
        expect(droppedParts).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('across dialects the opaque items never arrive and the fit names what it left out', async () => {
    await fc.assert(
      fc.asyncProperty(anthropicConversation, responsesConversation, async (anthropicClient, responsesClient) => {
        for (const targetFamily of ['openai-responses/v1', 'openai-chat/v1'] as const) {
          const fromAnthropic = await send('anthropic-messages/v1', '/v1/messages', anthropicClient, targetFamily);
          expect(JSON.stringify(fromAnthropic.sent)).not.toMatch(/#/);
          expect(fromAnthropic.droppedParts).toEqual(['compaction']);
        }
        for (const targetFamily of ['anthropic-messages/v1', 'openai-chat/v1'] as const) {
          const fromResponses = await send('openai-responses/v1', '/v1/responses', responsesClient, targetFamily);
          const sentText = JSON.stringify(fromResponses.sent);
          expect(sentText).not.toMatch(/#/);
          expect(sentText).not.toMatch(/rs_|cmp_/);
          expect(fromResponses.headers['anthropic-beta']).toBeUndefined();
          expect([...fromResponses.droppedParts].sort()).toEqual(['compaction', 'reasoning']);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a compaction sealed for the client by the gateway reaches its own family only, unwrapped', async () => {
    const summary = 'Summary of the earlier turns.';
    const wrapped = seal.seal('anthropic-messages/v1', summary);
    const client = { model: 'm', input: [{ role: 'user', content: 'a' }, { type: 'compaction', encrypted_content: wrapped }, { role: 'user', content: 'b' }] };
    const toAnthropic = await send('openai-responses/v1', '/v1/responses', client, 'anthropic-messages/v1');
    expect(blocksOfType(toAnthropic.sent.messages, 'compaction')).toEqual([{ type: 'compaction', content: summary }]);
    const toResponses = await send('openai-responses/v1', '/v1/responses', client, 'openai-responses/v1');
    expect(itemsOfType(toResponses.sent.input, 'compaction')).toEqual([]);
    expect(toResponses.droppedParts).toEqual(['compaction']);
  });

  it('the engine validates the V4 parts: an empty compaction payload is refused before any request', async () => {
    const task = { kind: 'chat', stream: false, messages: [{ role: 'assistant', content: [{ type: 'compaction', data: '' }] }] } as unknown as TaskEnvelopeV4;
    const transport = createFixtureTransportV1({ responses: [] });
    const binding = createProtocolEngineTargetBindingV1({ target: targetOf('anthropic-messages/v1'), bindTransport: () => transport });
    await expect(engine.execute({ binding, task, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_INPUT_INVALID' });
    const userCompaction = { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'compaction', data: 'x' }] }] } as unknown as TaskEnvelopeV4;
    await expect(engine.execute({ binding, task: userCompaction, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_INPUT_INVALID' });
    expect(transport.requests).toHaveLength(0);
  });
});
