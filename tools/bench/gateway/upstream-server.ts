/**
 * The bench upstream, run as its own process: answers `POST /v1/chat/completions` (openai-chat) and
 * `POST /v1/messages` (anthropic-messages) with canned bodies, a 2,000-event stream when the request asks for
 * `"stream": true`. Prints `{"port":N}` on stdout once listening on 127.0.0.1.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicMessageBody, anthropicStreamEvents, openAiChatBody, openAiChatStreamEvents, writesOf } from './canned-upstream.js';

const ANSWERS = {
  '/v1/chat/completions': { sync: openAiChatBody(), stream: writesOf(openAiChatStreamEvents()) },
  '/v1/messages': { sync: anthropicMessageBody(), stream: writesOf(anthropicStreamEvents()) },
} as const;

function writeStream(response: ServerResponse, writes: readonly Uint8Array[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let next = 0;
  const pump = (): void => {
    while (next < writes.length) {
      const ok = response.write(writes[next] as Uint8Array);
      next += 1;
      if (!ok) {
        response.once('drain', pump);
        return;
      }
    }
    response.end();
  };
  pump();
}

const server = createServer((request, response) => {
  const answer = ANSWERS[(request.url ?? '').split('?')[0] as keyof typeof ANSWERS];
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method !== 'POST' || answer === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    let stream = false;
    try {
      stream = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: unknown }).stream === true;
    } catch {
      // A body that is not JSON gets the sync answer.
    }
    if (stream) writeStream(response, answer.stream);
    else response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.sync.byteLength) }).end(answer.sync);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
