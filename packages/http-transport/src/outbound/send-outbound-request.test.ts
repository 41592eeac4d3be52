import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressRules } from '../address-policy/address-policy.js';
import { sendOutboundRequest } from './send-outbound-request.js';

let server: Server;
let base = '';
const seen: { method: string; path: string; body: string; signature: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8'), signature: request.headers['webhook-signature'] as string | undefined });
      if (request.url === '/redirect') return response.writeHead(302, { location: `${base}/elsewhere` }).end();
      if (request.url === '/slow') return undefined;
      if (request.url === '/media') return response.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(1000, 7));
      response.writeHead(204).end();
      return undefined;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const loopback: AddressRules = { allowedCategories: new Set(['loopback']), plainHttp: true };
const publicOnly: AddressRules = { allowedCategories: new Set(), plainHttp: false };

describe('sendOutboundRequest', () => {
  it('sends the body and headers the host wrote and answers the status', async () => {
    const result = await sendOutboundRequest({ method: 'POST', url: new URL(`${base}/hooks`), headers: { 'content-type': 'application/json', 'webhook-signature': 'v1,abc' }, body: '{"a":1}', rules: loopback, timeoutMs: 5000 });
    expect(result).toMatchObject({ kind: 'response', status: 204 });
    expect(seen.at(-1)).toEqual({ method: 'POST', path: '/hooks', body: '{"a":1}', signature: 'v1,abc' });
  });

  it('never follows a redirect', async () => {
    const before = seen.length;
    expect(await sendOutboundRequest({ method: 'POST', url: new URL(`${base}/redirect`), body: 'x', rules: loopback, timeoutMs: 5000 })).toMatchObject({ kind: 'response', status: 302 });
    expect(seen.slice(before).map((entry) => entry.path)).toEqual(['/redirect']);
  });

  it('refuses loopback, private and metadata addresses unless allowed, before any byte is sent', async () => {
    const before = seen.length;
    expect(await sendOutboundRequest({ method: 'POST', url: new URL(`${base}/hooks`), body: 'x', rules: publicOnly, timeoutMs: 5000 })).toEqual({ kind: 'failed', reason: 'policy-refused' });
    // A public-looking name that resolves to a private address is refused on the resolved address.
    const resolveHostname = async () => ['10.1.2.3'];
    expect(await sendOutboundRequest({ method: 'POST', url: new URL('https://hooks.example.com/x'), body: 'x', rules: publicOnly, timeoutMs: 5000, resolveHostname })).toEqual({ kind: 'failed', reason: 'policy-refused' });
    expect(await sendOutboundRequest({ method: 'GET', url: new URL('https://169.254.169.254/latest'), rules: publicOnly, timeoutMs: 5000 })).toEqual({ kind: 'failed', reason: 'policy-refused' });
    expect(seen.length).toBe(before);
  });

  it('ends at its deadline, and a refused connection is a connection failure', async () => {
    expect(await sendOutboundRequest({ method: 'POST', url: new URL(`${base}/slow`), body: 'x', rules: loopback, timeoutMs: 200 })).toEqual({ kind: 'failed', reason: 'timeout' });
    expect(await sendOutboundRequest({ method: 'POST', url: new URL('http://127.0.0.1:1/x'), body: 'x', rules: loopback, timeoutMs: 2000 })).toEqual({ kind: 'failed', reason: 'connection' });
  });

  it('keeps a response body up to its limit, and refuses a larger one', async () => {
    const kept = await sendOutboundRequest({ method: 'GET', url: new URL(`${base}/media`), rules: loopback, timeoutMs: 5000, maxResponseBytes: 1000 });
    expect(kept.kind === 'response' && kept.body?.byteLength).toBe(1000);
    expect(kept.kind === 'response' && kept.headers['content-type']).toBe('video/mp4');
    expect(await sendOutboundRequest({ method: 'GET', url: new URL(`${base}/media`), rules: loopback, timeoutMs: 5000, maxResponseBytes: 999 })).toEqual({ kind: 'failed', reason: 'too-large' });
  });
});
