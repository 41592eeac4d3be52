/** The admin API's shapes the console reads (see the gateway's `gateway-admin-api-v1.schema.json`). */
export interface Budget {
  readonly amountMicros: number;
  readonly currency: string;
  readonly period: 'day' | 'month' | 'total';
}

export interface Limits {
  readonly requestsPerMinute?: number;
  readonly tokensPerMinute?: number;
  readonly concurrentRequests?: number;
  readonly budget?: Budget;
}

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly modelAccess: readonly string[];
  readonly limits: Limits;
  readonly createdAtMs: number;
  readonly disabled: boolean;
}

export interface Key {
  readonly id: string;
  readonly tenantId: string;
  readonly displayPrefix: string;
  readonly createdAtMs: number;
  readonly expiresAtMs?: number;
  readonly revokedAtMs?: number;
  readonly modelAccess?: readonly string[];
  readonly limits?: Limits;
}

export interface LimitUse {
  readonly tenantId: string;
  readonly requestsLastMinute: number;
  readonly tokensLastMinute: number;
  readonly inFlight: number;
  readonly budgetSpentMicros: number;
  readonly budgetReservedMicros: number;
}

export interface SpendGroup {
  readonly tenantId?: string;
  readonly keyId?: string;
  readonly publicModel?: string;
  readonly day?: string;
  readonly currency: string;
  readonly costMicros: number;
  readonly attempts: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface RequestRecord {
  readonly requestId: string;
  readonly tenantId?: string;
  readonly keyId?: string;
  readonly route: string;
  readonly publicModel?: string;
  readonly status: number;
  readonly outcome: string;
  readonly attempts: readonly { readonly targetRef: string; readonly provider: string; readonly outcome: string }[];
  readonly totalMs: number;
  readonly timeToFirstByteMs?: number;
  readonly atMs: number;
}

export interface TrackedJob {
  readonly tenantId: string;
  readonly keyId: string;
  readonly publicModel: string;
  readonly targetRef: string;
  readonly providerJobId: string;
  readonly reservedMicros: number;
  readonly currency: string;
  readonly createdAtMs: number;
  readonly state: string;
  readonly settledAtMs?: number;
}

/** One target as `/admin/v1/targets` lists it; health fields appear when the gateway reports them. */
export type TargetView = { readonly ref: string } & Readonly<Record<string, unknown>>;
