import { timingSafeEqual } from 'node:crypto';
import type { RuntimeClientKey } from '../runtime/resolve-catalogue.js';
import { clientKeyDigest } from './client-key-digest.js';

/** Where a dialect's clients put their key. */
export type ClientKeyPlacement = 'bearer' | 'anthropic' | 'gemini';

function bearer(headers: Headers): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '');
  return match?.[1];
}

/**
 * The key a request carries, read the way its dialect's SDK sends it: `Authorization: Bearer` (OpenAI, Cohere,
 * the jobs API), `x-api-key` or `Authorization: Bearer` (Anthropic: its SDK sends the bearer form too),
 * `x-goog-api-key` or `?key=` (Gemini).
 */
export function presentedClientKey(placement: ClientKeyPlacement, headers: Headers, query: URLSearchParams): string | undefined {
  switch (placement) {
    case 'bearer':
      return bearer(headers);
    case 'anthropic':
      return headers.get('x-api-key') ?? bearer(headers);
    case 'gemini':
      return headers.get('x-goog-api-key') ?? query.get('key') ?? undefined;
    default: {
      const never: never = placement;
      return never;
    }
  }
}

/**
 * The id of the client key that matches, `undefined` when none does. Compares SHA-256 digests in constant time
 * against every configured key's digest (no early exit), so neither the length nor the position of a key leaks.
 */
export function matchClientKey(presented: string | undefined, keys: readonly RuntimeClientKey[]): string | undefined {
  const candidate = clientKeyDigest(presented ?? '');
  let matched: string | undefined;
  for (const key of keys) {
    const equal = timingSafeEqual(candidate, key.digest);
    if (equal && presented !== undefined && matched === undefined) matched = key.id;
  }
  return matched;
}
