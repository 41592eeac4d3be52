import type { ProviderAdapterExecutionV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import type { ProtocolEngineObservationV3 } from '../../contracts/v3/protocol-engine-observer-v3.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  SECRET_MODEL,
  SECRET_PROMPT,
  SECRET_PROVIDER,
  chatTask,
  completedChat,
  countingBinding,
  newSignal,
  registryOf,
  streamFactory,
  syncFactory,
  terminalPart,
  textBlock,
} from '../../test-support/fakes.js';
import { createProtocolEngineV1 } from '../v1/create-protocol-engine-v1.js';

const sending = (terminal: unknown) =>
  syncFactory(async (input) => {
    await input.transport.send({ method: 'POST', path: '/x', headers: {}, body: new Uint8Array() } as never);
    return { kind: 'response', acceptance: { state: 'accepted' }, responseMetadata: {}, terminal } as ProviderAdapterExecutionV1;
  });

function observed() {
  const seen: ProtocolEngineObservationV3[] = [];
  return { seen, observer: { onObservation: (observation: ProtocolEngineObservationV3) => seen.push(observation) } };
}

describe('observer.onObservation', () => {
  it('reports a sync execution in order with monotonic times, and no prompt, model or provider', async () => {
    const { seen, observer } = observed();
    const engine = createProtocolEngineV1({ registry: registryOf([sending(completedChat('hi'))]) });
    await engine.execute({ binding: countingBinding().binding, task: chatTask(), signal: newSignal(), observer });
    expect(seen.map((observation) => observation.type)).toEqual([
      'execution-dispatched',
      'transport-bound',
      'execution-finished',
    ]);
    expect(seen[0]).toMatchObject({ protocolFamily: 'fake-chat/v1', taskKind: 'chat', streamed: false });
    expect(seen[2]).toMatchObject({ status: 'completed', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } });
    for (let index = 1; index < seen.length; index += 1) expect(seen[index]!.atMs).toBeGreaterThanOrEqual(seen[index - 1]!.atMs);
    for (const secret of [SECRET_PROMPT, SECRET_MODEL, SECRET_PROVIDER]) expect(JSON.stringify(seen)).not.toContain(secret);
  });

  it('reports the failed attempt before the end of a failed execution', async () => {
    const { seen, observer } = observed();
    const engine = createProtocolEngineV1({ registry: registryOf([sending({ status: 'failed', failure: { code: 'rate-limited', retryable: true } })]) });
    await engine.execute({ binding: countingBinding().binding, task: chatTask(), signal: newSignal(), observer });
    expect(seen.slice(-2)).toMatchObject([
      { type: 'attempt-failed', code: 'rate-limited', retryable: true, acceptance: 'accepted' },
      { type: 'execution-finished', status: 'failed', failureCode: 'rate-limited' },
    ]);
  });

  it('reports the first event of a stream once, and the end when the terminal settles', async () => {
    const { seen, observer } = observed();
    const engine = createProtocolEngineV1({ registry: registryOf([streamFactory([...textBlock(0, 'a', 'b'), terminalPart(completedChat('ab'))])]) });
    const execution = await engine.execute({ binding: countingBinding().binding, task: chatTask({ stream: true }), signal: newSignal(), observer });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    expect(seen.map((observation) => observation.type)).toEqual(['execution-dispatched', 'transport-bound']);
    for await (const _event of execution.events) {
      // drained
    }
    await execution.terminal;
    await Promise.resolve();
    expect(seen.map((observation) => observation.type)).toEqual(['execution-dispatched', 'transport-bound', 'stream-started', 'execution-finished']);
  });

  it('reports an engine error as the end, and refuses observer members that are not functions', async () => {
    const { seen, observer } = observed();
    const engine = createProtocolEngineV1({ registry: registryOf([sending(completedChat())]) });
    await expect(engine.execute({ binding: countingBinding().binding, task: { kind: 'chat', messages: [] } as never, signal: newSignal(), observer })).rejects.toThrow();
    expect(seen).toMatchObject([{ type: 'execution-finished', status: 'error', failureCode: 'PROTOCOL_ENGINE_INPUT_INVALID' }]);
    const error = await engine
      .execute({ binding: countingBinding().binding, task: chatTask(), signal: newSignal(), observer: { onObservation: 'yes' } as never })
      .catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(error) && error.code).toBe('PROTOCOL_ENGINE_INPUT_INVALID');
  });

  it('survives an observer that throws', async () => {
    const engine = createProtocolEngineV1({ registry: registryOf([sending(completedChat())]) });
    const execution = await engine.execute({
      binding: countingBinding().binding,
      task: chatTask(),
      signal: newSignal(),
      observer: {
        onObservation: () => {
          throw new Error('observer bug');
        },
      },
    });
    expect(execution.kind === 'response' && execution.terminal.status).toBe('completed');
  });
});
