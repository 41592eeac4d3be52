import { describe, expect, it } from 'vitest';
import type { RuntimeTarget } from '../../runtime/resolve-catalogue.js';
import { parsePriceTableV1 } from '../v1/price-table-v1.js';
import type { AdmissionRequestV1, AdmissionResultV1, SettlementV1, TenantRecordV1, ClientKeyRecordV1 } from '../v1/governance-store-v1.js';
import type { AttemptAdmission, GatewayGovernance } from './gateway-governance.js';
import { RequestMetering, UNPRICED_VERSION } from './request-metering.js';

const cheap = parsePriceTableV1({ currency: 'USD', version: 'cheap', inputPerMillion: '1', outputPerMillion: '2' });
const dear = parsePriceTableV1({ currency: 'USD', version: 'dear', inputPerMillion: '10', outputPerMillion: '20' });
const target = (ref: string, price: typeof cheap | null = cheap) => ({ ref, provider: 'p', ...(price === null ? {} : { price }) }) as unknown as RuntimeTarget;
const tenant: TenantRecordV1 = { id: 't', name: 't', modelAccess: ['*'], limits: { requestsPerMinute: 5 }, createdAtMs: 0, disabled: false };
const key: ClientKeyRecordV1 = { id: 'k', tenantId: 't', digest: 'd', displayPrefix: 'tf-x', createdAtMs: 0 };

function fakeGovernance(answers: AttemptAdmission[]) {
  const admitted: AdmissionRequestV1[] = [];
  const settled: SettlementV1[] = [];
  const governance = {
    admit: async (request: AdmissionRequestV1) => (admitted.push(request), answers.shift() ?? ({ kind: 'admitted', limits: {} } as AdmissionResultV1)),
    settle: (settlement: SettlementV1) => void settled.push(settlement),
  } as unknown as GatewayGovernance;
  return { governance, admitted, settled };
}

const metering = (governance: GatewayGovernance, targets: readonly RuntimeTarget[]) =>
  new RequestMetering(governance, { tenant, key }, 'req', 'model', targets, { requestBytes: 100, inputImages: 0, inputDocuments: 0, maxOutputTokens: 50 }, 9_999, () => 1_000);

describe('the metering of one request', () => {
  it('reserves every attempt at the dearest target; only the first counts the request; attempt ids follow the attempts', async () => {
    const { governance, admitted } = fakeGovernance([]);
    const request = metering(governance, [target('m#0', cheap), target('m#1', dear)]);
    await request.admit(target('m#0', cheap));
    await request.admit(target('m#1', dear));
    expect(admitted.map((entry) => [entry.attemptId, entry.firstAttempt, entry.targetRef, entry.reservedMicros, entry.reservedTokens, entry.priceVersion])).toEqual([
      ['req:1', true, 'm#0', 2_000, 150, 'dear'],
      ['req:2', false, 'm#1', 2_000, 150, 'dear'],
    ]);
    expect(admitted[0]).toEqual(expect.objectContaining({ tenantId: 't', keyId: 'k', tenantLimits: { requestsPerMinute: 5 }, deadlineMs: 9_999, currency: 'USD' }));
  });

  it('settles once per attempt: actual at the answering target’s price, estimated without usage, released when nothing reached a provider', async () => {
    const { governance, settled } = fakeGovernance([]);
    const request = metering(governance, [target('m#0', cheap), target('m#1', dear)]);
    const first = await request.admit(target('m#0', cheap));
    const second = await request.admit(target('m#1', dear));
    const third = await request.admit(target('m#0', cheap));
    if (first.kind !== 'admitted' || second.kind !== 'admitted' || third.kind !== 'admitted') throw new Error('not admitted');
    first.meter?.settle({ reachedProvider: false, served: false, outcome: 'failed:network' }, false);
    first.meter?.settle({ reachedProvider: true, served: true, usage: { inputTokens: 1, outputTokens: 1 }, outcome: 'completed' }, true);
    second.meter?.settle({ reachedProvider: true, served: true, outcome: 'cancelled' }, false);
    third.meter?.settle({ reachedProvider: true, served: true, usage: { inputTokens: 10, outputTokens: 5 }, outcome: 'completed' }, true);
    expect(settled.map((row) => [row.attemptId, row.kind, row.costMicros, row.priceVersion, row.releaseSlot, row.overrun])).toEqual([
      ['req:1', 'released', 0, 'dear', false, false],
      ['req:2', 'estimated', 2_000, 'dear', false, false],
      ['req:3', 'actual', 20, 'cheap', true, false],
    ]);
    expect(settled[2]).toEqual(expect.objectContaining({ usedTokens: 15, reservedMicros: 2_000, startedAtMs: 1_000, settledAtMs: 1_000 }));
  });

  it('a target without a price meters tokens and charges nothing', async () => {
    const { governance, admitted, settled } = fakeGovernance([]);
    const request = metering(governance, [target('m#0', null)]);
    const admission = await request.admit(target('m#0', null));
    if (admission.kind !== 'admitted') throw new Error('not admitted');
    admission.meter?.settle({ reachedProvider: true, served: true, usage: { inputTokens: 3, outputTokens: 4 }, outcome: 'completed' }, true);
    expect(admitted[0]).toEqual(expect.objectContaining({ reservedMicros: 0, reservedTokens: 150, priceVersion: UNPRICED_VERSION }));
    expect(settled[0]).toEqual(expect.objectContaining({ kind: 'actual', costMicros: 0, usedTokens: 7 }));
  });

  it('a refusal names its code; an unreachable store is governance-unavailable; a concurrency refusal waits a second; unmetered admits without a meter', async () => {
    const { governance } = fakeGovernance([
      { kind: 'refused', code: 'tenant-budget-exhausted', scope: 'tenant', limits: {} },
      { kind: 'refused', code: 'tenant-concurrency-limit', scope: 'key', limits: {} },
      { kind: 'unavailable' },
      { kind: 'unmetered' },
    ]);
    const request = metering(governance, [target('m#0')]);
    expect(await request.admit(target('m#0'))).toEqual({ kind: 'refused', code: 'tenant-budget-exhausted', retryAfterMs: undefined });
    expect(await request.admit(target('m#0'))).toEqual({ kind: 'refused', code: 'tenant-concurrency-limit', retryAfterMs: 1000 });
    expect(await request.admit(target('m#0'))).toEqual({ kind: 'refused', code: 'governance-unavailable', retryAfterMs: 1000 });
    expect(await request.admit(target('m#0'))).toEqual({ kind: 'admitted', meter: undefined });
  });
});
