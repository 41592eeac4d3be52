import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

/** Bounds of the run: at most this many requests, for at most this long, this many at once. */
const MAX_REQUESTS = 5_000;
const MAX_LOAD_MS = 25_000;
const CONCURRENCY = 64;
/** The transport's idle keep-alive timeout (http-transport `keepAliveTimeoutMs` default) plus a margin. */
const POOL_IDLE_MS = 4_000;
const SETTLE_DEADLINE_MS = 12_000;
const FD_SLACK = 8;
const OPERATION_GUARD_MS = 10_000;

let simulator: ProviderSimulator;
let gateway: RunningGateway;

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(
    simulator,
    [
      { name: 'load-openai', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'upstream-chat' }] },
      { name: 'load-anthropic', taskKind: 'chat', targets: [{ family: 'anthropic-messages/v1', model: 'upstream-claude' }] },
      { name: 'load-gemini', taskKind: 'chat', targets: [{ family: 'gemini-generate-content/v1', model: 'upstream-gemini' }] },
      { name: 'load-stall', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'stall' }] },
      { name: 'load-slow', taskKind: 'chat', targets: [{ family: 'anthropic-messages/v1', model: 'slow-first-byte.300' }] },
    ],
    { maxConcurrentRequests: 1_024 },
  );
  gateway = await startGateway({ catalogue, env, logger: createLogCapture() });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

/** Open file descriptors of this process, and the inodes of its sockets. */
function openDescriptors(): { count: number; socketInodes: Set<string> } {
  const socketInodes = new Set<string>();
  const entries = readdirSync('/proc/self/fd');
  for (const entry of entries) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${entry}`));
      if (match?.[1] !== undefined) socketInodes.add(match[1]);
    } catch {
      // Closed between the listing and the read (the listing's own descriptor among them).
    }
  }
  return { count: entries.length, socketInodes };
}

/** This process's TCP sockets in CLOSE_WAIT (state 08 in /proc/net/tcp and tcp6), by inode. */
function closeWaitSockets(inodes: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '08' && fields[9] !== undefined && inodes.has(fields[9])) found.push(`${fields[1]} -> ${fields[2]}`);
    }
  }
  return found;
}

type Outcome = 'completed' | 'aborted' | 'unexpected';

interface Operation {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  /** `read`: read the whole answer; `first-chunk`: abort after the first body bytes; a number: abort after that many ms. */
  readonly end: 'read' | 'first-chunk' | number;
}

const chatBody = (model: string, stream: boolean) => ({ model, stream, messages: [{ role: 'user', content: 'hi' }] });
const OPENAI = { authorization: `Bearer ${TEST_CLIENT_KEY}` };
const ANTHROPIC = { 'x-api-key': TEST_CLIENT_KEY, 'anthropic-version': '2023-06-01' };
const GEMINI = { 'x-goog-api-key': TEST_CLIENT_KEY };
const GEMINI_BODY = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

/** The mix, across three dialects: whole answers, streams cut after their first bytes, calls cut before any byte. */
const OPERATIONS: readonly Operation[] = [
  { path: '/v1/chat/completions', headers: OPENAI, body: chatBody('load-openai', false), end: 'read' },
  { path: '/v1/chat/completions', headers: OPENAI, body: chatBody('load-openai', true), end: 'first-chunk' },
  { path: '/v1/messages', headers: ANTHROPIC, body: { ...chatBody('load-anthropic', true), max_tokens: 16 }, end: 'read' },
  { path: '/v1/messages', headers: ANTHROPIC, body: { ...chatBody('load-anthropic', true), max_tokens: 16 }, end: 'first-chunk' },
  { path: '/v1beta/models/load-gemini:streamGenerateContent?alt=sse', headers: GEMINI, body: GEMINI_BODY, end: 'first-chunk' },
  { path: '/v1beta/models/load-gemini:generateContent', headers: GEMINI, body: GEMINI_BODY, end: 'read' },
  { path: '/v1/chat/completions', headers: OPENAI, body: chatBody('load-stall', true), end: 150 },
  { path: '/v1/messages', headers: ANTHROPIC, body: { ...chatBody('load-slow', false), max_tokens: 16 }, end: 40 },
];

function run(agent: Agent, operation: Operation): Promise<Outcome> {
  const url = new URL(operation.path, gateway.url);
  const payload = JSON.stringify(operation.body);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = httpRequest(
      url,
      { agent, method: 'POST', headers: { ...operation.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        if (response.statusCode !== 200) settle('unexpected');
        if (operation.end === 'first-chunk') {
          response.once('data', () => {
            request.destroy();
            settle('aborted');
          });
        } else {
          response.resume();
        }
        response.once('end', () => settle(response.statusCode === 200 ? 'completed' : 'unexpected'));
        response.once('error', () => settle('aborted'));
      },
    );
    request.once('error', () => settle(typeof operation.end === 'number' ? 'aborted' : 'unexpected'));
    // No operation may hang the run: one still open after this is a failure.
    const guard = setTimeout(() => {
      request.destroy();
      settle('unexpected');
    }, OPERATION_GUARD_MS);
    request.once('close', () => clearTimeout(guard));
    if (typeof operation.end === 'number') {
      setTimeout(() => {
        request.destroy();
        settle('aborted');
      }, operation.end);
    }
    request.end(payload);
  });
}

describe('load and aborts through real sockets leak nothing', () => {
  it('the detectors see a leak: a half-closed socket is one more descriptor and one CLOSE_WAIT', async () => {
    const before = openDescriptors().count;
    const server = createNetServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
    await new Promise((resolve) => client.once('end', resolve));
    const leaked = openDescriptors();
    expect(leaked.count).toBeGreaterThan(before);
    expect(closeWaitSockets(leaked.socketInodes)).toHaveLength(1);
    client.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it(`≤${MAX_REQUESTS} requests and aborted streams in ≤${MAX_LOAD_MS / 1000} s at concurrency ${CONCURRENCY}: fds back within ${FD_SLACK} of baseline, no CLOSE_WAIT, still answering`, async () => {
    const baseline = openDescriptors().count;
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const counts: Record<Outcome, number> = { completed: 0, aborted: 0, unexpected: 0 };
    const started = performance.now();
    let issued = 0;
    const worker = async (): Promise<void> => {
      while (issued < MAX_REQUESTS && performance.now() - started < MAX_LOAD_MS) {
        const operation = OPERATIONS[issued % OPERATIONS.length] as Operation;
        issued += 1;
        counts[await run(agent, operation)] += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const loadMs = performance.now() - started;
    agent.destroy();

    // After the pool's idle timeout every upstream socket is closed; poll a little beyond it.
    await new Promise((resolve) => setTimeout(resolve, POOL_IDLE_MS + 500));
    let after = openDescriptors();
    let closeWait = closeWaitSockets(after.socketInodes);
    const settleStarted = performance.now();
    while ((after.count > baseline + FD_SLACK || closeWait.length > 0) && performance.now() - settleStarted < SETTLE_DEADLINE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = openDescriptors();
      closeWait = closeWaitSockets(after.socketInodes);
    }
    const figures = { requests: issued, ...counts, loadMs: Math.round(loadMs), requestsPerSecond: Math.round(issued / (loadMs / 1000)), fdBaseline: baseline, fdAfter: after.count, closeWait: closeWait.length, inFlight: gateway.inFlight };
    console.log(`load-and-abort: ${JSON.stringify(figures)}`);

    expect(issued).toBeGreaterThanOrEqual(OPERATIONS.length * 50);
    expect(counts.unexpected, JSON.stringify(figures)).toBe(0);
    expect(counts.aborted).toBeGreaterThan(issued / 3);
    expect(after.count, JSON.stringify(figures)).toBeLessThanOrEqual(baseline + FD_SLACK);
    expect(closeWait).toEqual([]);
    expect(gateway.inFlight).toBe(0);
    const still = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { ...OPENAI, 'content-type': 'application/json' }, body: JSON.stringify(chatBody('load-openai', false)) });
    expect(still.status).toBe(200);
    expect(((await still.json()) as { object: string }).object).toBe('chat.completion');
  }, 90_000);
});
