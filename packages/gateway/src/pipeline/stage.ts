import type { GatewayRefusal } from './gateway-refusal.js';
import type { RequestScope } from './request-scope.js';

/** What a stage decided: go on with its value, or answer the client with a refusal. */
export type StageOutcome<Out> = { readonly kind: 'continue'; readonly value: Out } | { readonly kind: 'refuse'; readonly refusal: GatewayRefusal };

/** One concern of the request path. Never builds a Response and never imports Hono. */
export type Stage<In, Out> = (input: In, scope: RequestScope) => Promise<StageOutcome<Out>>;

/** Go on with `value`. */
export function proceed<Out>(value: Out): StageOutcome<Out> {
  return { kind: 'continue', value };
}

/** Stop and answer with `refusal`. */
export function refuse<Out = never>(refusal: GatewayRefusal): StageOutcome<Out> {
  return { kind: 'refuse', refusal };
}
