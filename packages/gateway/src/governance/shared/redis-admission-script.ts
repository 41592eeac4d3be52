import { REDIS_SCRIPT_PRELUDE } from './redis-script-prelude.js';

/**
 * Admission of one attempt: every window, slot and budget of its tenant and key checked and taken in one atomic
 * script, on the Redis clock. A refusal writes nothing.
 *
 * Rolling-minute windows are a **sliding window log**: a sorted set per holder of the attempts admitted in the last
 * 60 s (score = admission time), so "at most L in any 60 s" is exact, not approximated (a GCRA or a two-window counter
 * would let a burst at a window edge through). The token window keeps each attempt's reserved tokens in a hash beside
 * its log, with their sum under the field `#`; settlement corrects an attempt's entry to what it used. A window is
 * kept only for a holder with that limit (as in the embedded store): a key without limits costs its slot and budget
 * counters, nothing more. The window state of the answer is what the script learned while it checked and wrote;
 * only a refusal or a later attempt reads it again.
 *
 * Budgets: a hash per holder with spent (`s|<currency>|<period>`) and reserved (`r|...`) micro-units for the current
 * UTC day, month and all time at once, so a settlement or a change of the budget's period needs no other lookup. An
 * attempt fits when spent + reserved + its reservation <= the budget of the configured period.
 *
 * KEYS (all under the tenant's hash tag `{t:<tenant>}`): 1-5 the tenant's request log, token log, token weights,
 * slots, budget; 6-10 the same for the key; 11 reservations (attempt id -> reservation); 12 reservation deadlines.
 * ARGV: 1 clock override (`''` in production), 2 attempt id, 3 request id, 4 key id, 5 first attempt (`1`/`0`),
 * 6 reserved tokens, 7 reserved micros, 8 currency, 9 deadline (epoch ms), 10 the facts JSON an orphaned row is
 * written from, 11-16 the tenant's limits (requests, tokens, concurrency, budget amount, currency, period; `''` when
 * absent), 17-22 the key's.
 * Answers `{kind, code, scope, retryAfterMs, requestLimit, requestRemaining, requestResetMs, tokenLimit,
 * tokenRemaining, tokenResetMs}` with -1 for absent numbers.
 */
export const REDIS_ADMISSION_SCRIPT = `${REDIS_SCRIPT_PRELUDE}
local now = now_ms(ARGV[1])
local attempt_id, request_id, key_id = ARGV[2], ARGV[3], ARGV[4]
local first = ARGV[5] == '1'
local tokens, micros, currency, deadline = tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8], tonumber(ARGV[9])
local function limit(i) if ARGV[i] == '' then return nil end return tonumber(ARGV[i]) end
local function holder(scope, k, a)
  return { scope = scope, rq = KEYS[k], tk = KEYS[k + 1], tkn = KEYS[k + 2], sl = KEYS[k + 3], bg = KEYS[k + 4],
    rpm = limit(a), tpm = limit(a + 1), conc = limit(a + 2), budget = limit(a + 3), budget_currency = ARGV[a + 4],
    budget_period = ARGV[a + 5] }
end
local holders = { holder('tenant', 1, 11), holder('key', 6, 17) }
local res, dl = KEYS[11], KEYS[12]

local function token_sum(h) return tonumber(redis.call('HGET', h.tkn, '#')) or 0 end
local function newest(key)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if #last == 0 then return 0 end
  return math.max(0, tonumber(last[2]) + WINDOW_MS - now)
end
-- What the windows hold is read again only where this script did not learn it (a refusal, a later attempt).
local function states()
  local rl, rr, rs, tl, tr, ts = -1, -1, -1, -1, -1, -1
  for _, h in ipairs(holders) do
    if h.rpm then
      local remaining = math.max(0, h.rpm - (h.requests or redis.call('ZCARD', h.rq)))
      if rr == -1 or remaining < rr then rl, rr, rs = h.rpm, remaining, h.requests_reset or newest(h.rq) end
    end
    if h.tpm then
      local remaining = math.max(0, h.tpm - (h.tokens or token_sum(h)))
      if tr == -1 or remaining < tr then tl, tr, ts = h.tpm, remaining, h.tokens_reset or newest(h.tk) end
    end
  end
  return { rl, rr, rs, tl, tr, ts }
end
local function answer(kind, code, scope, retry)
  local s = states()
  return { kind, code, scope, retry, s[1], s[2], s[3], s[4], s[5], s[6] }
end
-- A window's key outlives its newest entry by at least a window: its expiry is pushed out (a write, copied to the
-- append-only file) only when less than that is left, about once a minute, not on every admission.
local function keep(key)
  if redis.call('PTTL', key) < WINDOW_MS + 1000 then redis.call('PEXPIRE', key, 2 * WINDOW_MS) end
end
-- HMGET and HDEL of many fields, in slices that stay within Lua's limit on unpacked arguments.
local function in_slices(command, key, fields, each)
  for i = 1, #fields, 1000 do
    local reply = redis.call(command, key, unpack(fields, i, math.min(i + 999, #fields)))
    if each then for _, value in ipairs(reply) do each(value) end end
  end
end

if redis.call('HEXISTS', res, attempt_id) == 1 then return answer('admitted', '', '', -1) end

-- Only the windows a limit reads are kept (as the embedded store does); slots are kept for every holder.
for _, h in ipairs(holders) do
  if h.rpm then redis.call('ZREMRANGEBYSCORE', h.rq, '-inf', now - WINDOW_MS) end
  if h.tpm then
    local expired = redis.call('ZRANGEBYSCORE', h.tk, '-inf', now - WINDOW_MS)
    if #expired > 0 then
      local freed = 0
      in_slices('HMGET', h.tkn, expired, function(weight) freed = freed + (tonumber(weight) or 0) end)
      in_slices('HDEL', h.tkn, expired)
      redis.call('ZREMRANGEBYSCORE', h.tk, '-inf', now - WINDOW_MS)
      redis.call('HINCRBY', h.tkn, '#', int(-freed))
    end
  end
  if h.conc then redis.call('ZREMRANGEBYSCORE', h.sl, '-inf', '(' .. int(now)) end
end

if first then
  for _, h in ipairs(holders) do
    if h.rpm then
      h.requests = redis.call('ZCARD', h.rq)
      if h.requests + 1 > h.rpm then
        local oldest = redis.call('ZRANGE', h.rq, 0, 0, 'WITHSCORES')
        local retry = -1
        if #oldest > 0 then retry = math.max(1, tonumber(oldest[2]) + WINDOW_MS - now) end
        return answer('refused', 'tenant-rate-limit', h.scope, retry)
      end
    end
  end
end
for _, h in ipairs(holders) do
  if h.tpm then
    local sum = token_sum(h)
    h.tokens = sum
    if sum + tokens > h.tpm then
      local retry = -1
      if tokens <= h.tpm then
        local log = redis.call('ZRANGE', h.tk, 0, -1, 'WITHSCORES')
        local freed = 0
        for i = 1, #log, 2 do
          freed = freed + (tonumber(redis.call('HGET', h.tkn, log[i])) or 0)
          if sum - freed + tokens <= h.tpm then
            retry = math.max(1, tonumber(log[i + 1]) + WINDOW_MS - now)
            break
          end
        end
      end
      return answer('refused', 'tenant-token-limit', h.scope, retry)
    end
  end
end
if first then
  for _, h in ipairs(holders) do
    if h.conc and redis.call('ZCARD', h.sl) + 1 > h.conc then
      return answer('refused', 'tenant-concurrency-limit', h.scope, -1)
    end
  end
end
local p = periods(now)
for _, h in ipairs(holders) do
  if h.budget and h.budget_currency == currency then
    local period = p[h.budget_period]
    local suffix = currency .. '|' .. period.id
    local held = redis.call('HMGET', h.bg, 's|' .. suffix, 'r|' .. suffix)
    if (tonumber(held[1]) or 0) + (tonumber(held[2]) or 0) + micros > h.budget then
      local retry = -1
      if period.next then retry = period.next - now end
      return answer('refused', 'tenant-budget-exhausted', h.scope, retry)
    end
  end
end

for _, h in ipairs(holders) do
  if first then
    if h.rpm then
      redis.call('ZADD', h.rq, int(now), attempt_id)
      keep(h.rq)
      h.requests, h.requests_reset = h.requests + 1, WINDOW_MS
    end
    redis.call('ZADD', h.sl, int(deadline), request_id)
  end
  if h.tpm and tokens > 0 then
    redis.call('ZADD', h.tk, int(now), attempt_id)
    redis.call('HSET', h.tkn, attempt_id, ARGV[6])
    redis.call('HINCRBY', h.tkn, '#', ARGV[6])
    keep(h.tk)
    keep(h.tkn)
    h.tokens, h.tokens_reset = h.tokens + tokens, WINDOW_MS
  end
  add_budget(h.bg, 'r', currency, { p.day.id, p.month.id, p.total.id }, ARGV[7])
end
redis.call('HSET', res, attempt_id, cjson.encode({ f = ARGV[10], r = request_id, k = key_id, m = ARGV[7], n = ARGV[6],
  c = currency, d = p.day.id, mo = p.month.id, s = int(now) }))
redis.call('ZADD', dl, int(deadline), attempt_id)
return answer('admitted', '', '', -1)
`;

/** SHA-1 of {@link REDIS_ADMISSION_SCRIPT}, pinned: a test fails when the script changes without it. */
export const REDIS_ADMISSION_SCRIPT_SHA1 = 'a3ea949743d1e703198fa2cbf4a64402ce8380f7';
