import fc from 'fast-check';
import type { ChatOutputPartV1, NormalizedStreamEventV1, UsageV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createOpenAiChatStreamEncoder } from './encode-client-stream.js';
import { runStream } from './test-support/stream-harness.js';

// What the egress stream encoder writes must decode, with this family's own strict stream decoder, to the answer it
// was given: the same blocks in the same order, the same finish reason and usage.

type Block = Exclude<ChatOutputPartV1, { type: 'redacted-reasoning' }>;

const fragment = fc.string({ minLength: 1, maxLength: 12 });
const fragments = fc.array(fragment, { minLength: 1, maxLength: 4 });
const textBlock = fc.record({ type: fc.constantFrom('text' as const, 'reasoning' as const, 'refusal' as const), parts: fragments });
const toolBlock = fc.record({ type: fc.constant('tool-call' as const), name: fc.constantFrom('weather', 'time'), parts: fc.array(fragment, { maxLength: 4 }) });

const answer = fc
  .array(fc.oneof(textBlock, toolBlock), { minLength: 1, maxLength: 6 })
  // Two text-like blocks of the same kind in a row would read back as one block: the dialect has no block boundary.
  .filter((blocks) => blocks.every((block, index) => index === 0 || block.type === 'tool-call' || blocks[index - 1]?.type !== block.type));

const usage = fc.record({ inputTokens: fc.integer({ min: 0, max: 1000 }), outputTokens: fc.integer({ min: 0, max: 1000 }) });
const finish = fc.constantFrom('stop', 'length', 'tool-calls', 'content-filter') satisfies fc.Arbitrary<'stop' | 'length' | 'tool-calls' | 'content-filter'>;

describe('openai-chat egress stream reads back', () => {
  it('decodes what it encodes', async () => {
    await fc.assert(
      fc.asyncProperty(answer, usage, finish, async (blocks, reported, unified) => {
        const events: NormalizedStreamEventV1[] = [];
        const content: Block[] = [];
        blocks.forEach((block, index) => {
          if (block.type === 'tool-call') {
            const toolCallId = `call_${index}`;
            const argumentsText = block.parts.join('');
            events.push({ type: 'tool-call-start', index, toolCallId, toolName: block.name });
            for (const part of block.parts) events.push({ type: 'tool-call-delta', index, delta: part });
            events.push({ type: 'tool-call-end', index, argumentsText });
            content.push({ type: 'tool-call', toolCallId, toolName: block.name, argumentsText });
          } else {
            events.push({ type: `${block.type}-start`, index } as NormalizedStreamEventV1);
            for (const part of block.parts) events.push({ type: `${block.type}-delta`, index, delta: part } as NormalizedStreamEventV1);
            events.push({ type: `${block.type}-end`, index } as NormalizedStreamEventV1);
            content.push({ type: block.type, text: block.parts.join('') });
          }
        });
        const finalUsage: UsageV1 = { ...reported, totalTokens: reported.inputTokens + reported.outputTokens };
        events.push({ type: 'usage', usage: finalUsage });
        const hasToolCalls = content.some((part) => part.type === 'tool-call');
        const finishReason = { unified: hasToolCalls ? 'tool-calls' : unified } as const;
        const encoder = createOpenAiChatStreamEncoder({ responseId: 'r', modelLabel: 'm', createdAtMs: 0 });
        const decoder = new TextDecoder();
        let wire = '';
        for (const event of events) wire += decoder.decode(encoder.encodeEvent(event));
        wire += decoder.decode(encoder.encodeTerminal({ status: 'completed', result: { kind: 'chat', content }, finishReason, usage: finalUsage }));
        const reread = await runStream(wire);
        expect(reread.terminal).toMatchObject({
          status: 'completed',
          result: { kind: 'chat', content },
          finishReason: { unified: finishReason.unified },
          usage: finalUsage,
        });
      }),
      { numRuns: 200 },
    );
  });
});
