import { REDIS_SCRIPT_PRELUDE } from './redis-script-prelude.js';

/**
 * Reads (never writes) the current use of a tenant's limits and its keys', on the Redis clock: requests and tokens in
 * the last 60 s, slots held, and the budget's spent and reserved micros of the current period.
 *
 * KEYS: 1-5 the tenant's request log, token log, token weights, slots, budget; then 4 per key (request log, token
 * log, token weights, slots). ARGV: 1 clock override, 2 budget currency (`''` without a budget), 3 budget period.
 * Answers `{requests, tokens, inFlight, spent, reserved, then requests, tokens, inFlight per key}`.
 */
export const REDIS_LIMIT_USE_SCRIPT = `${REDIS_SCRIPT_PRELUDE}
local now = now_ms(ARGV[1])
local function use(rq, tk, tkn, sl)
  local requests = redis.call('ZCOUNT', rq, '(' .. int(now - WINDOW_MS), '+inf')
  local tokens = 0
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', tk, '(' .. int(now - WINDOW_MS), '+inf')) do
    tokens = tokens + (tonumber(redis.call('HGET', tkn, member)) or 0)
  end
  return requests, tokens, redis.call('ZCOUNT', sl, int(now), '+inf')
end
local answer = {}
local requests, tokens, in_flight = use(KEYS[1], KEYS[2], KEYS[3], KEYS[4])
local spent, reserved = 0, 0
if ARGV[2] ~= '' then
  local suffix = ARGV[2] .. '|' .. periods(now)[ARGV[3]].id
  spent = tonumber(redis.call('HGET', KEYS[5], 's|' .. suffix)) or 0
  reserved = tonumber(redis.call('HGET', KEYS[5], 'r|' .. suffix)) or 0
end
answer = { requests, tokens, in_flight, int(spent), int(reserved) }
for i = 6, #KEYS, 4 do
  local r, t, f = use(KEYS[i], KEYS[i + 1], KEYS[i + 2], KEYS[i + 3])
  table.insert(answer, r)
  table.insert(answer, t)
  table.insert(answer, f)
end
return answer
`;

/** SHA-1 of {@link REDIS_LIMIT_USE_SCRIPT}, pinned. */
export const REDIS_LIMIT_USE_SCRIPT_SHA1 = '6fb00dacc75b9f55d049141789a82797bbbcb035';
