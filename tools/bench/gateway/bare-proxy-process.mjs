/**
 * The reference path of `npx --yes pnpm@12.4.2 bench:gateway`: the least a Node gateway can add. A bare `node:http`
 * server that reads the OpenAI chat body, parses it, swaps the model, sends it to the bench upstream with undici
 * (a keep-alive pool, as our transport uses) and answers with the upstream's body: parsed and re-serialized when
 * sync, piped through unchanged when streamed. No authentication, validation, translation or logging. Argument:
 * the upstream port. Prints `{"url":...}` when listening. Plain JavaScript run by node itself, as our gateway runs
 * from its build: neither process carries a TypeScript loader.
 */
// @ts-check
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

/** @param {import('node:http').IncomingMessage} incoming @returns {Promise<Record<string, unknown>>} */
async function readJson(incoming) {
  const chunks = [];
  for await (const chunk of incoming) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * @param {string} upstream @param {Agent} agent
 * @param {import('node:http').IncomingMessage} incoming @param {import('node:http').ServerResponse} outgoing
 */
async function forward(upstream, agent, incoming, outgoing) {
  const body = await readJson(incoming);
  const answer = await request(upstream, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench-upstream-key' },
    body: JSON.stringify({ ...body, model: 'bench-model' }),
  });
  if (body.stream === true) {
    outgoing.writeHead(answer.statusCode, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for await (const chunk of answer.body) outgoing.write(chunk);
    outgoing.end();
    return;
  }
  const text = JSON.stringify(JSON.parse(await answer.body.text()));
  outgoing.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  outgoing.end(text);
}

function main() {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: bare-proxy-process.ts <upstream port>');
  const upstream = `http://127.0.0.1:${port}/v1/chat/completions`;
  const agent = new Agent({ connections: 512, pipelining: 1 });
  const server = createServer((incoming, outgoing) => {
    forward(upstream, agent, incoming, outgoing).catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const listening = typeof address === 'object' && address !== null ? address.port : 0;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${listening}` })}\n`);
  });
}

main();
