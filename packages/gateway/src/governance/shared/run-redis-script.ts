import type { Redis } from 'ioredis';

/** A Lua script and its pinned SHA-1. */
export interface RedisScriptV1 {
  readonly source: string;
  readonly sha1: string;
}

/**
 * Runs a script by its SHA-1 (`EVALSHA`: one short command per call); when the server does not hold it (`NOSCRIPT`:
 * first use, or after a restart or `SCRIPT FLUSH`) sends the source once with `EVAL`, which also caches it.
 */
export async function runRedisScript(
  redis: Redis,
  script: RedisScriptV1,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha1, keys.length, ...keys, ...args);
  } catch (error) {
    if (!isNoScriptError(error)) throw error;
    return redis.eval(script.source, keys.length, ...keys, ...args);
  }
}

/** A Redis error reply's code is the first word of its text (`NOSCRIPT No matching script...`). */
function isNoScriptError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ReplyError' && error.message.startsWith('NOSCRIPT');
}
