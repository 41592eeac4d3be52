import type { LedgerRowV1, SettlementV1 } from '../v1/governance-store-v1.js';

/** The outbox entry of a settlement: the ledger row without its day (derived when it is written). */
export function encodeSettlementRow(settlement: SettlementV1): string {
  // A spread with the field set to undefined (which JSON leaves out) copies faster than a rest pattern.
  return JSON.stringify({ ...settlement, releaseSlot: undefined });
}

/** UTC day `YYYY-MM-DD` of an epoch-milliseconds instant. */
export function utcDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

const STRING_FIELDS = ['attemptId', 'requestId', 'tenantId', 'keyId', 'publicModel', 'targetRef', 'provider', 'kind', 'currency', 'priceVersion', 'outcome'] as const;
const NUMBER_FIELDS = ['attempt', 'costMicros', 'reservedMicros', 'reservedTokens', 'usedTokens', 'startedAtMs', 'settledAtMs'] as const;
const KINDS = new Set(['actual', 'estimated', 'released', 'orphaned']);

/**
 * Reads one outbox entry (a settlement's row, or the sweep's `{orphanOf, costMicros, usedTokens, startedAtMs,
 * settledAtMs}`) back into a ledger row; `undefined` when the entry is not one (it is then kept in the dead-letter
 * stream, never dropped).
 */
export function decodeOutboxRow(text: string): LedgerRowV1 | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  let record = value as Record<string, unknown>;
  if (typeof record.orphanOf === 'object' && record.orphanOf !== null) {
    record = {
      ...(record.orphanOf as Record<string, unknown>),
      kind: 'orphaned',
      outcome: 'orphaned',
      overrun: false,
      costMicros: record.costMicros,
      usedTokens: record.usedTokens,
      startedAtMs: record.startedAtMs,
      settledAtMs: record.settledAtMs,
    };
  }
  for (const field of STRING_FIELDS) if (typeof record[field] !== 'string') return undefined;
  for (const field of NUMBER_FIELDS) if (typeof record[field] !== 'number' || !Number.isSafeInteger(record[field])) return undefined;
  if (typeof record.overrun !== 'boolean' || !KINDS.has(record.kind as string)) return undefined;
  return { ...(record as unknown as Omit<LedgerRowV1, 'day'>), day: utcDay(record.settledAtMs as number) };
}
