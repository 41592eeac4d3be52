import type { ProviderReportedCostV3, UsageV3 } from '@tokenforge/model-protocol';
import type { RuntimeTarget } from '../../runtime/resolve-catalogue.js';
import { computeCostV1 } from '../v1/compute-cost-v1.js';
import { DEFAULT_OUTPUT_TOKEN_CEILING_V1, DOCUMENT_INPUT_TOKEN_ALLOWANCE_V1, estimateReservationV1, IMAGE_INPUT_TOKEN_ALLOWANCE_V1, type ReservationTaskFactsV1 } from '../v1/estimate-reservation-v1.js';
import type { GovernanceRefusalCodeV1, LimitStatesV1, SettlementKindV1 } from '../v1/governance-store-v1.js';
import type { GatewayGovernance } from './gateway-governance.js';
import type { GovernanceIdentityV1 as GovernancePrincipal } from '../v1/governance-runtime-v1.js';

/** The price version a ledger row names when the target has no price (tokens are metered, nothing is charged). */
export const UNPRICED_VERSION = 'unpriced';

/** What one attempt's end tells its settlement. */
export interface AttemptEnding {
  /** Whether the request reached the provider (false: refused at input, connection failure). */
  readonly reachedProvider: boolean;
  /** Whether the provider served it (false: it answered with an error before serving anything). */
  readonly served: boolean;
  readonly usage?: UsageV3 | undefined;
  readonly upstreamCost?: ProviderReportedCostV3 | undefined;
  /** `completed`, `failed:<code>`, `cancelled`, ... */
  readonly outcome: string;
}

/** One admitted attempt: settled once, in the background. */
export interface AttemptMeter {
  readonly attemptId: string;
  /** Settles the attempt (only the first call counts); `releaseSlot` on the request's last attempt. */
  settle(ending: AttemptEnding, releaseSlot: boolean): void;
}

/** An attempt's admission. */
export type MeteredAdmission =
  | { readonly kind: 'admitted'; readonly meter: AttemptMeter | undefined }
  | { readonly kind: 'refused'; readonly code: GovernanceRefusalCodeV1 | 'governance-unavailable'; readonly retryAfterMs?: number | undefined };

/** The tenant's request and token windows of the latest admission (for the dialect's rate-limit headers). */
export interface MeteringState {
  limits: LimitStatesV1 | undefined;
}

function holdsLimits(principal: GovernancePrincipal): boolean {
  const all = [principal.tenant.limits, principal.key.limits ?? {}];
  return all.some((limits) => Object.values(limits).some((value) => value !== undefined));
}

/**
 * The governance of one request: each attempt (fallbacks and retries too) reserves before it is sent, at the highest
 * price among the model's targets; the first also counts the request and takes the tenant's concurrency slot. Each
 * attempt settles once: the actual cost from its usage, its reservation when usage never came (`estimated`), nothing
 * when it never reached a provider (`released`).
 */
export class RequestMetering {
  readonly state: MeteringState = { limits: undefined };
  /** Whether the tenant or key holds any limit (its rate-limit headers then replace the provider's). */
  readonly limited: boolean;
  #attempt = 0;
  readonly #reservedTokens: number;
  readonly #reservedMicros: number;
  readonly #currency: string;
  readonly #reservationVersion: string;

  constructor(
    private readonly governance: GatewayGovernance,
    private readonly principal: GovernancePrincipal,
    private readonly requestId: string,
    private readonly publicModel: string,
    targets: readonly RuntimeTarget[],
    facts: ReservationTaskFactsV1,
    private readonly deadlineMs: number,
    private readonly now: () => number,
  ) {
    this.limited = holdsLimits(principal);
    const priced = targets.flatMap((target) => (target.price === undefined ? [] : [{ price: target.price }]));
    const estimate = priced.length === 0 ? undefined : estimateReservationV1(facts, priced);
    const inputBound = facts.requestBytes + facts.inputImages * IMAGE_INPUT_TOKEN_ALLOWANCE_V1 + facts.inputDocuments * DOCUMENT_INPUT_TOKEN_ALLOWANCE_V1;
    this.#reservedTokens = estimate?.reservedTokens ?? inputBound + (facts.maxOutputTokens ?? DEFAULT_OUTPUT_TOKEN_CEILING_V1);
    this.#reservedMicros = estimate?.reservedMicros ?? 0;
    this.#currency = estimate?.currency ?? principal.key.limits?.budget?.currency ?? principal.tenant.limits.budget?.currency ?? 'USD';
    this.#reservationVersion = estimate?.priceVersion ?? UNPRICED_VERSION;
  }

  /** Money each attempt reserves, in micro-units of {@link RequestMetering.currency}. */
  get reservedMicros(): number {
    return this.#reservedMicros;
  }

  /** The currency of the reservation (the model's price tables'). */
  get currency(): string {
    return this.#currency;
  }

  /** Admits the next attempt, on `target`. */
  async admit(target: RuntimeTarget): Promise<MeteredAdmission> {
    this.#attempt += 1;
    const attempt = this.#attempt;
    const attemptId = `${this.requestId}:${attempt}`;
    const { tenant, key } = this.principal;
    const admission = await this.governance.admit({
      attemptId,
      requestId: this.requestId,
      attempt,
      tenantId: tenant.id,
      keyId: key.id,
      publicModel: this.publicModel,
      targetRef: target.ref,
      provider: target.provider,
      priceVersion: this.#reservationVersion,
      tenantLimits: tenant.limits,
      ...(key.limits === undefined ? {} : { keyLimits: key.limits }),
      firstAttempt: attempt === 1,
      reservedTokens: this.#reservedTokens,
      reservedMicros: this.#reservedMicros,
      currency: this.#currency,
      deadlineMs: this.deadlineMs,
    });
    switch (admission.kind) {
      case 'refused':
        this.state.limits = admission.limits;
        // A slot frees when a request ends: the store names no time, the client is told to try again in a second.
        return { kind: 'refused', code: admission.code, retryAfterMs: admission.retryAfterMs ?? (admission.code === 'tenant-concurrency-limit' ? 1000 : undefined) };
      case 'unavailable':
        return { kind: 'refused', code: 'governance-unavailable', retryAfterMs: 1000 };
      case 'unmetered':
        return { kind: 'admitted', meter: undefined };
      case 'admitted':
        this.state.limits = admission.limits;
        return { kind: 'admitted', meter: this.#meter(attempt, attemptId, target) };
      default: {
        const never: never = admission;
        return never;
      }
    }
  }

  #meter(attempt: number, attemptId: string, target: RuntimeTarget): AttemptMeter {
    const startedAtMs = this.now();
    let settled = false;
    return {
      attemptId,
      settle: (ending, releaseSlot) => {
        if (settled) return;
        settled = true;
        const { kind, costMicros, usedTokens, priceVersion } = this.#charge(ending, target);
        this.governance.settle({
          attemptId,
          requestId: this.requestId,
          attempt,
          tenantId: this.principal.tenant.id,
          keyId: this.principal.key.id,
          publicModel: this.publicModel,
          targetRef: target.ref,
          provider: target.provider,
          kind,
          ...(ending.usage === undefined ? {} : { usage: ending.usage }),
          costMicros,
          currency: this.#currency,
          ...(ending.upstreamCost === undefined ? {} : { upstreamCost: ending.upstreamCost }),
          priceVersion,
          reservedMicros: this.#reservedMicros,
          reservedTokens: this.#reservedTokens,
          usedTokens,
          overrun: costMicros > this.#reservedMicros,
          outcome: ending.outcome,
          releaseSlot,
          startedAtMs,
          settledAtMs: this.now(),
        });
      },
    };
  }

  #charge(ending: AttemptEnding, target: RuntimeTarget): { kind: SettlementKindV1; costMicros: number; usedTokens: number; priceVersion: string } {
    if (!ending.reachedProvider || (!ending.served && ending.usage === undefined)) {
      return { kind: 'released', costMicros: 0, usedTokens: 0, priceVersion: this.#reservationVersion };
    }
    const usage = ending.usage;
    const usedTokens = usage?.inputTokens !== undefined || usage?.outputTokens !== undefined ? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) : undefined;
    if (target.price === undefined) {
      return usedTokens === undefined
        ? { kind: 'estimated', costMicros: 0, usedTokens: this.#reservedTokens, priceVersion: UNPRICED_VERSION }
        : { kind: 'actual', costMicros: 0, usedTokens, priceVersion: UNPRICED_VERSION };
    }
    const cost = computeCostV1(usage, target.price);
    if (cost === undefined) return { kind: 'estimated', costMicros: this.#reservedMicros, usedTokens: this.#reservedTokens, priceVersion: this.#reservationVersion };
    return { kind: 'actual', costMicros: cost.costMicros, usedTokens: usedTokens ?? 0, priceVersion: target.price.version };
  }
}
