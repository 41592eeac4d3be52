import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGateway, type RunningGateway } from '../start-gateway.js';
import { createLogCapture, eventually } from '../test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from '../test-support/simulator-catalogue.js';

const RESPONSES = 'openai-responses/v1';
const ANTHROPIC = 'anthropic-messages/v1';
const MAX_BODY = 64 * 1024;

let simulator: ProviderSimulator;
let gateway: RunningGateway;
const log = createLogCapture();

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(
    simulator,
    [
      { name: 'resp', taskKind: 'chat', targets: [{ family: RESPONSES, model: 'gpt-4.1-mini' }] },
      { name: 'claude', taskKind: 'chat', targets: [{ family: ANTHROPIC, model: 'claude-sonnet-4-5' }] },
      { name: 'tool-resp', taskKind: 'chat', targets: [{ family: RESPONSES, model: 'scripted.lookup' }] },
      { name: 'tool-claude', taskKind: 'chat', targets: [{ family: ANTHROPIC, model: 'scripted.lookup' }] },
      { name: 'slow', taskKind: 'chat', targets: [{ family: RESPONSES, model: 'slow-first-byte.400' }] },
      { name: 'stalled', taskKind: 'chat', targets: [{ family: RESPONSES, model: 'stall' }] },
    ],
    { maxBodyBytes: MAX_BODY, maxConcurrentRequests: 1 },
  );
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

type Event = Record<string, unknown> & { type: string };
const TERMINALS = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

/** A `ws` client of the gateway's Responses WebSocket that queues every message it receives. */
interface Client {
  readonly socket: WebSocket;
  next(): Promise<Event>;
  /** Messages up to and including the next terminal (`response.completed`, `response.failed`, `error`, ...). */
  untilTerminal(): Promise<Event[]>;
  create(body: Record<string, unknown>): Promise<Event[]>;
  close(): Promise<void>;
}

async function connect(headers: Record<string, string> = { authorization: `Bearer ${TEST_CLIENT_KEY}` }): Promise<Client> {
  const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/responses`, { headers: { 'openai-beta': 'responses_websockets=2026-02-06', ...headers } });
  const queue: Event[] = [];
  const waiting: ((event: Event) => void)[] = [];
  socket.on('message', (data) => {
    const event = JSON.parse(String(data)) as Event;
    const waiter = waiting.shift();
    if (waiter === undefined) queue.push(event);
    else waiter(event);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = (): Promise<Event> => {
    const queued = queue.shift();
    return queued === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(queued);
  };
  const untilTerminal = async (): Promise<Event[]> => {
    const events: Event[] = [];
    for (;;) {
      const event = await next();
      events.push(event);
      if (TERMINALS.has(event.type) && !(event.type === 'error' && event.status === undefined)) return events;
    }
  };
  return {
    socket,
    next,
    untilTerminal,
    create: (body) => {
      socket.send(JSON.stringify({ type: 'response.create', ...body }));
      return untilTerminal();
    },
    close: () =>
      new Promise((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}

const completedOf = (events: readonly Event[]) => events.at(-1) as { type: string; response: { id: string; output: { type: string; call_id?: string; name?: string }[]; usage: { input_tokens: number } } };
const textOf = (events: readonly Event[]): string => events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta as string).join('');
const LOOKUP_TOOL = { type: 'function', name: 'lookup', description: 'Looks a word up.', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };

describe('the upgrade', () => {
  it('checks the client key before the 101: a wrong key gets the OpenAI 401 body and no socket, and a log line', async () => {
    const from = log.requests().length;
    const refused = await connect({ authorization: 'Bearer wrong-key-123456' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toContain('401');
    await eventually(() => log.requests().length > from);
    expect(log.requests().at(-1)).toMatchObject({ route: 'WS /v1/responses', status: 401, outcome: 'refused:client-key' });
  });

  it('answers an upgrade on another path with 404', async () => {
    const socket = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/chat/completions`, { headers: { authorization: `Bearer ${TEST_CLIENT_KEY}` } });
    const status = await new Promise<number>((resolve) => socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));
    expect(status).toBe(404);
  });
});

describe('response.create', () => {
  it('streams the same events as SSE, one JSON message each, and logs one WS line per response.create', async () => {
    const body = { model: 'resp', input: 'hi', store: false };
    const sse = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
    });
    const sseTypes = (await sse.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => (JSON.parse(line.slice(6)) as Event).type);
    const from = log.requests().length;
    const client = await connect();
    const events = await client.create(body);
    expect(events.map((event) => event.type)).toEqual(sseTypes);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    expect(completedOf(events).type).toBe('response.completed');
    expect(textOf(events).length).toBeGreaterThan(0);
    await client.close();
    await eventually(() => log.requests().length > from);
    const lines = log.requests().slice(from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ route: 'WS /v1/responses', client: 'main', model: 'resp', status: 200, outcome: 'completed', target: { family: RESPONSES } });
  });

  it('serves a cross-dialect target (Anthropic) with Responses events', async () => {
    const client = await connect();
    const events = await client.create({ model: 'claude', input: 'hi' });
    expect(completedOf(events).type).toBe('response.completed');
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(log.requests().at(-1)).toMatchObject({ route: 'WS /v1/responses', target: { family: ANTHROPIC } });
    await client.close();
  });

  it('a refusal of the pipeline (unknown model) is the error event with its HTTP status, and the socket stays usable', async () => {
    const client = await connect();
    const refused = await client.create({ model: 'nope', input: 'hi' });
    expect(refused).toEqual([expect.objectContaining({ type: 'error', status: 404, error: expect.objectContaining({ type: 'invalid_request_error' }) })]);
    expect(completedOf(await client.create({ model: 'resp', input: 'hi' })).type).toBe('response.completed');
    await client.close();
  });
});

describe('previous_response_id within one connection', () => {
  for (const [model, family] of [
    ['tool-resp', RESPONSES],
    ['tool-claude', ANTHROPIC],
  ] as const) {
    it(`expands a follow-up that names the last response into the whole conversation (tool round trip, ${family})`, async () => {
      const from = log.requests().length;
      const client = await connect();
      const first = await client.create({ model, input: 'look up tf', tools: [LOOKUP_TOOL] });
      const call = completedOf(first).response.output.find((item) => item.type === 'function_call');
      expect(call?.name).toBe('lookup');
      const followUp = await client.create({
        model,
        previous_response_id: completedOf(first).response.id,
        input: [{ type: 'function_call_output', call_id: call?.call_id, output: 'found' }],
        tools: [LOOKUP_TOOL],
      });
      // The scripted model answers with text only when the conversation it got ends with its own call's result.
      expect(completedOf(followUp).type).toBe('response.completed');
      expect(textOf(followUp)).toBe('The tool returned its result.');
      expect(completedOf(followUp).response.usage.input_tokens).toBeGreaterThan(completedOf(first).response.usage.input_tokens);
      await eventually(() => log.requests().slice(from).length >= 2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(log.requests().slice(from)).toHaveLength(2);
      const [firstLine, followLine] = log.requests().slice(from) as { websocket: { connection: string; continued: boolean } }[];
      expect(firstLine?.websocket).toEqual({ connection: expect.any(String), continued: false });
      expect(followLine?.websocket).toEqual({ connection: firstLine?.websocket.connection, continued: true });
      await client.close();
    });
  }

  it('answers previous_response_not_found for an unknown id, an older response, and one from another connection', async () => {
    const client = await connect();
    const first = completedOf(await client.create({ model: 'resp', input: 'one' })).response.id;
    const second = completedOf(await client.create({ model: 'resp', input: 'two', previous_response_id: first })).response.id;
    for (const id of ['resp_unknown', first]) {
      const refused = await client.create({ model: 'resp', input: 'three', previous_response_id: id });
      expect(refused).toEqual([
        { type: 'error', status: 400, error: { type: 'invalid_request_error', code: 'previous_response_not_found', message: expect.any(String), param: 'previous_response_id' } },
      ]);
    }
    const other = await connect();
    expect((await other.create({ model: 'resp', input: 'x', previous_response_id: second }))[0]).toMatchObject({ error: { code: 'previous_response_not_found' } });
    expect(completedOf(await client.create({ model: 'resp', input: 'three', previous_response_id: second })).type).toBe('response.completed');
    expect(log.requests().filter((line) => line.outcome === 'refused:previous_response_not_found').length).toBeGreaterThanOrEqual(3);
    await other.close();
    await client.close();
  });

  it('keeps no response over the byte cap (limits.maxBodyBytes): naming it is previous_response_not_found', async () => {
    const client = await connect();
    const big = completedOf(await client.create({ model: 'resp', input: 'x'.repeat(MAX_BODY - 200) }));
    expect(big.type).toBe('response.completed');
    const refused = await client.create({ model: 'resp', input: 'more', previous_response_id: big.response.id });
    expect(refused[0]).toMatchObject({ type: 'error', error: { code: 'previous_response_not_found' } });
    await client.close();
  });

  it('answers generate:false without calling a target, and a follow-up naming it is served with its input', async () => {
    const before = simulator.requests.length;
    const client = await connect();
    const warm = await client.create({ model: 'tool-claude', input: 'look up tf', tools: [LOOKUP_TOOL], generate: false });
    expect(warm.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(completedOf(warm).response.output).toEqual([]);
    expect(simulator.requests.length).toBe(before);
    expect(log.requests().at(-1)).toMatchObject({ route: 'WS /v1/responses', outcome: 'warmup', status: 200 });
    const served = await client.create({ model: 'tool-claude', input: [], tools: [LOOKUP_TOOL], previous_response_id: completedOf(warm).response.id });
    expect(completedOf(served).response.output.some((item) => item.type === 'function_call')).toBe(true);
    await client.close();
  });
});

describe('bad input on the socket', () => {
  it('gets the error event and leaves the socket usable: non-JSON, unknown type, binary, over the body limit', async () => {
    const client = await connect();
    client.socket.send('{"type": "response.create", ');
    expect(await client.next()).toMatchObject({ type: 'error', status: 400, error: { type: 'invalid_request_error', code: 'malformed_json' } });
    client.socket.send(JSON.stringify({ type: 'session.update' }));
    expect(await client.next()).toMatchObject({ type: 'error', status: 400, error: { code: 'unknown_message_type', param: 'type' } });
    client.socket.send(Buffer.from('{}'), { binary: true });
    expect(await client.next()).toMatchObject({ type: 'error', status: 400, error: { code: 'binary_message' } });
    client.socket.send(JSON.stringify({ type: 'response.create', model: 'resp', input: 'x'.repeat(MAX_BODY) }));
    expect(await client.next()).toMatchObject({ type: 'error', status: 413, error: { type: 'invalid_request_error', code: 'body_too_large' } });
    expect(completedOf(await client.create({ model: 'resp', input: 'hi' })).type).toBe('response.completed');
    await client.close();
  });

  it('closes the connection with 1009 on a frame over twice the body limit', async () => {
    const client = await connect();
    const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)));
    client.socket.send('x'.repeat(2 * MAX_BODY + 1));
    expect(await closed).toBe(1009);
  });

  it('refuses a second response.create while one runs; the first completes', async () => {
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'response.create', model: 'slow', input: 'first' }));
    client.socket.send(JSON.stringify({ type: 'response.create', model: 'resp', input: 'second' }));
    expect(await client.next()).toMatchObject({ type: 'error', status: 400, error: { code: 'conversation_already_has_active_response' } });
    expect(completedOf(await client.untilTerminal()).type).toBe('response.completed');
    await client.close();
  });
});

describe('admission, cancellation', () => {
  it('an idle socket holds no concurrency slot; a running response holds one', async () => {
    const idle = [await connect(), await connect()];
    const post = () =>
      fetch(`${gateway.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'resp', input: 'hi' }) });
    expect((await post()).status).toBe(200);
    idle[0]?.socket.send(JSON.stringify({ type: 'response.create', model: 'slow', input: 'hi' }));
    await eventually(() => gateway.inFlight === 1);
    expect((await post()).status).toBe(429);
    expect(completedOf(await (idle[0] as Client).untilTerminal()).type).toBe('response.completed');
    await eventually(() => gateway.inFlight === 0);
    for (const client of idle) await client.close();
  });

  it('closing the socket aborts the provider call and logs the response as cancelled', async () => {
    const before = simulator.requests.length;
    const from = log.requests().length;
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'response.create', model: 'stalled', input: 'hi' }));
    await eventually(() => gateway.inFlight === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The simulator records a request when its response closes: a stalled one only closes when the gateway leaves.
    expect(simulator.requests.length).toBe(before);
    await client.close();
    await eventually(() => simulator.requests.length > before);
    await eventually(() => gateway.inFlight === 0);
    await eventually(() => log.requests().length > from);
    expect(log.requests().at(-1)).toMatchObject({ route: 'WS /v1/responses', model: 'stalled', outcome: 'cancelled' });
  });
});

describe('the request deadline', () => {
  it('ends a response past limits.requestTimeoutMs with a failure event; the socket stays usable', async () => {
    const { catalogue, env } = simulatorCatalogue(
      simulator,
      [
        { name: 'stalled', taskKind: 'chat', targets: [{ family: RESPONSES, model: 'stall' }] },
        { name: 'resp', taskKind: 'chat', targets: [{ family: RESPONSES, model: 'gpt-4.1-mini' }] },
      ],
      { requestTimeoutMs: 500 },
    );
    const short = await startGateway({ catalogue, env, logger: createLogCapture() });
    try {
      const socket = new WebSocket(`${short.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${TEST_CLIENT_KEY}` } });
      const events: Event[] = [];
      socket.on('message', (data) => events.push(JSON.parse(String(data)) as Event));
      await new Promise((resolve) => socket.once('open', resolve));
      const started = Date.now();
      socket.send(JSON.stringify({ type: 'response.create', model: 'stalled', input: 'hi' }));
      await eventually(() => events.some((event) => event.type === 'response.failed'), 5000);
      expect(Date.now() - started).toBeLessThan(3000);
      const from = events.length;
      socket.send(JSON.stringify({ type: 'response.create', model: 'resp', input: 'hi' }));
      await eventually(() => events.slice(from).some((event) => event.type === 'response.completed'));
      socket.close();
    } finally {
      await short.close();
    }
  });
});

describe('the drain', () => {
  it('lets a running response finish, then closes every connection with 1001', async () => {
    const { catalogue, env } = simulatorCatalogue(simulator, [{ name: 'slow', taskKind: 'chat', targets: [{ family: RESPONSES, model: 'slow-first-byte.400' }] }]);
    const draining = await startGateway({ catalogue, env, logger: createLogCapture() });
    const socket = new WebSocket(`${draining.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${TEST_CLIENT_KEY}` } });
    const events: Event[] = [];
    socket.on('message', (data) => events.push(JSON.parse(String(data)) as Event));
    const closedWith = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'response.create', model: 'slow', input: 'hi' }));
    await eventually(() => draining.inFlight === 1);
    await draining.close();
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(await closedWith).toBe(1001);
  });
});
