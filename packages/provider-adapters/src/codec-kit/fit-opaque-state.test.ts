import { describe, expect, it } from 'vitest';
import type { ChatContentPartV4, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { fitOpaqueStateToTarget } from './fit-opaque-state.js';
import { createOpaqueStateSeal } from './opaque-state-seal.js';

const seal = createOpaqueStateSeal(new Uint8Array(32).fill(3));
const responses = 'openai-responses/v1';
const anthropic = 'anthropic-messages/v1';

function task(...assistant: ChatContentPartV4[]): TaskEnvelopeV4 {
  return {
    kind: 'chat',
    stream: false,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'a' }] },
      { role: 'assistant', content: assistant },
      { role: 'user', content: [{ type: 'text', text: 'b' }] },
    ],
  };
}

describe('fitOpaqueStateToTarget with compaction and stored reasoning parts', () => {
  it('keeps both, as the same objects, for the client dialect\'s own family', () => {
    const input = task({ type: 'compaction', data: 'enc', id: 'cmp_1' }, { type: 'reasoning', text: 's', storedItemId: 'rs_1' }, { type: 'text', text: 'x' });
    const fitted = fitOpaqueStateToTarget(input, { clientFamily: responses, targetFamily: responses, seal });
    expect(fitted).toEqual({ task: input, dropped: 0, droppedParts: [] });
    expect(fitted.task).toBe(input);
  });

  it('leaves both out for another family and names each part type once', () => {
    const input = task(
      { type: 'compaction', data: 'enc1' },
      { type: 'reasoning', text: 's', storedItemId: 'rs_1' },
      { type: 'compaction', data: 'enc2' },
      { type: 'text', text: 'x' },
    );
    const fitted = fitOpaqueStateToTarget(input, { clientFamily: responses, targetFamily: anthropic, seal });
    expect(fitted.dropped).toBe(3);
    expect(fitted.droppedParts).toEqual(['compaction', 'reasoning']);
    expect(fitted.task.kind === 'chat' && fitted.task.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'x' }] });
  });

  it('removes an assistant message left with no part', () => {
    const fitted = fitOpaqueStateToTarget(task({ type: 'compaction', data: 'enc' }), { clientFamily: responses, targetFamily: anthropic, seal });
    expect(fitted.task.kind === 'chat' && fitted.task.messages.map((message) => message.role)).toEqual(['user', 'user']);
  });

  it('a sealed compaction goes to the family it names, unwrapped, and an altered wrapper nowhere', () => {
    const wrapped = seal.seal(anthropic, 'summary');
    const toAnthropic = fitOpaqueStateToTarget(task({ type: 'compaction', data: wrapped }), { clientFamily: responses, targetFamily: anthropic, seal });
    expect(toAnthropic.task.kind === 'chat' && toAnthropic.task.messages[1]?.content).toEqual([{ type: 'compaction', data: 'summary' }]);
    const altered = `${wrapped.slice(0, -4)}AAAA`;
    expect(fitOpaqueStateToTarget(task({ type: 'compaction', data: altered }), { clientFamily: anthropic, targetFamily: anthropic, seal }).droppedParts).toEqual(['compaction']);
  });

  it('a stored reasoning id the host wrote itself is left out even for the same family', () => {
    const input = task({ type: 'reasoning', text: 's', storedItemId: 'rs_gw-1_0' }, { type: 'reasoning', text: 't', storedItemId: 'rs_provider' });
    const fitted = fitOpaqueStateToTarget(input, { clientFamily: responses, targetFamily: responses, seal, isHostItemId: (id) => id.startsWith('rs_gw-') });
    expect(fitted.droppedParts).toEqual(['reasoning']);
    expect(fitted.task.kind === 'chat' && fitted.task.messages[1]?.content).toEqual([{ type: 'reasoning', text: 't', storedItemId: 'rs_provider' }]);
  });
});
