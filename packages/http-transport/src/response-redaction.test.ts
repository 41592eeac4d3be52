import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CreateHttpProviderTransportOptions, HttpTransportCredentials } from './http-transport-options.js';
import { getRequest, loopbackTransport, readAll, startHttpServer } from './test-support/local-servers.js';

const API_KEY = 'sk-CANARY-echo-9b1f2e7a';
const ACCESS_KEY = 'ak-CANARY-echo-access';
const SECRET_KEY = 'CANARY-echo-signing/secret+key';

const SCHEMES: readonly { label: string; metadata: CreateHttpProviderTransportOptions['metadata']; credentials: HttpTransportCredentials }[] = [
  { label: 'bearer', metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} }, credentials: { type: 'api-key', apiKey: API_KEY } },
  {
    label: 'header',
    metadata: { auth: { scheme: 'header', headerName: 'x-api-key' }, fixedHeaders: {} },
    credentials: { type: 'api-key', apiKey: API_KEY },
  },
  {
    label: 'hs256-jwt',
    metadata: { auth: { scheme: 'hs256-jwt', lifetimeSeconds: 1800, notBeforeSkewSeconds: 5 }, fixedHeaders: {} },
    credentials: { type: 'access-key', accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
  },
];

/** Writes `body` in pieces cut at `cuts`, each flushed as its own socket write. */
async function writeInPieces(response: ServerResponse, body: Buffer, cuts: readonly number[]): Promise<void> {
  let start = 0;
  for (const cut of [...cuts, body.byteLength]) {
    response.write(body.subarray(start, cut));
    start = cut;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  response.end();
}

describe('provider echoes of the transport secrets', () => {
  it.each(SCHEMES)('removes every secret ($label) from response header values and body bytes before anyone reads them', async ({ metadata, credentials }) => {
    const held = credentials.type === 'api-key' ? [credentials.apiKey] : [credentials.accessKey, credentials.secretKey];
    const server = await startHttpServer((request, response) => {
      const sent = String(request.headers.authorization ?? request.headers['x-api-key'] ?? '');
      const token = sent.replace(/^Bearer /, '');
      const body = Buffer.from(JSON.stringify({ error: { code: held[0], key: held.at(-1), token, sent } }));
      response.writeHead(401, { 'x-request-id': sent, 'x-echo': held.join(','), 'content-type': 'application/json' });
      void writeInPieces(response, body, [body.indexOf('CANARY') + 3, body.indexOf(token.slice(0, 12)) + 7, body.byteLength - 5]);
    });
    const transport = loopbackTransport(server, { metadata, credentials });
    const response = await transport.send(getRequest());
    const text = (await readAll(response.body)).toString('utf8');
    const facts = `${JSON.stringify(response.headers)}${text}`;
    expect(facts).not.toContain('CANARY');
    expect(facts).not.toMatch(/eyJ[\w-]*\.[\w-]*\.[\w-]*/);
    expect(response.headers['x-request-id']).toMatch(/\[redacted\]$/);
    expect(JSON.parse(text)).toMatchObject({ error: { code: '[redacted]', key: '[redacted]', token: '[redacted]' } });
  });

  it('redacts the key from an error body for any split of the bytes over real socket writes', async () => {
    const events = `{"id":"1","echo":"${API_KEY}",\n"error":{"code":"${API_KEY}","message":"key ${API_KEY}"}}`;
    const body = Buffer.from(events);
    const expected = events.replaceAll(API_KEY, '[redacted]');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: body.byteLength - 1 }), { maxLength: 5 }), async (rawCuts) => {
        const cuts = [...rawCuts].sort((left, right) => left - right);
        const server = await startHttpServer((_request, response) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          void writeInPieces(response, body, cuts);
        });
        const transport = loopbackTransport(server, { credentials: { type: 'api-key', apiKey: API_KEY } });
        const response = await transport.send(getRequest());
        expect((await readAll(response.body)).toString('utf8')).toBe(expected);
        await transport.close();
      }),
      { numRuns: 25 },
    );
  });

  it('never rewrites a successful body, even one that holds the key', async () => {
    const body = Buffer.from(`data: {"choices":[{"delta":{"content":"${API_KEY} and te${API_KEY}xt"}}]}\n\ndata: [DONE]\n\n`);
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-echo': API_KEY });
      void writeInPieces(response, body, [20, body.indexOf('and') + 5]);
    });
    const transport = loopbackTransport(server, { credentials: { type: 'api-key', apiKey: API_KEY } });
    const response = await transport.send(getRequest());
    expect(response.headers['x-echo']).toBe('[redacted]');
    expect((await readAll(response.body)).equals(body)).toBe(true);
  });

  it('in a 2xx event stream redacts the key only inside an error event, for any split of the bytes', async () => {
    const content = `data: {"choices":[{"delta":{"content":"${API_KEY}"}}]}\n\n`;
    const errors = `event: error\ndata: {"type":"error","error":{"type":"${API_KEY}"}}\n\ndata: {"error":{"code":"${API_KEY}"}}\r\n\r\n`;
    const body = Buffer.from(content + errors);
    const expected = content + errors.replaceAll(API_KEY, '[redacted]');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: body.byteLength - 1 }), { maxLength: 5 }), async (rawCuts) => {
        const cuts = [...rawCuts].sort((left, right) => left - right);
        const server = await startHttpServer((_request, response) => {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          void writeInPieces(response, body, cuts);
        });
        const transport = loopbackTransport(server, { credentials: { type: 'api-key', apiKey: API_KEY } });
        const response = await transport.send(getRequest());
        expect((await readAll(response.body)).toString('utf8')).toBe(expected);
        await transport.close();
      }),
      { numRuns: 15 },
    );
  });

  it('redacts only the whole key in an error body, never a word that contains it', async () => {
    const text = JSON.stringify({ error: { message: `bad key ${API_KEY}; not ${API_KEY}_v2 nor x${API_KEY}`, type: 'text' } });
    const server = await startHttpServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(text);
    });
    const transport = loopbackTransport(server, { credentials: { type: 'api-key', apiKey: API_KEY } });
    const response = await transport.send(getRequest());
    expect((await readAll(response.body)).toString()).toBe(text.replace(`key ${API_KEY};`, 'key [redacted];'));
  });

  it.each(['none', 'x'])('a key shorter than 16 characters (%s) leaves error bodies and headers as sent', async (apiKey) => {
    const text = '{"error":{"type":"invalid_request_error","message":"I found none of them in the text"}}';
    const server = await startHttpServer((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json', 'x-request-id': 'req-none-x' });
      response.end(text);
    });
    const transport = loopbackTransport(server, { credentials: { type: 'api-key', apiKey } });
    const response = await transport.send(getRequest());
    expect(response.headers['x-request-id']).toBe('req-none-x');
    expect((await readAll(response.body)).toString()).toBe(text);
  });

  it('leaves a body without any secret byte for byte as sent', async () => {
    const body = Buffer.from('{"id":"chatcmpl-1","choices":[{"text":"sk-not-the-key skCANARY"}]}');
    const server = await startHttpServer((_request, response) => response.end(body));
    const transport = loopbackTransport(server, { credentials: { type: 'api-key', apiKey: API_KEY } });
    const response = await transport.send(getRequest());
    expect((await readAll(response.body)).equals(body)).toBe(true);
  });
});
