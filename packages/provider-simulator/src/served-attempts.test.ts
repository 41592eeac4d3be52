import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_ATTEMPT_ID_HEADER, startProviderSimulator, type ProviderSimulator, type SimulatorRequestRecord } from './start-provider-simulator.js';
import { send } from './test-support/simulator-client.js';

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator();
});
afterAll(async () => {
  await simulator.close();
});

const openAi = (attemptId?: string): Record<string, string> => ({
  authorization: `Bearer ${simulator.credentials.openAiApiKey}`,
  ...(attemptId === undefined ? {} : { [SIMULATOR_ATTEMPT_ID_HEADER]: attemptId }),
});

/** The record is pushed when the response closes, which may be just after the client read the body. */
async function recordOf(attemptId: string): Promise<readonly SimulatorRequestRecord[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const records = simulator.servedAttempts().get(attemptId);
    if (records !== undefined || Date.now() > deadline) return records ?? [];
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('usage served per attempt id', () => {
  it('a sync answer records the attempt id with the usage its body reported', async () => {
    const answer = await send(simulator, 'POST', '/v1/chat/completions', openAi('req-a:1'), { model: 'text.5', messages: [{ role: 'user', content: 'hello there' }] });
    expect(answer.status).toBe(200);
    const records = await recordOf('req-a:1');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ path: '/v1/chat/completions', status: 200, attemptId: 'req-a:1' });
    expect(records[0]?.usage).toEqual({
      inputTokens: answer.json.usage.prompt_tokens,
      outputTokens: answer.json.usage.completion_tokens,
      reasoningTokens: 0,
    });
    expect(records[0]?.usage?.outputTokens).toBe(5);
  });

  it('a stream read to its end records its usage; a truncated stream and an error record none', async () => {
    const stream = await send(simulator, 'POST', '/v1/messages', {
      'x-api-key': simulator.credentials.anthropicApiKey,
      'anthropic-version': '2023-06-01',
      [SIMULATOR_ATTEMPT_ID_HEADER]: 'req-b:1',
    }, { model: 'reasoning', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'think' }] });
    expect(stream.text).toContain('message_stop');
    expect((await recordOf('req-b:1'))[0]?.usage).toMatchObject({ outputTokens: 14, reasoningTokens: 6 });

    await send(simulator, 'POST', '/v1/chat/completions', openAi('req-c:1'), { model: 'truncated', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const cut = await recordOf('req-c:1');
    expect(cut).toHaveLength(1);
    expect(cut[0]?.usage).toBeUndefined();

    await send(simulator, 'POST', '/v1/chat/completions', openAi('req-d:1'), { model: 'error.429', messages: [{ role: 'user', content: 'hi' }] });
    expect(await recordOf('req-d:1')).toMatchObject([{ status: 429 }]);
    expect((await recordOf('req-d:1'))[0]?.usage).toBeUndefined();
  });

  it('keeps every request of a repeated attempt id, and requests without the header out of the map', async () => {
    const body = { model: 'text.2', messages: [{ role: 'user', content: 'hi' }] };
    await send(simulator, 'POST', '/v1/chat/completions', openAi('req-e:1'), body);
    await send(simulator, 'POST', '/v1/chat/completions', openAi('req-e:1'), body);
    await send(simulator, 'POST', '/v1/chat/completions', openAi(), body);
    const deadline = Date.now() + 5_000;
    while ((simulator.servedAttempts().get('req-e:1')?.length ?? 0) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(simulator.servedAttempts().get('req-e:1')).toHaveLength(2);
    expect([...simulator.servedAttempts().values()].flat().every((record) => record.attemptId !== undefined)).toBe(true);
    expect(simulator.requests.some((record) => record.attemptId === undefined && record.usage?.outputTokens === 2)).toBe(true);
  });
});
