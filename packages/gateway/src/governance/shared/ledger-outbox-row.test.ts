import { describe, expect, it } from 'vitest';
import { admissionRequestV1, settlementV1 } from '../v1/test-support/governance-fixtures.js';
import { decodeOutboxRow, encodeSettlementRow, utcDay } from './ledger-outbox-row.js';

describe('the outbox entry of a settlement', () => {
  it('is the ledger row without releaseSlot, and reads back to it with its UTC day', () => {
    const settlement = { ...settlementV1(admissionRequestV1({ attemptId: 'r-1:1', requestId: 'r-1' })), releaseSlot: true };
    const text = encodeSettlementRow(settlement);
    expect(JSON.parse(text)).not.toHaveProperty('releaseSlot');
    const { releaseSlot: _releaseSlot, ...row } = settlement;
    expect(text).toBe(JSON.stringify(row));
    expect(decodeOutboxRow(text)).toEqual({ ...row, day: utcDay(settlement.settledAtMs) });
  });
});
