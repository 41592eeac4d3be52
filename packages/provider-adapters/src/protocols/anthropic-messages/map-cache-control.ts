import { CodecErrorV1, type CacheControlV2 } from '@tokenforge/model-protocol';
import type { AnthropicCacheControl } from './wire-request.js';

/** Anthropic's short cache lifetime, in seconds (also the default when no `ttl` is sent). */
export const ANTHROPIC_CACHE_TTL_SHORT_SECONDS = 300;
/** Anthropic's long cache lifetime, in seconds. */
export const ANTHROPIC_CACHE_TTL_LONG_SECONDS = 3600;

/**
 * Maps a normalized cache breakpoint to Anthropic's `cache_control`. Anthropic offers two lifetimes, `5m` and
 * `1h`; the host's `ttlSeconds` becomes the shortest offered lifetime that is at least as long (up to 300 s →
 * `5m`, more → `1h`, which also caps longer requests). Without `ttlSeconds` no `ttl` is sent and the provider
 * default (5 minutes) applies.
 */
export function encodeAnthropicCacheControl(cacheControl: CacheControlV2): AnthropicCacheControl {
  if (cacheControl.ttlSeconds === undefined) return { type: 'ephemeral' };
  return { type: 'ephemeral', ttl: cacheControl.ttlSeconds <= ANTHROPIC_CACHE_TTL_SHORT_SECONDS ? '5m' : '1h' };
}

/** The reverse of {@link encodeAnthropicCacheControl}: `5m` → 300 s, `1h` → 3600 s, no `ttl` → no `ttlSeconds`. */
export function decodeAnthropicCacheControl(cacheControl: AnthropicCacheControl): CacheControlV2 {
  switch (cacheControl.ttl) {
    case undefined:
      return { type: 'ephemeral' };
    case '5m':
      return { type: 'ephemeral', ttlSeconds: ANTHROPIC_CACHE_TTL_SHORT_SECONDS };
    case '1h':
      return { type: 'ephemeral', ttlSeconds: ANTHROPIC_CACHE_TTL_LONG_SECONDS };
    default: {
      const unknownTtl: never = cacheControl.ttl;
      throw new CodecErrorV1('invalid-request', `unknown cache ttl ${String(unknownTtl)}`);
    }
  }
}
