import { REDIS_SCRIPT_PRELUDE } from './redis-script-prelude.js';

/**
 * The orphan sweep of one tenant, in one atomic script: every reservation whose deadline is before `nowMs` (its
 * instance died or lost it) is claimed and settled as `orphaned` at its reserved amount, its slot released, its
 * ledger row appended to the outbox. Several instances may sweep at once: each reservation is claimed by one script
 * run only, and one already settled is skipped.
 *
 * The key-level keys are computed inside from the reservation's key id (same hash tag, so the same slot); only the
 * tenant-level keys are declared. The orphaned row is built by text concatenation around the admission's facts JSON
 * so no number passes through Lua's 14-digit formatting.
 *
 * A slot whose request deadline passed is freed too, also when its reservations were settled but the last settlement
 * never released it (the instance died between two attempts): slots are scored by the request's deadline.
 *
 * KEYS: 1 reservations, 2 deadlines, 3 settled attempts, 4 the outbox stream. ARGV: 1 clock override, 2 nowMs,
 * 3 at most this many per run, 4 the tenant's key prefix (`{t:<tenant>}:`), 5 settled-id memory (ms), 6.. the
 * tenant's key ids (their slot sets are swept too).
 * Answers `{settled count, outbox length}`.
 */
export const REDIS_ORPHAN_SWEEP_SCRIPT = `${REDIS_SCRIPT_PRELUDE}
local now = tonumber(ARGV[2])
local res, dl, done, outbox, prefix = KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[4]
local due = redis.call('ZRANGEBYSCORE', dl, '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local settled = 0
for _, attempt_id in ipairs(due) do
  redis.call('ZREM', dl, attempt_id)
  local packed = redis.call('HGET', res, attempt_id)
  if packed then
    redis.call('HDEL', res, attempt_id)
    if not redis.call('ZSCORE', done, attempt_id) then
      local r = cjson.decode(packed)
      local ids = { r.d, r.mo, 't' }
      for _, bg in ipairs({ prefix .. 'bg', prefix .. 'k:' .. r.k .. ':bg' }) do
        add_budget(bg, 'r', r.c, ids, negate(r.m))
        add_budget(bg, 's', r.c, ids, r.m)
      end
      redis.call('ZREM', prefix .. 'sl', r.r)
      redis.call('ZREM', prefix .. 'k:' .. r.k .. ':sl', r.r)
      redis.call('ZADD', done, ARGV[2], attempt_id)
      redis.call('XADD', outbox, '*', 'row', '{"orphanOf":' .. r.f .. ',"costMicros":' .. r.m .. ',"usedTokens":' .. r.n ..
        ',"startedAtMs":' .. r.s .. ',"settledAtMs":' .. ARGV[2] .. '}')
      settled = settled + 1
    end
  end
end
redis.call('ZREMRANGEBYSCORE', prefix .. 'sl', '-inf', '(' .. ARGV[2])
for i = 6, #ARGV do
  redis.call('ZREMRANGEBYSCORE', prefix .. 'k:' .. ARGV[i] .. ':sl', '-inf', '(' .. ARGV[2])
end
redis.call('ZREMRANGEBYSCORE', done, '-inf', '(' .. int(now - tonumber(ARGV[5])))
return { settled, redis.call('XLEN', outbox) }
`;

/** SHA-1 of {@link REDIS_ORPHAN_SWEEP_SCRIPT}, pinned. */
export const REDIS_ORPHAN_SWEEP_SCRIPT_SHA1 = 'ab9c434b41952fa114f5b255a06325d554666442';
