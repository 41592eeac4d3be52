import { openEmbeddedGovernanceStore } from '../embedded-governance-store.js';

// A gateway process that admits one attempt and is then killed: `tsx admit-and-hang.ts <data directory>`.
const dataDirectory = process.argv[2] ?? '';
const store = openEmbeddedGovernanceStore({ dataDirectory, flushIntervalMs: 10 });
const tenant = await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: {}, disabled: false }, 'admin');
await store.admit({
  attemptId: 'r1:1',
  requestId: 'r1',
  attempt: 1,
  tenantId: 'acme',
  keyId: 'k1',
  publicModel: 'model-a',
  targetRef: 'model-a#0',
  provider: 'simulator',
  priceVersion: 'p-1',
  tenantLimits: tenant.value.limits,
  firstAttempt: true,
  reservedTokens: 900,
  reservedMicros: 4_000,
  currency: 'USD',
  deadlineMs: Date.now() + 60_000,
});
store.flush();
process.stdout.write('admitted\n');
setInterval(() => undefined, 1000);
