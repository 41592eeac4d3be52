import { matchClientKey, presentedClientKey, type ClientKeyPlacement } from '../http/authenticate-client.js';
import { CLIENT_KEY_REFUSAL } from '../pipeline/gateway-refusal.js';
import { proceed, refuse, type StageOutcome } from '../pipeline/stage.js';
import type { RuntimeClientKey } from '../runtime/resolve-catalogue.js';

/** What the authenticate stage reads. */
export interface AuthenticateInput {
  readonly request: Request;
  /** Where this route's clients put their key. */
  readonly placement: ClientKeyPlacement;
  /** The configured client keys. */
  readonly clientKeys: readonly RuntimeClientKey[];
}

/** Who the request is. */
export interface AuthenticatedClient {
  /** The id of the client key that matched. */
  readonly clientId: string;
}

/**
 * The client key a request presents, matched against the configured keys: the one key check of every route (the
 * dialects, `/v1/models`, the jobs API). Refuses with the client-key refusal when no key matches.
 */
export async function authenticateStage(input: AuthenticateInput): Promise<StageOutcome<AuthenticatedClient>> {
  const url = new URL(input.request.url);
  const clientId = matchClientKey(presentedClientKey(input.placement, input.request.headers, url.searchParams), input.clientKeys);
  return clientId === undefined ? refuse(CLIENT_KEY_REFUSAL) : proceed({ clientId });
}
