import { admissionRequestV1 } from '../../v1/test-support/governance-fixtures.js';
import { openEmbeddedGovernanceStore } from '../embedded-governance-store.js';

// A gateway process that admits one attempt and is then killed: `tsx admit-and-hang.ts <data directory>`.
const dataDirectory = process.argv[2] ?? '';
const store = openEmbeddedGovernanceStore({ dataDirectory, flushIntervalMs: 10 });
const tenant = await store.admin.createTenant({ id: 'acme', name: 'Acme', modelAccess: ['*'], limits: {}, disabled: false }, 'admin');
await store.admit(
  admissionRequestV1({ requestId: 'r1', keyId: 'k1', priceVersion: 'p-1', tenantLimits: tenant.value.limits, reservedTokens: 900, reservedMicros: 4_000 }),
);
store.flush();
process.stdout.write('admitted\n');
setInterval(() => undefined, 1000);
