import fc from 'fast-check';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { describe, expect, it } from 'vitest';
import { convertDashScopeEpochMs, convertDashScopeNaiveTime, formatDashScopeFilterTime } from './convert-timestamps.js';

describe('DashScope time conversion', () => {
  it('reads naive UTC+8 strings (fact sheet edge case 3) with 0 to 3 fraction digits', () => {
    expect(convertDashScopeNaiveTime('2025-07-27 21:05:15.212', 'p')).toBe('2025-07-27T13:05:15.212Z');
    expect(convertDashScopeNaiveTime('2024-01-01 03:00:00', 'p')).toBe('2023-12-31T19:00:00.000Z');
    expect(convertDashScopeNaiveTime('2024-03-01 17:38:24.8', 'p')).toBe('2024-03-01T09:38:24.800Z');
  });

  it.each(['2024-13-01 00:00:00', '2024-02-30 00:00:00', '2024-03-01 24:00:00', '2024-03-01T17:38:24', ' 2024-03-01 17:38:24', '2024-03-01 17:38:24.1234', '1969-12-31 23:00:00', ''])(
    'refuses %j',
    (text) => {
      expect(() => convertDashScopeNaiveTime(text, 'p')).toThrow(expect.objectContaining({ reason: 'invalid-event' }));
    },
  );

  it('epoch milliseconds: in range only', () => {
    expect(convertDashScopeEpochMs(1709260684485, 'p')).toBe('2024-03-01T02:38:04.485Z');
    for (const bad of [-1, 1.5, 253_402_300_800_000]) expect(() => convertDashScopeEpochMs(bad, 'p')).toThrow();
  });

  it('formats filter times in compact UTC+8, widening to whole seconds', () => {
    expect(formatDashScopeFilterTime('2024-03-01T02:38:04.500Z', 'down')).toBe('20240301103804');
    expect(formatDashScopeFilterTime('2024-03-01T02:38:04.500Z', 'up')).toBe('20240301103805');
    expect(formatDashScopeFilterTime('2024-03-01T02:38:04.000Z', 'up')).toBe('20240301103804');
  });

  it('property: every instant survives formatting as naive UTC+8 and reading back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 - 8 * 3_600_000 }), (epochMs) => {
        const wallClock = new Date(epochMs + 8 * 3_600_000).toISOString().replace('T', ' ').replace('Z', '');
        expect(convertDashScopeNaiveTime(wallClock, 'p')).toBe(new Date(epochMs).toISOString());
      }),
    );
  });

  it('property: any string is either read or refused with a protocol violation, never another error', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          expect(convertDashScopeNaiveTime(text, 'p')).toMatch(/Z$/);
        } catch (error) {
          expect(isProtocolViolationError(error)).toBe(true);
        }
      }),
    );
  });
});
