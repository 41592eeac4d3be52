import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/**
 * How a host transport talks to a `kling-video/v1` server: `Authorization: Bearer <JWT>`, minted by the host
 * transport with HS256 from the access key (issuer) and the secret key, living 1,800 seconds with `nbf` 5 seconds in
 * the past (the documented example values, §4 of the media fact sheet). No fixed headers. The adapter never sees
 * the keys or the token.
 */
export const KLING_VIDEO_TRANSPORT_METADATA: ProviderTransportMetadataV1 = Object.freeze({
  auth: Object.freeze({ scheme: 'hs256-jwt' as const, lifetimeSeconds: 1800, notBeforeSkewSeconds: 5 }),
  fixedHeaders: Object.freeze({}),
});
