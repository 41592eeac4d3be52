/**
 * What a gateway refusal means, whatever the dialect: `request-timeout` (the client sent too slowly, 408),
 * `busy` (the gateway's own concurrency limit, 429), `unknown-model` (not in the gateway's catalogue, 404),
 * `unavailable` (the gateway is shutting down: the dialect's overloaded status).
 */
export type GatewayRefusalKind = 'request-timeout' | 'busy' | 'unknown-model' | 'unavailable';

/** A failure the gateway answers itself: its kind and the fixed sentence every dialect writes. */
export interface GatewayRefusalMeaning {
  readonly kind: GatewayRefusalKind;
  readonly message: string;
}

/**
 * Failures the gateway itself answers, not a target (engine-source codes, strings, so that the gateway and the
 * codecs share them without importing each other). Egress codecs give each kind their own status and type; the
 * message names the gateway as the cause so that no client blames an upstream or its own key.
 */
export const GATEWAY_REFUSALS = Object.freeze({
  GATEWAY_BODY_TIMEOUT: { kind: 'request-timeout', message: 'The gateway did not receive the request body in time.' },
  GATEWAY_CONCURRENCY_LIMIT: { kind: 'busy', message: 'The gateway is serving its maximum number of concurrent requests; retry shortly.' },
  GATEWAY_MODEL_NOT_FOUND: { kind: 'unknown-model', message: 'The gateway catalogue has no model of that name for this kind of request.' },
  GATEWAY_SHUTTING_DOWN: { kind: 'unavailable', message: 'The gateway is shutting down; retry on another instance.' },
} as const satisfies Record<string, GatewayRefusalMeaning>);

/** A code of {@link GATEWAY_REFUSALS}. */
export type GatewayRefusalCode = keyof typeof GATEWAY_REFUSALS;

/** Every code of {@link GATEWAY_REFUSALS} mapped through `answer`, with the code's fixed message. */
export function forGatewayRefusals<T>(answer: (meaning: GatewayRefusalMeaning) => T): Record<GatewayRefusalCode, T> {
  return Object.fromEntries(Object.entries(GATEWAY_REFUSALS).map(([code, meaning]) => [code, answer(meaning)])) as Record<GatewayRefusalCode, T>;
}
