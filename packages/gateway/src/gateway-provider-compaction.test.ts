import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startProviderSimulator, type SimulatorRequestRecord } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually, type LogCapture } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

/*
 * Compaction a provider emits, and the requests that ask for it, over real sockets with the official SDKs, gateway →
 * the embedded provider simulator (which answers from the providers' documentation, not from our codecs):
 * - Anthropic: `context_management.edits: [{type: "compact_20260112", trigger}]` with beta `compact-2026-01-12`; the
 *   answer opens with a `compaction` block (https://platform.claude.com/docs/en/build-with-claude/compaction);
 * - Responses: `context_management: [{type: "compaction", compact_threshold}]`; the answer opens with a `compaction`
 *   item (https://developers.openai.com/api/docs/guides/compaction).
 * Same dialect: the request reaches the provider as sent, the client gets the block or item as the provider wrote it,
 * and sending it back next turn reaches the provider byte for byte. Across dialects: the request is left out and named
 * in `x-tokenforge-dropped-content` and in the operator log line (the only record over the Responses WebSocket).
 */

let gateway: RunningGateway;
let log: LogCapture;

beforeAll(async () => {
  log = createLogCapture();
  gateway = await startGateway({ logger: log });
});
afterAll(async () => {
  await gateway.close();
});

const ANTHROPIC_SUMMARY = '<summary>\nSimulated summary of the conversation so far.\n</summary>';
const RESPONSES_PAYLOAD = 'Z0FBQUFBQnNpbXVsYXRlZC1jb21wYWN0aW9u';
const COMPACT_EDIT = { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 1 } }] };
const RESPONSES_TRIGGER = [{ type: 'compaction', compact_threshold: 1 }];

async function simulatorRequestsDuring(run: () => Promise<void>, expected: number): Promise<SimulatorRequestRecord[]> {
  const simulator = gateway.simulator;
  if (simulator === undefined) throw new Error('the embedded default runs the simulator');
  const before = simulator.requests.length;
  await run();
  for (let waited = 0; simulator.requests.length < before + expected && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  return simulator.requests.slice(before).filter((record) => ['/v1/messages', '/v1/responses', '/v1/chat/completions'].includes(record.path));
}

/** The operator log line of the latest request, once written. */
async function lastRequestLine(seenBefore: number): Promise<Record<string, unknown>> {
  await eventually(() => log.requests().length > seenBefore);
  return log.requests().at(-1) as Record<string, unknown>;
}

const anthropic = (): Anthropic => new Anthropic({ apiKey: gateway.clientKey, baseURL: gateway.url, maxRetries: 0 });
const openAi = (): OpenAI => new OpenAI({ apiKey: gateway.clientKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

describe('an Anthropic client asking for server-side compaction', () => {
  it('from an Anthropic target (sync): the block comes back as written, and sent back next turn it reaches the provider byte for byte', async () => {
    let content: Anthropic.Beta.BetaContentBlock[] = [];
    let dropped: string | null = 'unset';
    const first = await simulatorRequestsDuring(async () => {
      const { data, response } = await anthropic()
        .beta.messages.create({ model: 'sim-anthropic', max_tokens: 64, betas: ['compact-2026-01-12'], messages: [{ role: 'user', content: 'Plan the work.' }], context_management: COMPACT_EDIT } as never)
        .withResponse();
      content = (data as Anthropic.Beta.BetaMessage).content;
      dropped = response.headers.get('x-tokenforge-dropped-content');
    }, 1);
    expect(first[0]?.compactionRequest).toEqual({ triggerInputTokens: 1, compacted: true });
    expect(content[0]).toEqual({ type: 'compaction', content: ANTHROPIC_SUMMARY });
    expect(dropped).toBeNull();

    const next = await simulatorRequestsDuring(async () => {
      await anthropic().beta.messages.create({
        model: 'sim-anthropic',
        max_tokens: 64,
        betas: ['compact-2026-01-12'],
        messages: [{ role: 'user', content: 'Plan the work.' }, { role: 'assistant', content: content as never }, { role: 'user', content: 'Go on.' }],
      });
    }, 1);
    expect(next.map((record) => record.status)).toEqual([200]);
    expect(next[0]?.opaqueHistory).toEqual({ compactions: [ANTHROPIC_SUMMARY], storedReasoningIds: [] });
  });

  it('from an Anthropic target (stream): the SDK accumulates the same compaction block', async () => {
    const stream = anthropic().beta.messages.stream({ model: 'sim-anthropic', max_tokens: 64, betas: ['compact-2026-01-12'], messages: [{ role: 'user', content: 'Plan.' }], context_management: COMPACT_EDIT } as never);
    const message = await stream.finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'compaction', content: ANTHROPIC_SUMMARY });
    expect(message.content.length).toBeGreaterThan(1);
  });

  it.each([false, true])('to a Responses target (stream %s): the request is left out, named in the header and the log line', async (stream) => {
    let dropped: string | null = null;
    let body = '';
    const seen = log.requests().length;
    const records = await simulatorRequestsDuring(async () => {
      const answer = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': gateway.clientKey ?? '', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'compact-2026-01-12', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-openai-responses', max_tokens: 64, messages: [{ role: 'user', content: 'Plan.' }], context_management: COMPACT_EDIT, stream }),
      });
      expect(answer.status).toBe(200);
      dropped = answer.headers.get('x-tokenforge-dropped-content');
      body = await answer.text();
    }, 1);
    expect(records.map((record) => [record.path, record.status])).toEqual([['/v1/responses', 200]]);
    expect(records[0]?.compactionRequest).toBeUndefined();
    expect(dropped).toBe('compaction-trigger');
    expect(body).not.toContain('compaction');
    expect((await lastRequestLine(seen)).droppedContent).toEqual(['compaction-trigger']);
  });
});

describe('a Responses client asking for server-side compaction', () => {
  it('from a Responses target (sync): the item comes back with its id, and sent back next turn it reaches the provider byte for byte', async () => {
    let output: OpenAI.Responses.ResponseOutputItem[] = [];
    const first = await simulatorRequestsDuring(async () => {
      const { data, response } = await openAi()
        .responses.create({ model: 'sim-openai-responses', input: 'Plan the work.', context_management: RESPONSES_TRIGGER } as never)
        .withResponse();
      output = (data as OpenAI.Responses.Response).output;
      expect(response.headers.get('x-tokenforge-dropped-content')).toBeNull();
    }, 1);
    expect(first[0]?.compactionRequest).toEqual({ triggerInputTokens: 1, compacted: true });
    expect(output[0]).toEqual({ id: 'cmp_sim0001', type: 'compaction', encrypted_content: RESPONSES_PAYLOAD });

    const next = await simulatorRequestsDuring(async () => {
      await openAi().responses.create({ model: 'sim-openai-responses', input: [{ role: 'user', content: 'Plan the work.' }, ...output, { role: 'user', content: 'Go on.' }] as never });
    }, 1);
    expect(next.map((record) => record.status)).toEqual([200]);
    expect(next[0]?.opaqueHistory).toEqual({ compactions: [RESPONSES_PAYLOAD], storedReasoningIds: [] });
  });

  it('from a Responses target (stream): output_item.done and response.completed carry the same item', async () => {
    const events = await openAi().responses.create({ model: 'sim-openai-responses', input: 'Plan.', stream: true, context_management: RESPONSES_TRIGGER } as never);
    const seen: Record<string, unknown>[] = [];
    for await (const event of events as unknown as AsyncIterable<Record<string, unknown>>) seen.push(event);
    const item = { id: 'cmp_sim0001', type: 'compaction', encrypted_content: RESPONSES_PAYLOAD };
    expect(seen.find((event) => event.type === 'response.output_item.done')?.item).toEqual(item);
    expect((seen.at(-1) as { response: { output: unknown[] } }).response.output[0]).toEqual(item);
  });

  it('to an Anthropic target: the request is left out and named', async () => {
    const seen = log.requests().length;
    const records = await simulatorRequestsDuring(async () => {
      const { data, response } = await openAi()
        .responses.create({ model: 'sim-anthropic', input: 'Plan.', context_management: RESPONSES_TRIGGER } as never)
        .withResponse();
      expect((data as OpenAI.Responses.Response).output.some((item) => (item as { type: string }).type === 'compaction')).toBe(false);
      expect(response.headers.get('x-tokenforge-dropped-content')).toBe('compaction-trigger');
    }, 1);
    expect(records.map((record) => [record.path, record.status])).toEqual([['/v1/messages', 200]]);
    expect(records[0]?.compactionRequest).toBeUndefined();
    expect((await lastRequestLine(seen)).droppedContent).toEqual(['compaction-trigger']);
  });

  it('over the Responses WebSocket to an Anthropic target: no header exists, the operator log line names what was left out', async () => {
    const seen = log.requests().length;
    const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${gateway.clientKey ?? ''}` } });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const types: string[] = [];
    await new Promise<void>((resolve) => {
      socket.on('message', (data: Buffer) => {
        const type = (JSON.parse(data.toString('utf8')) as { type: string }).type;
        types.push(type);
        if (type === 'response.completed' || type === 'error') resolve();
      });
      socket.send(JSON.stringify({ type: 'response.create', model: 'sim-anthropic', input: 'Plan.', context_management: RESPONSES_TRIGGER }));
    });
    socket.close();
    expect(types.at(-1)).toBe('response.completed');
    const line = await lastRequestLine(seen);
    expect(line.route).toContain('/v1/responses');
    expect(line.droppedContent).toEqual(['compaction-trigger']);
  });
});

describe('content left out across dialects in the operator log', () => {
  it('names the history kinds dropped for another family, as the header does (names only)', async () => {
    const seen = log.requests().length;
    const { response } = await openAi()
      .responses.create({
        model: 'sim-anthropic',
        input: [{ role: 'user', content: 'a' }, { type: 'compaction', id: 'cmp_1', encrypted_content: 'c2VjcmV0LXBheWxvYWQ=' }, { role: 'user', content: 'b' }] as never,
      })
      .withResponse();
    expect(response.headers.get('x-tokenforge-dropped-content')).toBe('compaction');
    const line = await lastRequestLine(seen);
    expect(line.droppedContent).toEqual(['compaction']);
    expect(JSON.stringify(line)).not.toContain('c2VjcmV0LXBheWxvYWQ=');
  });
});

describe('another family\'s compaction in an answer (a provider that compacts unasked)', () => {
  it('is never written to an Anthropic client: a sync answer names it in its header, a stream in its log line', async () => {
    const simulator = await startProviderSimulator();
    const own = createLogCapture();
    const { catalogue, env } = simulatorCatalogue(simulator, [
      { name: 'compacting', taskKind: 'chat', targets: [{ family: 'openai-responses/v1', model: 'recorded.constructed__openai-responses-compaction' }] },
    ]);
    const local = await startGateway({ catalogue, env, logger: own });
    try {
      const client = new Anthropic({ apiKey: TEST_CLIENT_KEY, baseURL: local.url, maxRetries: 0 });
      const { data, response } = await client.messages.create({ model: 'compacting', max_tokens: 64, messages: [{ role: 'user', content: 'Go on.' }] }).withResponse();
      expect(data.content).toEqual([{ type: 'text', text: 'Continuing from the compacted context.' }]);
      expect(response.headers.get('x-tokenforge-dropped-content')).toBe('compaction');
      await eventually(() => own.requests().length === 1);
      expect(own.requests()[0]?.droppedContent).toEqual(['compaction']);

      const stream = client.messages.stream({ model: 'compacting', max_tokens: 64, messages: [{ role: 'user', content: 'Go on.' }] });
      const message = await stream.finalMessage();
      expect(message.content).toEqual([{ type: 'text', text: 'Continuing from the compacted context.' }]);
      await eventually(() => own.requests().length === 2);
      expect(own.requests()[1]?.droppedContent).toEqual(['compaction']);
    } finally {
      await local.close();
      await simulator.close();
    }
  });
});

