import { z } from 'zod';

/** How the host's transport authenticates requests of a family. Values come from the host, never adapters. */
export const providerAuthSchemeV1Schema = z.discriminatedUnion('scheme', [
  /** `Authorization: Bearer <value>`. */
  z.strictObject({ scheme: z.literal('bearer') }),
  /** The value in a named header, for example `x-api-key` or `x-goog-api-key`. */
  z.strictObject({ scheme: z.literal('header'), headerName: z.string().regex(/^[a-z0-9-]+$/) }),
  /** `Authorization: Bearer <JWT>` minted with HS256 from an access key (issuer) and a signing key. */
  z.strictObject({
    scheme: z.literal('hs256-jwt'),
    /** Lifetime of each minted token in seconds. */
    lifetimeSeconds: z.number().int().min(30).max(3600),
    /** Seconds the `nbf` claim lies in the past, for clock skew. */
    notBeforeSkewSeconds: z.number().int().min(0).max(300),
  }),
]);
export type ProviderAuthSchemeV1 = z.infer<typeof providerAuthSchemeV1Schema>;

/** What a host transport needs to know about a family: how to authenticate and which headers to always send. */
export const providerTransportMetadataV1Schema = z.strictObject({
  /** The authentication scheme. */
  auth: providerAuthSchemeV1Schema,
  /** Headers every request of the family carries (lower-case names), for example `anthropic-version`. */
  fixedHeaders: z.record(z.string().regex(/^[a-z0-9-]+$/), z.string().max(1024)),
});
export type ProviderTransportMetadataV1 = z.infer<typeof providerTransportMetadataV1Schema>;
