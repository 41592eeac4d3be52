import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, framedFixture, runStream, splitBytes, sse } from './test-support/stream-harness.js';

const encoder = new TextEncoder();
const RECORDED = [
  'vercel-ai__openai-text.chunks.txt',
  'vercel-ai__azure-model-router.1.chunks.txt',
  'vercel-ai__deepseek-tool-call.chunks.txt',
  'vercel-ai__alibaba-tool-call.chunks.txt',
];

describe('openai-chat stream properties', () => {
  it.each(RECORDED)('gives the same events and terminal for any split of %s', async (name) => {
    const bytes = encoder.encode(framedFixture(name));
    const whole = await runStream([bytes]);
    expect(whole.terminal.status).toBe('completed');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.byteLength - 1 }), { maxLength: 40 }), async (cuts) => {
        const split = await runStream(splitBytes(bytes, cuts));
        expect(split.parts).toEqual(whole.parts);
      }),
      { numRuns: 60 },
    );
  });

  it('gives the same text for any split inside multi-byte characters', async () => {
    const text = 'é中😀 naïve ünïcödé 𝄞';
    const bytes = encoder.encode(sse([chunk({ content: text }), chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: `{"t":"${text}"}` } }] }), chunk({}, 'stop')]));
    const whole = await runStream([bytes]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.byteLength - 1 }), { maxLength: 60 }), async (cuts) => {
        expect((await runStream(splitBytes(bytes, cuts))).parts).toEqual(whole.parts);
      }),
      { numRuns: 100 },
    );
    expect(whole.terminal).toMatchObject({ result: { content: [{ type: 'text', text }, { type: 'tool-call', argumentsText: `{"t":"${text}"}` }] } });
  });

  const hostileChunk = fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.string(),
    fc.record({
      choices: fc.oneof(
        fc.constant(null),
        fc.array(
          fc.record(
            {
              index: fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constant('0'), fc.constant(null)),
              delta: fc.oneof(
                fc.constant(null),
                fc.record(
                  {
                    role: fc.constantFrom('assistant', '', 'user', 7),
                    content: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
                    refusal: fc.oneof(fc.string(), fc.constant(null)),
                    reasoning_content: fc.oneof(fc.string(), fc.constant(null)),
                    tool_calls: fc.array(
                      fc.record(
                        {
                          index: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant(null)),
                          id: fc.oneof(fc.constantFrom('', 'a', 'b'), fc.constant(null)),
                          type: fc.constantFrom('function', 'custom', ''),
                          function: fc.record({ name: fc.oneof(fc.constantFrom('f', 'g', ''), fc.integer()), arguments: fc.oneof(fc.string(), fc.constant(null), fc.object()) }, { requiredKeys: [] }),
                        },
                        { requiredKeys: [] },
                      ),
                      { maxLength: 3 },
                    ),
                  },
                  { requiredKeys: [] },
                ),
              ),
              finish_reason: fc.oneof(fc.constant(null), fc.constantFrom('stop', 'length', 'tool_calls', 'error', 'weird', 'insufficient_system_resource')),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      ),
      usage: fc.oneof(
        fc.constant(null),
        fc.record({ prompt_tokens: fc.integer({ min: -1, max: 50 }), completion_tokens: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.double()) }, { requiredKeys: [] }),
      ),
      error: fc.oneof(fc.constant(undefined), fc.constant(null), fc.record({ message: fc.string(), code: fc.oneof(fc.integer(), fc.string()) }, { requiredKeys: [] })),
    }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  );

  it('ends any sequence of hostile chunks with exactly one typed terminal, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileChunk, { maxLength: 8 }), fc.boolean(), async (chunks, done) => {
        const { terminal, events } = await runStream(sse(chunks, done));
        expect(['completed', 'failed']).toContain(terminal.status);
        for (const event of events) expect(typeof event.type).toBe('string');
        if (terminal.status === 'failed') {
          expect(['protocol-violation', 'truncated-stream', 'unsupported', 'provider-error', 'overloaded', 'rate-limited', 'quota-exceeded', 'authentication', 'permission-denied', 'not-found', 'invalid-request', 'timeout', 'conflict', 'content-filtered', 'context-length-exceeded']).toContain(terminal.failure.code);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('ends random bytes with one typed terminal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 6 }), async (reads) => {
        const { terminal } = await runStream(reads);
        expect(terminal.status).toBe('failed');
      }),
      { numRuns: 200 },
    );
  });
});
