import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onceAborted } from './shared-abort-listener.js';

describe('onceAborted', () => {
  it('puts one listener on the signal however many callbacks are linked to it', () => {
    const controller = new AbortController();
    const calls: number[] = [];
    for (let position = 0; position < 50; position += 1) onceAborted(controller.signal, () => calls.push(position));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect(calls).toEqual([...Array(50).keys()]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('runs each callback once, and never one that was unregistered', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const unlinkFirst = onceAborted(controller.signal, () => calls.push('first'));
    onceAborted(controller.signal, () => calls.push('second'));
    unlinkFirst();
    unlinkFirst();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['second']);
  });

  it('treats the same callback linked twice as two registrations', () => {
    const controller = new AbortController();
    let calls = 0;
    const callback = (): void => {
      calls += 1;
    };
    const unlink = onceAborted(controller.signal, callback);
    onceAborted(controller.signal, callback);
    unlink();
    controller.abort();
    expect(calls).toBe(1);
  });

  it('keeps nothing per registration once unregistered: a long-lived signal does not grow', () => {
    const controller = new AbortController();
    for (let position = 0; position < 10_000; position += 1) onceAborted(controller.signal, () => undefined)();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    let called = false;
    onceAborted(controller.signal, () => {
      called = true;
    });
    controller.abort();
    expect(called).toBe(true);
  });

  it('links callbacks to a signal that aborted and a fresh one independently', () => {
    const first = new AbortController();
    const second = new AbortController();
    const calls: string[] = [];
    onceAborted(first.signal, () => calls.push('first'));
    onceAborted(second.signal, () => calls.push('second'));
    first.abort();
    expect(calls).toEqual(['first']);
    second.abort();
    expect(calls).toEqual(['first', 'second']);
  });
});
