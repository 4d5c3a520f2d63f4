-- The next WAITING entries in policy order (ascending order key), without removing them.
-- Empty until the pre-sale draw is complete.
-- KEYS[1] event hash, KEYS[2] waiting bitmap; ARGV[1] key prefix, ARGV[2] limit
local P = ARGV[1]
local ev = redis.call('HMGET', KEYS[1], 'phase', 'presale', 'drawAt')
if not ev[1] then return {'NO_EVENT'} end
local out = {'OK'}
if ev[1] == 'SCHEDULED' or (tonumber(ev[2] or '0') > 0 and not ev[3]) then return out end
local limit = tonumber(ARGV[2])
local w = KEYS[2]
local first = redis.call('BITPOS', w, 1)
if first < 0 then return out end
local byte = math.floor(first / 8)
local n = 0
while n < limit do
  local chunk = redis.call('GETRANGE', w, byte, byte + 255)
  if #chunk == 0 then break end
  for i = 1, #chunk do
    local b = string.byte(chunk, i)
    if b ~= 0 then
      for j = 0, 7 do
        if n < limit and bit.band(b, bit.rshift(128, j)) ~= 0 then
          local key = (byte + i - 1) * 8 + j
          local seq = redis.call('HGET', P .. 'o:' .. math.floor(key / 128), key % 128)
          local rec = redis.call('HGET', P .. 'e:' .. math.floor(tonumber(seq) / 128), tonumber(seq) % 128)
          local visitor = string.match(rec, '^%u|%d+|([^|]*)|')
          table.insert(out, seq)
          table.insert(out, visitor)
          table.insert(out, tostring(key))
          n = n + 1
        end
      end
    end
    if n >= limit then break end
  end
  if n >= limit then break end
  local nxt = redis.call('BITPOS', w, 1, byte + #chunk)
  if nxt < 0 then break end
  byte = math.floor(nxt / 8)
end
return out
