import type { GatewayGovernance } from '../governance/wiring/gateway-governance.js';
import type { GovernanceIdentityV1 } from '../governance/v1/governance-runtime-v1.js';
import { matchClientKey, presentedClientKey, type ClientKeyPlacement } from '../http/authenticate-client.js';
import { CLIENT_KEY_REFUSAL } from '../pipeline/gateway-refusal.js';
import { proceed, refuse, type StageOutcome } from '../pipeline/stage.js';
import type { RuntimeClientKey } from '../runtime/resolve-catalogue.js';

/** What the authenticate stage reads. */
export interface AuthenticateInput {
  readonly request: Request;
  /** Where this route's clients put their key. */
  readonly placement: ClientKeyPlacement;
  /** The configured client keys (governance off). */
  readonly clientKeys: readonly RuntimeClientKey[];
  /** Governance: keys are looked up in its snapshot instead (the static keys are tenants of it). */
  readonly governance?: GatewayGovernance | undefined;
}

/** Who the request is. */
export interface AuthenticatedClient {
  /** The id of the client key that matched; with governance, the tenant id. */
  readonly clientId: string;
  /** With governance: the tenant and key. */
  readonly principal?: GovernanceIdentityV1;
}

/**
 * The client key a request presents: the one key check of every route (the dialects, `/v1/models`, the jobs API).
 * Governance off: matched against the configured keys. Governance on: its keyed digest looked up in the applied
 * snapshot; a revoked or expired key, or a disabled tenant's, gets the same refusal as an unknown key, and the
 * operator log outcome says why.
 */
const NO_QUERY = new URLSearchParams();

export async function authenticateStage(input: AuthenticateInput): Promise<StageOutcome<AuthenticatedClient>> {
  // Only Gemini's placement reads the query (`?key=`): the URL is parsed for it alone.
  const query = input.placement === 'gemini' ? new URL(input.request.url).searchParams : NO_QUERY;
  const presented = presentedClientKey(input.placement, input.request.headers, query);
  if (input.governance !== undefined) {
    const found = input.governance.authenticate(presented);
    if (found.kind === 'refused') return refuse(found.reason === 'unknown-key' ? CLIENT_KEY_REFUSAL : { kind: 'client-key', outcome: `refused:${found.reason}` });
    return proceed({ clientId: found.tenant.id, principal: { tenant: found.tenant, key: found.key } });
  }
  const clientId = matchClientKey(presented, input.clientKeys);
  return clientId === undefined ? refuse(CLIENT_KEY_REFUSAL) : proceed({ clientId });
}
