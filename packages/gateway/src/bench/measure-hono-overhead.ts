/**
 * What Hono on `@hono/node-server` costs per request over a bare `node:http` handler: both servers answer the
 * same small JSON POST on loopback in this process, measured interleaved over keep-alive connections. Prints p50
 * and p99 per request and the difference. Run:
 * `npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/bench/measure-hono-overhead.ts`
 */
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';

const BODY = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });
const ANSWER = JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }] });

function bare(): Server {
  return createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string };
      outgoing.writeHead(200, { 'content-type': 'application/json' }).end(parsed.model === 'm' ? ANSWER : '{}');
    });
  });
}

function hono(): Server {
  const app = new Hono();
  app.post('/v1/chat/completions', async (c) => {
    const parsed = JSON.parse(new TextDecoder().decode(await c.req.arrayBuffer())) as { model: string };
    return new Response(parsed.model === 'm' ? ANSWER : '{}', { headers: { 'content-type': 'application/json' } });
  });
  return createServer(getRequestListener(app.fetch));
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function once(port: number): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1000));
    });
    outgoing.on('error', reject);
    outgoing.end(BODY);
  });
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};

const servers = [bare(), hono()];
const [barePort, honoPort] = await Promise.all(servers.map(listen));
const rounds = Number(process.env.ROUNDS ?? 5);
const perRound = Number(process.env.REQUESTS ?? 1000);
const times: { bare: number[]; hono: number[] } = { bare: [], hono: [] };
for (let warm = 0; warm < 500; warm += 1) {
  await once(barePort as number);
  await once(honoPort as number);
}
for (let round = 0; round < rounds; round += 1) {
  for (let index = 0; index < perRound; index += 1) {
    // Alternate the order so neither server always runs second.
    if (index % 2 === 0) {
      times.bare.push(await once(barePort as number));
      times.hono.push(await once(honoPort as number));
    } else {
      times.hono.push(await once(honoPort as number));
      times.bare.push(await once(barePort as number));
    }
  }
}
const report = {
  requestsEach: rounds * perRound,
  bareP50Us: Math.round(percentile(times.bare, 0.5)),
  honoP50Us: Math.round(percentile(times.hono, 0.5)),
  bareP99Us: Math.round(percentile(times.bare, 0.99)),
  honoP99Us: Math.round(percentile(times.hono, 0.99)),
};
console.log(JSON.stringify({ ...report, addedP50Us: report.honoP50Us - report.bareP50Us }, null, 2));
agent.destroy();
await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
