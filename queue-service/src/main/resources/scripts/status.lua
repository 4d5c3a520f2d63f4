-- A visitor's status; refreshes liveness at most once per interval, never touches order.
-- KEYS[1] event hash, KEYS[2] visitor's identity bucket, KEYS[3] account's identity bucket
-- ARGV[1] key prefix, ARGV[2] visitor id, ARGV[3] account identity or '', ARGV[4] now (epoch seconds),
-- ARGV[5] liveness interval (seconds)
local P = ARGV[1]
local ev = redis.call('HMGET', KEYS[1], 'phase', 'mode', 'ann', 'rate', 'presale', 'drawAt')
local phase = ev[1]
if not phase then return {'NO_EVENT'} end
local scope = redis.call('HGET', KEYS[1], 'scope')
local idKey, identity = KEYS[2], ARGV[2]
if scope == 'ACCOUNT' and ARGV[3] ~= '' then idKey, identity = KEYS[3], ARGV[3] end
local waiting = redis.call('HGET', P .. 'cnt', 'waiting') or '0'
local head = {phase, ev[2] or '', ev[3] or '', ev[4] or '0', waiting}
local existing = redis.call('HGET', idKey, identity)
if not existing then
  return {'NO_ENTRY', head[1], head[2], head[3], head[4], head[5]}
end
local seq = tonumber(existing)
local bucket = math.floor(seq / 128)
local field = seq % 128
local rec = redis.call('HGET', P .. 'e:' .. bucket, field)
local state, key = string.match(rec, '^(%u)|(%d+)|')
key = tonumber(key)

local drawn = (tonumber(ev[5] or '0') == 0) or (ev[6] ~= false and ev[6] ~= nil)
local ahead = -1
if state == 'W' and key > 0 and phase ~= 'SCHEDULED' and drawn then
  local w = P .. 'w'
  local byte = math.floor(key / 8)
  local c = 0
  if byte > 0 then c = redis.call('BITCOUNT', w, 0, byte - 1) end
  local r = key % 8
  if r > 0 then
    local s = redis.call('GETRANGE', w, byte, byte)
    if #s == 1 then
      local b = bit.rshift(string.byte(s), 8 - r)
      while b > 0 do
        c = c + bit.band(b, 1)
        b = bit.rshift(b, 1)
      end
    end
  end
  ahead = c
end

local offerExpires = ''
if state == 'O' then
  local offer = redis.call('HGET', P .. 'of', seq)
  if offer then offerExpires = string.match(offer, '|(%d+)$') or '' end
end

local now = tonumber(ARGV[4])
local seenKey = P .. 's:' .. bucket
local seen = tonumber(redis.call('HGET', seenKey, field) or '0')
if now - seen >= tonumber(ARGV[5]) then
  redis.call('HSET', seenKey, field, ARGV[4])
end
return {'OK', head[1], head[2], head[3], head[4], head[5], existing, state, tostring(key), tostring(ahead), offerExpires}
