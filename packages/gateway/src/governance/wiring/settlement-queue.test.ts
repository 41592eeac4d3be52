import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { SettlementV1, SettleResultV1 } from '../v1/governance-store-v1.js';
import { SettlementQueue } from './settlement-queue.js';

const settlement = (attemptId: string): SettlementV1 =>
  ({ attemptId, requestId: 'r', attempt: 1, tenantId: 't', keyId: 'k', kind: 'actual', costMicros: 1 }) as unknown as SettlementV1;

describe('the settlement queue', () => {
  it('returns at once, retries a settlement the store could not take until it is settled, and drains', async () => {
    const answers: SettleResultV1['kind'][] = ['unavailable', 'unavailable', 'settled'];
    const seen: string[] = [];
    let threw = false;
    const queue = new SettlementQueue(
      {
        settle: async (taken) => {
          seen.push(taken.attemptId);
          if (!threw) {
            threw = true;
            throw new Error('connection refused');
          }
          return { kind: answers.shift() ?? 'settled' } as SettleResultV1;
        },
      },
      pino({ level: 'silent' }),
    );
    queue.push(settlement('r:1'));
    expect(queue.size).toBe(1);
    await queue.drain();
    expect(seen).toEqual(['r:1', 'r:1', 'r:1', 'r:1']);
    expect(queue.size).toBe(0);
  });

  it('a duplicate answer ends the retries (the attempt was settled before)', async () => {
    let calls = 0;
    const queue = new SettlementQueue({ settle: async () => ((calls += 1), { kind: 'duplicate' }) }, pino({ level: 'silent' }));
    queue.push(settlement('r:2'));
    await queue.drain();
    expect(calls).toBe(1);
  });

  it('calls the store only after the current turn: a response ended in that turn is on the socket first', async () => {
    const seen: { attemptId: string; responseEnded: boolean }[] = [];
    let ended = false;
    let clientBody = '';
    const queue = new SettlementQueue(
      {
        settle: async (taken) => {
          seen.push({ attemptId: taken.attemptId, responseEnded: ended });
          return { kind: 'settled' } as SettleResultV1;
        },
      },
      pino({ level: 'silent' }),
    );
    // As the pipeline does: the terminal settles the attempt, then the response is written in the same turn.
    const server = createServer((_request, response) => {
      queue.push(settlement('r:3'));
      response.end('done');
      ended = response.writableEnded;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      clientBody = await response.text();
      await queue.drain();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(clientBody).toBe('done');
    expect(seen).toEqual([{ attemptId: 'r:3', responseEnded: true }]);
  });
});
