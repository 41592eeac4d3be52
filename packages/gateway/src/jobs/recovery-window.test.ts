import { describe, expect, it } from 'vitest';
import { recoveryWindow } from './recovery-window.js';

describe('recoveryWindow', () => {
  it('starts a second before the create, rounded down, and ends at least a second after the answer, rounded up', () => {
    const at = (text: string): number => Date.parse(text);
    expect(recoveryWindow(at('2026-12-07T13:00:00.400Z'), at('2026-12-07T13:00:00.980Z'))).toEqual({ from: '2026-12-07T12:59:59Z', to: '2026-12-07T13:00:02Z' });
    expect(recoveryWindow(at('2026-12-07T13:00:00.000Z'), at('2026-12-07T13:00:01.000Z'))).toEqual({ from: '2026-12-07T12:59:59Z', to: '2026-12-07T13:00:02Z' });
    for (let ms = 0; ms < 1000; ms += 7) {
      const answered = at('2026-12-07T13:00:05.000Z') + ms;
      const { from, to } = recoveryWindow(answered - 300, answered);
      expect(Date.parse(to) - answered).toBeGreaterThanOrEqual(1000);
      expect(answered - 300 - Date.parse(from)).toBeGreaterThanOrEqual(1000);
    }
  });
});
