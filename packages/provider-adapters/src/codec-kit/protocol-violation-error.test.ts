import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isProtocolViolationError, PROTOCOL_VIOLATION_REASONS, ProtocolViolationError } from './protocol-violation-error.js';

describe('ProtocolViolationError', () => {
  it('carries a stable reason and the message it was given', () => {
    const error = new ProtocolViolationError('usage-decreased', 'cumulative usage field outputTokens decreased');
    expect(error.reason).toBe('usage-decreased');
    expect(error.name).toBe('ProtocolViolationError');
    expect(isProtocolViolationError(error)).toBe(true);
    expect(PROTOCOL_VIOLATION_REASONS).toContain(error.reason);
  });

  it('is recognized across realms and package copies by its marker, not by instanceof', () => {
    const foreign: unknown = runInNewContext(
      `const error = new Error('x');
       Object.defineProperty(error, Symbol.for('tokenforge.provider-adapters.protocol-violation'), { value: true });
       error.reason = 'invalid-event';
       error`,
    );
    expect(foreign instanceof ProtocolViolationError).toBe(false);
    expect(isProtocolViolationError(foreign)).toBe(true);
  });

  it('rejects look-alikes without the marker or with an unknown reason, and never throws', () => {
    const marker = Symbol.for('tokenforge.provider-adapters.protocol-violation');
    expect(isProtocolViolationError({ reason: 'invalid-event' })).toBe(false);
    expect(isProtocolViolationError({ [marker]: true, reason: 'made-up' })).toBe(false);
    expect(isProtocolViolationError(null)).toBe(false);
    const hostile = new Proxy({}, { get: () => { throw new Error('trap'); } });
    expect(isProtocolViolationError(hostile)).toBe(false);
  });
});
