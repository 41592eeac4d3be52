import type { EgressFailureV3 } from '@tokenforge/model-protocol';
import type { GovernanceRefusalCode } from '../governance/wiring/governance-refusal-response.js';

/**
 * Why the gateway answers a request itself instead of a target: a value a stage returns, rendered in the client's
 * dialect by `renderRefusal` only.
 */
export type GatewayRefusal =
  | {
      /** No configured client key matches the one presented (or none was presented): the dialect's own 401. */
      readonly kind: 'client-key';
      /**
       * The operator log outcome: `refused:client-key`, or with governance why the key was refused
       * (`refused:revoked-key`, `refused:expired-key`, `refused:tenant-disabled`); the client sees the same 401 for all.
       */
      readonly outcome: string;
    }
  | {
      /** A tenant limit, or the governance store out of reach: rendered by `governanceRefusalResponse`. */
      readonly kind: 'governance';
      readonly code: GovernanceRefusalCode;
      /** When waiting helps. */
      readonly retryAfterMs?: number | undefined;
      /** The operator log outcome (`refused:<code>`). */
      readonly outcome: string;
      /** The tenant's rate-limit headers. */
      readonly headers: Readonly<Record<string, string>>;
    }
  | {
      /** A failure the dialect's egress encodes (`encodeError`), with the status that egress maps it to. */
      readonly kind: 'egress';
      /** What failed, as the egress codecs read it. */
      readonly failure: EgressFailureV3;
      /** The operator log outcome (`refused:...`, `failed:...`, `cancelled`). */
      readonly outcome: string;
      /** Headers the refusal carries besides the egress's own (a target's rate-limit headers passed on). */
      readonly headers: Readonly<Record<string, string>>;
    };

/** The client-key refusal. */
export const CLIENT_KEY_REFUSAL: GatewayRefusal = { kind: 'client-key', outcome: 'refused:client-key' };

/** A governance refusal. */
export function governanceRefusal(code: GovernanceRefusalCode, retryAfterMs: number | undefined, headers: Readonly<Record<string, string>> = {}): GatewayRefusal {
  return { kind: 'governance', code, retryAfterMs, outcome: `refused:${code}`, headers };
}

/** A refusal the dialect's egress encodes. */
export function egressRefusal(failure: EgressFailureV3, outcome: string, headers: Readonly<Record<string, string>> = {}): GatewayRefusal {
  return { kind: 'egress', failure, outcome, headers };
}
