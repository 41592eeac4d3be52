import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GATEWAY_SHUTDOWN_REASON, isGatewayShutdown, requestDeadline } from './request-deadline.js';

describe('requestDeadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('aborts with a TimeoutError once the time is up, as AbortSignal.timeout does', () => {
    const client = new AbortController();
    const { signal } = requestDeadline(client.signal, 1000);
    vi.advanceTimersByTime(999);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
    client.abort(new Error('later'));
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('follows the client signal with its reason, also when it was aborted already', () => {
    const client = new AbortController();
    const { signal } = requestDeadline(client.signal, 1000);
    const reason = new Error('client went away');
    client.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    vi.advanceTimersByTime(5000);
    expect(signal.reason).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);

    const gone = new AbortController();
    gone.abort(reason);
    expect(requestDeadline(gone.signal, 1000).signal.reason).toBe(reason);
  });

  it('once disposed of, neither the timer nor the client aborts it, and no timer is left', () => {
    const client = new AbortController();
    const deadline = requestDeadline(client.signal, 1000);
    deadline.dispose();
    deadline.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    client.abort(new Error('after the end'));
    expect(deadline.signal.aborted).toBe(false);
  });

  it('aborts with the shutdown reason when the gateway’s shutdown signal fires, and not after it is disposed of', () => {
    const shutdown = new AbortController();
    const deadline = requestDeadline(new AbortController().signal, 1000, shutdown.signal);
    const finished = requestDeadline(new AbortController().signal, 1000, shutdown.signal);
    finished.dispose();
    shutdown.abort(GATEWAY_SHUTDOWN_REASON);
    expect(isGatewayShutdown(deadline.signal.reason)).toBe(true);
    expect(finished.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    expect(isGatewayShutdown(requestDeadline(new AbortController().signal, 1000, shutdown.signal).signal.reason)).toBe(true);
  });
});

describe('requestDeadline following a node:http response', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  class FakeResponse extends EventEmitter {
    writableFinished = false;
    destroyed = false;
  }

  it('aborts when the response closes before it finished, and not when it closes after', () => {
    const cut = new FakeResponse();
    const deadline = requestDeadline(cut, 1000);
    cut.destroyed = true;
    cut.emit('close');
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('AbortError');
    expect(vi.getTimerCount()).toBe(0);

    const answered = new FakeResponse();
    const finished = requestDeadline(answered, 1000);
    answered.writableFinished = true;
    answered.emit('close');
    expect(finished.signal.aborted).toBe(false);
    finished.dispose();
    expect(answered.listenerCount('close')).toBe(0);
  });

  it('is aborted at once for a response already closed unfinished, and leaves no listener once disposed of', () => {
    const gone = new FakeResponse();
    gone.destroyed = true;
    expect(requestDeadline(gone, 1000).signal.aborted).toBe(true);
    const open = new FakeResponse();
    const deadline = requestDeadline(open, 1000);
    expect(open.listenerCount('close')).toBe(1);
    deadline.dispose();
    expect(open.listenerCount('close')).toBe(0);
    open.emit('close');
    expect(deadline.signal.aborted).toBe(false);
  });
});
