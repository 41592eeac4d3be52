import type { ProviderTransport, ProviderTransportRequest } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_ID_HEADER, attemptTransport, withAttemptId } from './attempt-id-header.js';

function recordingTransport(): { transport: ProviderTransport; sent: Record<string, string>[] } {
  const sent: Record<string, string>[] = [];
  const transport = {
    send: async (request: ProviderTransportRequest) => {
      sent.push({ ...request.headers });
      return { status: 200, headers: {}, body: (async function* () {})() };
    },
  } as unknown as ProviderTransport;
  return { transport, sent };
}

const request = (signal: AbortSignal): ProviderTransportRequest => ({ method: 'POST', path: '/v1/x', headers: { accept: 'application/json' }, body: '{}', signal }) as unknown as ProviderTransportRequest;

describe('the attempt id header', () => {
  it('is added to what a transport bound under the attempt sends, and to nothing bound outside or after it', async () => {
    const { transport, sent } = recordingTransport();
    const signal = new AbortController().signal;
    await attemptTransport(transport, signal).send(request(signal));
    // As the engine does: the transport is bound inside the execute call, then sends after an await.
    await withAttemptId('req-1:1', signal, async () => {
      const bound = attemptTransport(transport, signal);
      await new Promise((resolve) => setTimeout(resolve, 1));
      await bound.send(request(signal));
    });
    await attemptTransport(transport, signal).send(request(signal));
    expect(sent.map((headers) => headers[ATTEMPT_ID_HEADER])).toEqual([undefined, 'req-1:1', undefined]);
    expect(sent[1]).toEqual({ accept: 'application/json', [ATTEMPT_ID_HEADER]: 'req-1:1' });
  });

  it('keeps concurrent requests apart (each request has its own signal) and names each retry', async () => {
    const { transport, sent } = recordingTransport();
    const first = new AbortController().signal;
    const second = new AbortController().signal;
    const attempt = (id: string, signal: AbortSignal) =>
      withAttemptId(id, signal, async () => {
        const bound = attemptTransport(transport, signal);
        await new Promise((resolve) => setTimeout(resolve, 2));
        await bound.send(request(signal));
      });
    await Promise.all([attempt('a:1', first), attempt('b:1', second)]);
    await attempt('a:2', first);
    expect(sent.map((headers) => headers[ATTEMPT_ID_HEADER]).sort()).toEqual(['a:1', 'a:2', 'b:1']);
  });

  it('forgets the attempt when the execute call throws at once', async () => {
    const { transport, sent } = recordingTransport();
    const signal = new AbortController().signal;
    expect(() =>
      withAttemptId('c:1', signal, () => {
        throw new Error('invalid input');
      }),
    ).toThrow('invalid input');
    await attemptTransport(transport, signal).send(request(signal));
    expect(sent[0]?.[ATTEMPT_ID_HEADER]).toBeUndefined();
  });
});
