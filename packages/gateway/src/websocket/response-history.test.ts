import { describe, expect, it } from 'vitest';
import { ConnectionResponseHistory } from './response-history.js';

const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const answer = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

describe('ConnectionResponseHistory', () => {
  it('expands the last response into its input, its output, then the new input', () => {
    const history = new ConnectionResponseHistory({ maxBytes: 1000, ttlMs: 1000 }, () => 0);
    history.remember({ id: 'r1', input: [user('a')], output: [answer('b')], bytes: 10 });
    expect(history.expand('r1', [user('c')])).toEqual({ kind: 'expanded', input: [user('a'), answer('b'), user('c')] });
  });

  it('keeps one response: the one before is not found once a newer one completed', () => {
    const history = new ConnectionResponseHistory({ maxBytes: 1000, ttlMs: 1000 }, () => 0);
    history.remember({ id: 'r1', input: [], output: [], bytes: 1 });
    history.remember({ id: 'r2', input: [], output: [], bytes: 1 });
    expect(history.expand('r1', [])).toEqual({ kind: 'not-found' });
    expect(history.expand('r2', []).kind).toBe('expanded');
  });

  it('forgets a response older than ttlMs, and keeps none over maxBytes', () => {
    let now = 0;
    const history = new ConnectionResponseHistory({ maxBytes: 100, ttlMs: 1000 }, () => now);
    history.remember({ id: 'r1', input: [], output: [], bytes: 100 });
    now = 1000;
    expect(history.latestId).toBe('r1');
    now = 1001;
    expect(history.expand('r1', [])).toEqual({ kind: 'not-found' });
    history.remember({ id: 'r2', input: [], output: [], bytes: 50 });
    history.remember({ id: 'r3', input: [], output: [], bytes: 101 });
    expect(history.latestId).toBeUndefined();
    expect(history.expand('r2', [])).toEqual({ kind: 'not-found' });
  });
});
