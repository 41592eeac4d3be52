import { REDIS_SCRIPT_PRELUDE } from './redis-script-prelude.js';

/**
 * Failed console sign-ins of one client address, on the Redis clock: a sorted set of failure times, trimmed to the
 * window on every call, so every instance counts the same failures.
 *
 * KEYS: 1 the address's failure log. ARGV: 1 clock override, 2 `check` or `fail` (`fail` adds a failure first),
 * 3 failures allowed, 4 window in milliseconds, 5 a unique member for the added failure. Answers how many
 * milliseconds the address must wait before its next sign-in (0: it may try now).
 */
export const REDIS_SIGN_IN_THROTTLE_SCRIPT = `${REDIS_SCRIPT_PRELUDE}
local now = now_ms(ARGV[1])
local allowed = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', int(now - window))
if ARGV[2] == 'fail' then
  redis.call('ZADD', KEYS[1], int(now), ARGV[5])
  redis.call('PEXPIRE', KEYS[1], int(window))
end
local count = redis.call('ZCARD', KEYS[1])
if count < allowed then return 0 end
local oldest = redis.call('ZRANGE', KEYS[1], count - allowed, count - allowed, 'WITHSCORES')
return tonumber(oldest[2]) + window - now
`;

/** SHA-1 of {@link REDIS_SIGN_IN_THROTTLE_SCRIPT}, pinned. */
export const REDIS_SIGN_IN_THROTTLE_SCRIPT_SHA1 = 'ee424171a3ff30802d80759f49e70c2fe7d7e428';
