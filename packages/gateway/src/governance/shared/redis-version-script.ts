/**
 * Raises the governance version counter to ARGV[1] unless it is already higher (two admin changes committed in
 * PostgreSQL in one order may reach Redis in the other). KEYS: 1 the counter. Answers the counter.
 */
export const REDIS_VERSION_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1])) or 0
local proposed = tonumber(ARGV[1])
if proposed > current then
  redis.call('SET', KEYS[1], ARGV[1])
  return proposed
end
return current
`;

/** SHA-1 of {@link REDIS_VERSION_SCRIPT}, pinned. */
export const REDIS_VERSION_SCRIPT_SHA1 = '13c0c79f31cda263acb116b125d0703dbcf2e5e3';
