import { createHmac } from 'node:crypto';

/** What one HS256 token is minted from. */
export interface Hs256JwtInput {
  /** The access key, sent as the `iss` claim. */
  readonly accessKey: string;
  /** The HMAC-SHA256 signing secret (UTF-8). */
  readonly secretKey: string;
  /** Current time in epoch seconds. */
  readonly nowSeconds: number;
  /** Seconds until `exp`. */
  readonly lifetimeSeconds: number;
  /** Seconds `nbf` lies in the past. */
  readonly notBeforeSkewSeconds: number;
}

const HEADER_SEGMENT = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** Mints a compact HS256 JWT with the claims `iss`, `exp` and `nbf` (RFC 7519). */
export function mintHs256Jwt(input: Hs256JwtInput): string {
  const claims = {
    iss: input.accessKey,
    exp: input.nowSeconds + input.lifetimeSeconds,
    nbf: input.nowSeconds - input.notBeforeSkewSeconds,
  };
  const signingInput = `${HEADER_SEGMENT}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = createHmac('sha256', input.secretKey).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}
