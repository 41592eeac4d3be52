import type { ProviderAuthSchemeV1 } from '@tokenforge/model-protocol';
import type { HttpTransportCredentials } from '../http-transport-options.js';
import { mintHs256Jwt } from './mint-hs256-jwt.js';

/** The name of the header that carries the credential under a scheme (lower-case). */
export function credentialHeaderName(auth: ProviderAuthSchemeV1): string {
  return auth.scheme === 'header' ? auth.headerName : 'authorization';
}

/**
 * The credential header of one request. A JWT is minted fresh for every request (and every redirect hop),
 * so a token never outlives its short `exp`.
 */
export function credentialHeader(
  auth: ProviderAuthSchemeV1,
  credentials: HttpTransportCredentials,
  nowMs: number,
): readonly [name: string, value: string] {
  switch (auth.scheme) {
    case 'bearer':
      return ['authorization', `Bearer ${apiKeyOf(credentials)}`];
    case 'header':
      return [auth.headerName, apiKeyOf(credentials)];
    case 'hs256-jwt': {
      if (credentials.type !== 'access-key') throw new TypeError('credentials do not match the auth scheme');
      const token = mintHs256Jwt({
        accessKey: credentials.accessKey,
        secretKey: credentials.secretKey,
        nowSeconds: Math.floor(nowMs / 1000),
        lifetimeSeconds: auth.lifetimeSeconds,
        notBeforeSkewSeconds: auth.notBeforeSkewSeconds,
      });
      return ['authorization', `Bearer ${token}`];
    }
    default: {
      const unreachable: never = auth;
      throw new TypeError(`unknown auth scheme ${String(unreachable)}`);
    }
  }
}

function apiKeyOf(credentials: HttpTransportCredentials): string {
  if (credentials.type !== 'api-key') throw new TypeError('credentials do not match the auth scheme');
  return credentials.apiKey;
}
