import { REDIS_SCRIPT_PRELUDE } from './redis-script-prelude.js';

/**
 * Settlement of one attempt, in one atomic script: the money and its ledger row cannot diverge.
 *
 * 1. Idempotent on the attempt id: an attempt in the settled set (kept `settledKeepMs`) answers `duplicate` and
 *    changes nothing. Otherwise its reservation entry is removed (exactly once: this script is the only writer
 *    besides the orphan sweep, and both run atomically).
 * 2. The reserved micros are released and the actual cost charged, in the reservation's day, month and total
 *    periods, for the tenant and the key. A settlement whose reservation the store does not hold is charged to the
 *    current periods.
 * 3. The token windows' entries for the attempt are corrected to the tokens it used (if still in the window).
 * 4. The request's concurrency slot is released when asked.
 * 5. The ledger row is appended to the outbox stream (`XADD`), which the ledger flushers write to PostgreSQL.
 *
 * KEYS (all but the outbox under `{t:<tenant>}`): 1-4 the tenant's token log, token weights, slots, budget; 5-8 the
 * same for the key; 9 reservations; 10 deadlines; 11 settled attempts; 12 the outbox stream.
 * ARGV: 1 clock override, 2 attempt id, 3 request id, 4 cost micros, 5 used tokens, 6 release slot (`1`/`0`),
 * 7 the ledger row (JSON), 8 currency, 9 how long settled attempt ids are remembered (ms).
 * Answers `{'settled' | 'duplicate', outbox length}`.
 */
export const REDIS_SETTLEMENT_SCRIPT = `${REDIS_SCRIPT_PRELUDE}
local now = now_ms(ARGV[1])
local attempt_id, request_id, cost, used, currency = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), ARGV[8]
local res, dl, done, outbox = KEYS[9], KEYS[10], KEYS[11], KEYS[12]
if redis.call('ZSCORE', done, attempt_id) then return { 'duplicate', redis.call('XLEN', outbox) } end
local packed = redis.call('HGET', res, attempt_id)
local budgets = { KEYS[4], KEYS[8] }
if packed then
  local r = cjson.decode(packed)
  redis.call('HDEL', res, attempt_id)
  redis.call('ZREM', dl, attempt_id)
  local ids = { r.d, r.mo, 't' }
  for _, bg in ipairs(budgets) do
    add_budget(bg, 'r', r.c, ids, negate(r.m))
    add_budget(bg, 's', currency, ids, cost)
  end
  for _, pair in ipairs({ { KEYS[1], KEYS[2] }, { KEYS[5], KEYS[6] } }) do
    local held = tonumber(redis.call('HGET', pair[2], attempt_id))
    if held then
      redis.call('HSET', pair[2], attempt_id, int(used))
      redis.call('HINCRBY', pair[2], '#', int(used - held))
    end
  end
else
  local p = periods(now)
  for _, bg in ipairs(budgets) do add_budget(bg, 's', currency, { p.day.id, p.month.id, p.total.id }, cost) end
end
if ARGV[6] == '1' then
  redis.call('ZREM', KEYS[3], request_id)
  redis.call('ZREM', KEYS[7], request_id)
end
redis.call('ZADD', done, int(now), attempt_id)
redis.call('ZREMRANGEBYSCORE', done, '-inf', '(' .. int(now - tonumber(ARGV[9])))
redis.call('XADD', outbox, '*', 'row', ARGV[7])
return { 'settled', redis.call('XLEN', outbox) }
`;

/** SHA-1 of {@link REDIS_SETTLEMENT_SCRIPT}, pinned. */
export const REDIS_SETTLEMENT_SCRIPT_SHA1 = '381f81855cd0a03c1f1193acfe491fc1bc28b1d2';
