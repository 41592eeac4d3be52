import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { SimulatorRequestRecord } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';

/*
 * Long-session history over real sockets with the official SDKs, gateway → the embedded provider simulator (which
 * reads what it was sent from the providers' documentation, not from our codecs):
 * - Anthropic `compaction` blocks (https://platform.claude.com/docs/en/build-with-claude/compaction, beta
 *   `compact-2026-01-12`);
 * - Responses `compaction` items (https://platform.openai.com/docs/api-reference/responses/compact) and `reasoning`
 *   items sent back by id without `encrypted_content` (https://platform.openai.com/docs/guides/reasoning).
 * Same dialect, the provider gets each payload back byte for byte; across dialects it gets none of them and the
 * client's answer names what was left out in `x-tokenforge-dropped-content`.
 */

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ logger: createLogCapture() });
});
afterAll(async () => {
  await gateway.close();
});

const SUMMARY = 'The user asked for a plan; the assistant proposed three steps.\n\n"Quoted" text, unicode: é 中文 🙂';
const ENCRYPTED = 'gAAAAABpZ2NvbXBhY3Rpb24tcGF5bG9hZA==';

/** The simulator's records of the requests `run` made, once they are all recorded. */
async function simulatorRequestsDuring(run: () => Promise<void>, expected: number): Promise<SimulatorRequestRecord[]> {
  const simulator = gateway.simulator;
  if (simulator === undefined) throw new Error('the embedded default runs the simulator');
  const before = simulator.requests.length;
  await run();
  for (let waited = 0; simulator.requests.length < before + expected && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  return simulator.requests.slice(before).filter((record) => ['/v1/messages', '/v1/responses', '/v1/chat/completions'].includes(record.path));
}

const anthropic = (): Anthropic => new Anthropic({ apiKey: gateway.clientKey, baseURL: gateway.url, maxRetries: 0 });
const openAi = (): OpenAI => new OpenAI({ apiKey: gateway.clientKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

const anthropicHistory: Anthropic.Beta.BetaMessageParam[] = [
  { role: 'user', content: 'Plan the work.' },
  { role: 'assistant', content: [{ type: 'compaction', content: SUMMARY }, { type: 'text', text: 'Step one is done.' }] },
  { role: 'user', content: 'Say hello.' },
];

const responsesHistory = [
  { role: 'user', content: 'Plan the work.' },
  { type: 'compaction', id: 'cmp_0123456789abcdef', encrypted_content: ENCRYPTED },
  { type: 'reasoning', id: 'rs_0123456789abcdef', summary: [{ type: 'summary_text', text: 'Planning.' }] },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Step one is done.' }] },
  { role: 'user', content: 'Say hello.' },
] as unknown as OpenAI.Responses.ResponseInput;

describe('an Anthropic client sending back a compaction block', () => {
  it('to an Anthropic target: the provider gets the block byte for byte, with the compaction beta', async () => {
    let dropped: string | null = 'unset';
    const records = await simulatorRequestsDuring(async () => {
      const { data, response } = await anthropic()
        .beta.messages.create({ model: 'sim-anthropic', max_tokens: 64, betas: ['compact-2026-01-12'], messages: anthropicHistory })
        .withResponse();
      expect(data.content.length).toBeGreaterThan(0);
      dropped = response.headers.get('x-tokenforge-dropped-content');
    }, 1);
    expect(records.map((record) => record.status)).toEqual([200]);
    expect(records[0]?.opaqueHistory).toEqual({ compactions: [SUMMARY], storedReasoningIds: [] });
    expect(dropped).toBeNull();
  });

  it.each([false, true])('to a Responses target (stream %s): the block never arrives and the header names it', async (stream) => {
    let dropped: string | null = null;
    const records = await simulatorRequestsDuring(async () => {
      const answer = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': gateway.clientKey ?? '', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'compact-2026-01-12', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-openai-responses', max_tokens: 64, messages: anthropicHistory, stream }),
      });
      expect(answer.status).toBe(200);
      dropped = answer.headers.get('x-tokenforge-dropped-content');
      expect(await answer.text()).toContain(stream ? 'message_stop' : '"stop_reason"');
    }, 1);
    expect(records.map((record) => [record.path, record.status])).toEqual([['/v1/responses', 200]]);
    expect(records[0]?.opaqueHistory).toBeUndefined();
    expect(dropped).toBe('compaction');
  });
});

describe('a Responses client sending back a compaction item and a stored reasoning item', () => {
  it('to a Responses target: the provider gets both as they came', async () => {
    let dropped: string | null = 'unset';
    const records = await simulatorRequestsDuring(async () => {
      const { data, response } = await openAi().responses.create({ model: 'sim-openai-responses', input: responsesHistory }).withResponse();
      expect(data.output_text.length).toBeGreaterThan(0);
      dropped = response.headers.get('x-tokenforge-dropped-content');
    }, 1);
    expect(records.map((record) => record.status)).toEqual([200]);
    expect(records[0]?.opaqueHistory).toEqual({ compactions: [ENCRYPTED], storedReasoningIds: ['rs_0123456789abcdef'] });
    expect(dropped).toBeNull();
  });

  it.each(['sim-anthropic', 'sim-openai-chat'])('to %s: neither arrives and the header names both', async (model) => {
    let dropped: string | null = null;
    const records = await simulatorRequestsDuring(async () => {
      const { data, response } = await openAi().responses.create({ model, input: responsesHistory }).withResponse();
      expect(data.output_text.length).toBeGreaterThan(0);
      dropped = response.headers.get('x-tokenforge-dropped-content');
    }, 1);
    expect(records.map((record) => record.status)).toEqual([200]);
    expect(records[0]?.opaqueHistory).toBeUndefined();
    expect(dropped).toBe('compaction, reasoning');
  });

  it('a reasoning item named by an id the gateway wrote is left out even for a Responses target (nothing stored it)', async () => {
    const first = await openAi().responses.create({ model: 'sim-openai-responses', input: 'Say hello.' });
    expect(first.id.startsWith('gw-')).toBe(true);
    const input = [
      { role: 'user', content: 'Plan the work.' },
      { type: 'reasoning', id: `rs_${first.id}_0`, summary: [{ type: 'summary_text', text: 'Planning.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Step one is done.' }] },
      { role: 'user', content: 'Say hello.' },
    ] as unknown as OpenAI.Responses.ResponseInput;
    let dropped: string | null = null;
    const records = await simulatorRequestsDuring(async () => {
      const { response } = await openAi().responses.create({ model: 'sim-openai-responses', input }).withResponse();
      dropped = response.headers.get('x-tokenforge-dropped-content');
    }, 1);
    expect(records.map((record) => record.status)).toEqual([200]);
    expect(records[0]?.opaqueHistory).toBeUndefined();
    expect(dropped).toBe('reasoning');
  });
});
