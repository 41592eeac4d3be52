import { CONTRACT_BOUNDS_V3, type ProviderReportedCostV3 } from '@tokenforge/model-protocol';

const CURRENCY = /^[A-Z]{3}$/;

/** Whether `value` is an ISO 4217 currency code as the contract writes it (three upper-case letters). */
export function isReportedCostCurrency(value: unknown): value is string {
  return typeof value === 'string' && CURRENCY.test(value);
}

/**
 * The cost a provider reported as a decimal amount of `currency` (for example `0.000123` USD), in the contract's
 * integer millionths, or `undefined` when there is no currency configured or the amount is absent, not a finite
 * non-negative number or beyond the contract bound. A cost only adds information: an unreadable one is left out
 * rather than failing the answer, and it is never computed from token counts.
 */
export function readReportedCost(amount: unknown, currency: string | undefined): ProviderReportedCostV3 | undefined {
  if (currency === undefined || typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return undefined;
  const amountMicros = Math.round(amount * 1_000_000);
  return amountMicros <= CONTRACT_BOUNDS_V3.costMicrosMax ? { amountMicros, currency } : undefined;
}

/** The `cost` member of a completed terminal: present only for a readable cost in a declared currency. */
export function reportedCostField(amount: unknown, currency: string | undefined): { readonly cost?: ProviderReportedCostV3 } {
  const cost = readReportedCost(amount, currency);
  return cost === undefined ? {} : { cost };
}
