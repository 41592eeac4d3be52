/**
 * Lua shared by the governance scripts (prepended to each, so every script stays one self-contained `EVALSHA`).
 *
 * - `now_ms(override)`: the store's clock. Redis `TIME` (every instance reads the same clock, never its own); a
 *   non-empty override is accepted only so the contract suite can move time (the store passes one only when built with
 *   a test clock).
 * - `int(n)`: an integer as a Redis argument. Lua numbers are doubles and Redis turns them into text with `%.14g`,
 *   which writes 10^14 as `1e+14`; `%.0f` keeps every integer up to 2^53 exact.
 * - `periods(now)`: the budget period ids of `now` (`d2026-04-15`, `m2026-04`, `t`) and when the next day and month
 *   start, by the civil-from-days algorithm (H. Hinnant), UTC.
 */
export const REDIS_SCRIPT_PRELUDE = `
local WINDOW_MS = 60000
local function now_ms(override)
  if override ~= '' then return tonumber(override) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function int(n) return string.format('%.0f', n) end
local function civil(days)
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  return y, m, d
end
local function days_from_civil(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local mp = m > 2 and m - 3 or m + 9
  local doy = math.floor((153 * mp + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end
local function periods(now)
  local days = math.floor(now / 86400000)
  local y, m, d = civil(days)
  local ny, nm = y, m + 1
  if nm == 13 then ny, nm = y + 1, 1 end
  return {
    day = { id = string.format('d%04d-%02d-%02d', y, m, d), next = (days + 1) * 86400000 },
    month = { id = string.format('m%04d-%02d', y, m), next = days_from_civil(ny, nm, 1) * 86400000 },
    total = { id = 't' },
  }
end
local function add_budget(bg, kind, currency, ids, amount)
  if amount == '0' or amount == '-0' then return end
  for _, id in ipairs(ids) do redis.call('HINCRBY', bg, kind .. '|' .. currency .. '|' .. id, amount) end
end
local function negate(amount)
  if amount == '0' then return '0' end
  if string.sub(amount, 1, 1) == '-' then return string.sub(amount, 2) end
  return '-' .. amount
end
`;
