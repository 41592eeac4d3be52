import type { CacheControlV2 } from '@tokenforge/model-protocol';
import { invalidClientField, isClientObject, isUnset, type ClientJsonObject } from '../openai-common/client-json.js';

/**
 * Reads the `cache_control` that OpenAI-compatible routers accept on a chat text part, in Anthropic's shape
 * (`{type: "ephemeral", ttl?: "5m" | "1h"}`, https://openrouter.ai/docs/client-sdks/typescript/models/anthropiccachecontroldirective.md),
 * into a normalized breakpoint: `5m` → 300 s, `1h` → 3600 s, no `ttl` → the provider default. OpenAI itself has no
 * such field; a target without breakpoints ignores the hint.
 */
export function readClientCacheControl(part: ClientJsonObject, path: string): CacheControlV2 | undefined {
  const value = part.cache_control;
  if (isUnset(value)) return undefined;
  if (!isClientObject(value)) throw invalidClientField(`${path}cache_control`, 'must be an object');
  if (value.type !== 'ephemeral') throw invalidClientField(`${path}cache_control.type`, 'must be ephemeral');
  const ttl = value.ttl;
  if (isUnset(ttl)) return { type: 'ephemeral' };
  if (ttl === '5m') return { type: 'ephemeral', ttlSeconds: 300 };
  if (ttl === '1h') return { type: 'ephemeral', ttlSeconds: 3600 };
  throw invalidClientField(`${path}cache_control.ttl`, 'must be 5m or 1h');
}
