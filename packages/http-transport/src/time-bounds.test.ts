import { describe, expect, it } from 'vitest';
import { isHttpTransportConfigurationError } from './http-transport-configuration-error.js';
import { resolveTransportConfiguration } from './resolve-transport-configuration.js';
import { getRequest, loopbackTransport, readAll, rejectionOf, startHttpServer } from './test-support/local-servers.js';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers with `contentType` and then one byte every `everyMs`, `count` times. */
function drip(contentType: string, count: number, everyMs: number) {
  return startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': contentType });
    let sent = 0;
    const timer = setInterval(() => {
      if (response.destroyed) return clearInterval(timer);
      response.write('x');
      sent += 1;
      if (sent === count) {
        clearInterval(timer);
        response.end();
      }
    }, everyMs);
    response.on('close', () => clearInterval(timer));
  });
}

const base = {
  baseUrl: 'https://api.example.com/v1',
  credentials: { type: 'api-key', apiKey: 'sk-time' },
  metadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
} as const;

describe('time bounds', () => {
  it('ends a body that drips forever under the idle timeout at the total body deadline', async () => {
    const server = await drip('application/json', 60, 50);
    const transport = loopbackTransport(server, { policy: { bodyDeadlineMs: 500, bodyIdleTimeoutMs: 5_000 } });
    const started = Date.now();
    const response = await transport.send(getRequest());
    expect(await rejectionOf(readAll(response.body))).toMatchObject({ stage: 'after-send', reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('does not apply the total deadline to an event stream, which may last as long as it keeps talking', async () => {
    const server = await drip('text/event-stream; charset=utf-8', 12, 50);
    const transport = loopbackTransport(server, { policy: { bodyDeadlineMs: 200, bodyIdleTimeoutMs: 5_000 } });
    const response = await transport.send(getRequest());
    expect((await readAll(response.body)).toString()).toBe('x'.repeat(12));
  });

  it('closes a stream nobody pulls after the first-pull deadline, so close() finishes and a late read fails', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
    });
    const transport = loopbackTransport(server, { policy: { firstPullTimeoutMs: 300 } });
    const response = await transport.send(getRequest());
    const closed = await Promise.race([transport.close().then(() => 'closed'), settle(3_000).then(() => 'still waiting')]);
    expect(closed).toBe('closed');
    expect(await rejectionOf(readAll(response.body))).toMatchObject({ stage: 'after-send', reason: 'timeout' });
    expect(server.sockets.every((socket) => socket.destroyed)).toBe(true);
  });

  it('does not fire the first-pull deadline once the consumer has pulled', async () => {
    const server = await drip('text/event-stream', 8, 100);
    const transport = loopbackTransport(server, { policy: { firstPullTimeoutMs: 150 } });
    const response = await transport.send(getRequest());
    expect((await readAll(response.body)).toString()).toBe('x'.repeat(8));
  });

  it('defaults to a 10 minute body deadline and a 60 second first-pull deadline', () => {
    const configuration = resolveTransportConfiguration(base);
    expect(configuration.bodyDeadlineMs).toBe(600_000);
    expect(configuration.firstPullTimeoutMs).toBe(60_000);
  });

  it.each([
    ['bodyDeadlineMs', 0],
    ['bodyDeadlineMs', 1.5],
    ['bodyDeadlineMs', 86_400_001],
    ['firstPullTimeoutMs', 0],
    ['firstPullTimeoutMs', -1],
    ['firstPullTimeoutMs', '60000'],
  ])('refuses %s = %s', (name, value) => {
    let error: unknown;
    try {
      resolveTransportConfiguration({ ...base, policy: { [name]: value } });
    } catch (caught) {
      error = caught;
    }
    expect(isHttpTransportConfigurationError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'HTTP_TRANSPORT_POLICY_INVALID' });
  });
});
