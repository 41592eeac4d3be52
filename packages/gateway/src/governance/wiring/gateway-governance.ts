import type { Logger } from 'pino';
import { hashClientKeyV1 } from '../v1/client-key-v1.js';
import type { AdmissionRequestV1, AdmissionResultV1, GovernanceStoreV1, SettlementV1 } from '../v1/governance-store-v1.js';
import { createGovernanceRuntimeV1, type AuthenticationResultV1, type GovernanceIdentityV1, type GovernanceRuntimeV1 } from '../v1/governance-runtime-v1.js';
import { failsOpen, type GovernanceFailOpenV1 } from './governance-fail-open-v1.js';
import { SettlementQueue } from './settlement-queue.js';

/** Options of {@link GatewayGovernance}. */
export interface GatewayGovernanceOptions {
  readonly store: GovernanceStoreV1;
  /** The secret client keys are hashed under (HMAC-SHA256). */
  readonly keyHashingSecret: string;
  /** The key of `/admin/v1`. */
  readonly adminKey: string;
  readonly failOpen: GovernanceFailOpenV1;
  readonly logger: Logger;
  /** How often the governance version is polled, in milliseconds (default 1000). */
  readonly pollIntervalMs?: number;
  /** How often reservations past their deadline (their instance died) are swept as orphaned, in ms (default 30 s). */
  readonly sweepIntervalMs?: number;
  /** Clock in epoch milliseconds (key expiry). */
  readonly now: () => number;
}

/** What an attempt's admission came to, after the fail-open policy. */
export type AttemptAdmission = AdmissionResultV1 | { readonly kind: 'unmetered' };

/**
 * Governance as one gateway process holds it: the store, the governance runtime (the snapshot of the current
 * governance version, polled and reloaded when it changes, so no store read is on a request's path to
 * authenticate), the fail-open policy, the background settlement queue and a periodic orphan sweep (reservations of
 * an instance that died are settled as `orphaned` once their deadline passed; the store makes it exactly once).
 */
export class GatewayGovernance {
  readonly store: GovernanceStoreV1;
  readonly adminKey: string;
  readonly settlements: SettlementQueue;
  readonly #runtime: GovernanceRuntimeV1;
  #sweeper: NodeJS.Timeout | undefined;

  private constructor(private readonly options: GatewayGovernanceOptions) {
    this.store = options.store;
    this.adminKey = options.adminKey;
    this.settlements = new SettlementQueue(options.store, options.logger);
    this.#runtime = createGovernanceRuntimeV1({
      store: options.store,
      keyHashingSecret: options.keyHashingSecret,
      clock: options.now,
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
      onReloadError: () => options.logger.warn('governance snapshot reload failed; the applied version is kept'),
    });
  }

  /** Loads the first snapshot and starts polling the governance version. */
  static async start(options: GatewayGovernanceOptions): Promise<GatewayGovernance> {
    const governance = new GatewayGovernance(options);
    await governance.#runtime.start();
    governance.#sweeper = setInterval(() => {
      options.store.sweepOrphans(options.now()).catch(() => options.logger.warn('governance orphan sweep failed; the next one retries'));
    }, options.sweepIntervalMs ?? 30_000);
    governance.#sweeper.unref();
    return governance;
  }

  /** The governance version this process has applied. */
  get appliedVersion(): number {
    return this.#runtime.appliedVersion();
  }

  /** Applies the store's newest version now (after an admin change made on this instance). */
  refresh(): Promise<void> {
    return this.#runtime.refresh();
  }

  /** The tenant and key a presented key belongs to (its HMAC digest looked up in the applied snapshot). */
  authenticate(presented: string | undefined): AuthenticationResultV1 {
    if (presented === undefined || presented.length === 0) return { kind: 'refused', reason: 'unknown-key' };
    return this.#runtime.authenticate(presented);
  }

  /** Whether `identity` may use `publicModel` (the tenant's model access, narrowed by the key's). */
  mayUseModel(identity: GovernanceIdentityV1, publicModel: string): boolean {
    return this.#runtime.mayUseModel(identity, publicModel);
  }

  /** The keyed digest of a client key (for keys the gateway creates). */
  digestOf(key: string): string {
    return hashClientKeyV1(key, this.options.keyHashingSecret);
  }

  /** One attempt's admission; an unreachable store is let through only where the fail-open policy says so. */
  async admit(request: AdmissionRequestV1): Promise<AttemptAdmission> {
    let result: AdmissionResultV1;
    try {
      result = await this.store.admit(request);
    } catch {
      result = { kind: 'unavailable' };
    }
    if (result.kind === 'unavailable' && failsOpen(this.options.failOpen, request.tenantLimits, request.keyLimits)) return { kind: 'unmetered' };
    return result;
  }

  /** Queues an attempt's settlement (never awaited by the response path). */
  settle(settlement: SettlementV1): void {
    this.settlements.push(settlement);
  }

  /** Stops polling, waits for queued settlements, closes the store. */
  async close(): Promise<void> {
    this.#runtime.stop();
    clearInterval(this.#sweeper);
    this.settlements.close();
    await this.settlements.drain();
    await this.store.close();
  }
}
