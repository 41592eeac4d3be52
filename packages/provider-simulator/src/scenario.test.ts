import { describe, expect, it } from 'vitest';
import { parseSimulatorScenario } from './scenario.js';

describe('parseSimulatorScenario', () => {
  it.each([
    ['text', { kind: 'text', chunks: 3 }],
    ['text.2000', { kind: 'text', chunks: 2000 }],
    ['tool-call', { kind: 'tool-call' }],
    ['error.429', { kind: 'error', status: 429, retryAfterSeconds: undefined }],
    ['error.529.7', { kind: 'error', status: 529, retryAfterSeconds: 7 }],
    ['slow-first-byte.250', { kind: 'slow-first-byte', delayMs: 250 }],
    ['stall', { kind: 'stall', stallMs: undefined }],
    ['stall.40', { kind: 'stall', stallMs: 40 }],
    ['recorded.vercel-ai__anthropic-json-tool.1', { kind: 'recorded', name: 'vercel-ai__anthropic-json-tool.1' }],
    ['job.10.20', { kind: 'job', queuedMs: 10, runningMs: 20 }],
    ['job-fail', { kind: 'job-fail', queuedMs: undefined, runningMs: undefined }],
  ])('reads %s', (text, expected) => {
    expect(parseSimulatorScenario(text)).toEqual(expected);
  });

  it.each(['gpt-4.1-mini', 'text.0', 'text.x', 'error.200', 'error.429.x', 'tool-call.1', 'recorded.', 'recorded.a..b', 'job.10', 'stall.-1', ''])(
    'is not a scenario: %j',
    (text) => {
      expect(parseSimulatorScenario(text)).toBeUndefined();
    },
  );
});
